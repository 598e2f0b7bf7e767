import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Query, TERMS, tokenize } from '../../src/focus/query.js';

describe('tokenize', () => {
    it('lowercases Unicode letters and splits on everything but letters and digits', () => {
        expect(tokenize('ÉCOLE Polytechnique — Zürich, CS101!')).toEqual(['école', 'polytechnique', 'zürich', 'cs101']);
    });

    it('applies NFKC so full-width and ligature forms match their plain spelling', () => {
        expect(tokenize('ＭＩＴ ﬁnance')).toEqual(['mit', 'finance']);
    });

    it('segments Chinese and Japanese into dictionary words instead of one token per run', () => {
        expect(tokenize('留学生签证申请')).toEqual(['留学生', '签证', '申请']);
        expect(tokenize('東京大学の入学試験')).toEqual(['東京', '大学', 'の', '入学', '試験']);
    });

    it('keeps Korean words, which are written with spaces', () => {
        expect(tokenize('서울대학교 입학 안내')).toEqual(['서울대학교', '입학', '안내']);
    });
});

describe('plural and possessive folding', () => {
    const matches = (query: string, text: string) => new Query(query).termsIn(text).size > 0;

    it('lets singular and plural find each other', () => {
        for (const [a, b] of [
            ['student', 'students'],
            ['study', 'studies'],
            ['class', 'classes'],
            ['search', 'searches'],
            ['fee', 'fees'],
            ['scholarship', 'scholarships'],
            ['course', 'courses'],
            ['address', 'addresses'],
        ]) {
            expect(matches(a!, b!), `${a} / ${b}`).toBe(true);
            expect(matches(b!, a!), `${b} / ${a}`).toBe(true);
        }
    });

    it("folds possessives: student's and students' are student", () => {
        expect(matches('student', "the student's guide")).toBe(true);
        expect(matches('student', "our students' union")).toBe(true);
    });

    it('does not over-stem: different words stay different', () => {
        expect(matches('news', 'new programmes')).toBe(false);
        expect(matches('international', 'internationalization')).toBe(false);
        expect(matches('university', 'universe')).toBe(false);
        expect(matches('campus', 'camp')).toBe(false);
        expect(tokenize('campus analysis business has was its')).toEqual(['campus', 'analysis', 'business', 'has', 'was', 'its']);
    });

    it('lets British and American spellings of -logue and -isation meet, and nothing shorter', () => {
        for (const [a, b] of [
            ['dialogue', 'dialog'],
            ['dialogues', 'dialogs'],
            ['catalogue', 'catalog'],
            ['summarisation', 'summarization'],
            ['organisations', 'organization'],
        ]) {
            expect(matches(a!, b!), `${a} / ${b}`).toBe(true);
            expect(matches(b!, a!), `${b} / ${a}`).toBe(true);
        }
        expect(tokenize('log logue promise precise')).toEqual(['log', 'logue', 'promise', 'precise']);
    });

    it('leaves non-English and mixed tokens alone', () => {
        expect(tokenize('Universitäts cs101s')).toEqual(['universitäts', 'cs101s']);
    });
});

describe('Query', () => {
    it('keeps query order and drops repeats', () => {
        const query = new Query('Student housing, student fees');
        expect(query.terms).toEqual(['student', 'housing', 'fee']);
        expect(query.size).toBe(3);
    });

    it('drops English function words from the query but still counts them as tokens of a text', () => {
        const query = new Query('master of science');
        expect(query.terms).toEqual(['master', 'science']);
        const seen: (number | null)[] = [];
        query.forEachTerm('Master of Science degrees', (term) => seen.push(term));
        expect(seen).toEqual([0, null, 1, null]);
    });

    it('keeps function words when the query has nothing else', () => {
        expect(new Query('How to').terms).toEqual(['how', 'to']);
    });

    it(`uses at most ${TERMS} terms`, () => {
        const words = Array.from({ length: 20 }, (_, i) => `word${String.fromCharCode(97 + i)}`);
        const query = new Query(words.join(' '));
        expect(query.size).toBe(TERMS);
        expect(query.termsIn(words.at(-1)!).size).toBe(0);
        expect(query.termsIn(words[15]!)).toEqual(new Set([15]));
    });

    it('finds CJK query terms inside longer text', () => {
        const query = new Query('计算机科学');
        expect(query.terms).toEqual(['计算', '机', '科学']);
        expect(query.termsIn('计算机科学系的研究生招生')).toEqual(new Set([0, 1, 2]));
        expect(query.termsIn('生物学系')).toEqual(new Set());
    });

    it('rejects a query without words, saying what to give', () => {
        expect(() => new Query(' — !? ')).toThrow(/at least one word/);
    });

    it('reports every token of a text, term or not, and each term only by its own index', () => {
        const word = fc.stringMatching(/^[a-z]{1,8}$/);
        fc.assert(
            fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), fc.array(word, { maxLength: 30 }), (queryWords, textWords) => {
                const query = new Query(queryWords.join(' '));
                const text = textWords.join(' ');
                const reported: (number | null)[] = [];
                query.forEachTerm(text, (term) => reported.push(term));
                const tokens = tokenize(text);
                expect(reported).toHaveLength(tokens.length);
                reported.forEach((term, i) => {
                    if (term === null) expect(query.terms).not.toContain(tokens[i]);
                    else expect(query.terms[term]).toBe(tokens[i]);
                });
            }),
        );
    });

    it('finds every one of its terms in its own text', () => {
        fc.assert(
            fc.property(fc.array(fc.stringMatching(/^[a-zà-ÿ]{2,10}$/), { minLength: 1, maxLength: 20 }), (words) => {
                const query = new Query(words.join(' '));
                expect(query.termsIn(query.text).size).toBe(query.size);
            }),
        );
    });

    it('finds query terms of four letters or more inside run-together URL words, and shorter ones only whole', () => {
        const query = new Query('science teachers art clubs');
        const bits = (mask: number) => query.terms.filter((_, i) => mask & (1 << i));
        expect(bits(query.urlMaskOf('school ourscienceteachers'))).toEqual(['science', 'teacher']);
        expect(bits(query.urlMaskOf('school about ccaclubs'))).toEqual(['club']);
        expect(bits(query.urlMaskOf('school start page'))).toEqual([]);
        expect(bits(query.urlMaskOf('school art'))).toEqual(['art']);
        // Text is still matched by whole words only.
        expect(bits(query.maskOf('our scienceteachers'))).toEqual([]);
    });
});
