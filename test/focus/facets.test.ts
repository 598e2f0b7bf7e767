import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collocations, FACET_MIN_PAGES, FacetStats, Facets } from '../../src/focus/facets.js';
import { Query } from '../../src/focus/query.js';

const page = (query: Query, title: string, body: string) => Facets.of(query, title, '', body);

describe('Facets.of', () => {
    const query = new Query('student housing');

    it('separates title/URL, heading and body evidence; a phrase unit needs the terms adjacent', () => {
        const facets = Facets.of(query, 'Housing', 'e edu student', '# Student housing\n\nRooms for every student.');
        // units: 0 student, 1 housing, 2 "student housing"
        expect(facets.about).toBe(0b011); // the title and the URL words are tokenised apart: no phrase across them
        expect(facets.head).toBe(0b111);
        expect(facets.tf).toEqual([2, 1, 1]);
        expect(facets.length).toBe(6); // student housing rooms for every student
        expect(facets.bodyTerms).toBe(0b11);
    });

    it('counts a body phrase across a line break but not a heading phrase across lines', () => {
        const facets = Facets.of(query, '', '', '# Student\n# Housing\n\nstudent\nhousing');
        expect(facets.head).toBe(0b011);
        expect(facets.tf[2]).toBe(2); // "# Student\n# Housing" and "student\nhousing" are both adjacent in the body
    });
});

describe('collocations (Poisson tail + Benjamini–Hochberg)', () => {
    it('collocation_is_a_poisson_tail_test_with_bh', () => {
        expect(collocations([[6, 2]])).toEqual([true]); // P(X ≥ 6 | λ=2) = 0.0166 < δ
        expect(collocations([[5, 2]])).toEqual([false]); // 0.0527 > δ
        expect(collocations([[0, 0]])).toEqual([false]);
        expect(collocations([[6, 2], [5, 2]])).toEqual([true, false]); // smallest p against δ/2, second against δ
        expect(collocations([[5, 2], [5, 2]])).toEqual([false, false]);
    });

    it('is stricter at a smaller delta', () => {
        expect(collocations([[6, 2]], 0.01)).toEqual([false]);
    });
});

describe('FacetStats', () => {
    it('a_page_about_the_rare_facet_beats_one_that_collects_common_words', () => {
        const query = new Query('computer science department faculty research');
        const stats = new FacetStats(query.size);
        const filler = 'The department and faculty support research across the university.';
        const pages = Array.from({ length: 20 }, (_, i) =>
            i % 5 === 0
                ? page(query, 'Computer Science', `${filler} The computer science department lists its faculty.`)
                : page(query, 'Biology', `${filler} Biology research and faculty news.`),
        );
        for (const facets of pages) stats.observe(facets);
        const cs = stats.relevance(pages[0]!);
        const biology = stats.relevance(pages[1]!);
        expect(cs).toBeGreaterThan(2 * biology);
        for (const r of [cs, biology]) expect(r).toBeGreaterThanOrEqual(0), expect(r).toBeLessThanOrEqual(1);
    });

    it('adjacent_query_words_that_go_together_on_the_site_become_a_phrase', () => {
        const housing = new Query('student housing');
        const stats = new FacetStats(housing.size);
        for (let i = 0; i < 12; i++) {
            const body =
                i % 2 === 0
                    ? 'Apply for student housing. Student housing costs and student housing halls.'
                    : 'Every student gets news. Housing market report for the city.';
            stats.observe(page(housing, '', body));
        }
        expect(stats.weights[2]).toBeGreaterThan(0);

        const library = new Query('library hours');
        const apart = new FacetStats(library.size);
        for (let i = 0; i < 12; i++) apart.observe(page(library, '', 'The library is large. Office hours vary.'));
        expect(apart.weights[2]).toBe(0);
    });

    it('before_enough_pages_terms_count_equally', () => {
        const query = new Query('refund policy');
        const stats = new FacetStats(query.size);
        const both = page(query, 'Refund policy', 'Our refund policy.');
        const one = page(query, '', 'A refund.');
        expect(stats.relevance(both)).toBeGreaterThan(stats.relevance(one));
        expect(stats.relevance(page(query, '', 'nothing'))).toBe(0);
    });

    it(`keeps equal term weights and no phrase until ${FACET_MIN_PAGES} pages`, () => {
        const query = new Query('student housing');
        const stats = new FacetStats(query.size);
        const facets = page(query, '', 'student housing student housing student housing student housing');
        for (let i = 1; i < FACET_MIN_PAGES; i++) {
            stats.observe(facets);
            expect(stats.weights).toEqual([1, 1, 0]);
        }
        stats.observe(facets);
        expect(stats.weights).not.toEqual([1, 1, 0]);
    });

    it('gives no weight to a term on no page (it would drag every page down)', () => {
        const query = new Query('visa quantum');
        const stats = new FacetStats(query.size);
        const visa = page(query, 'Visa', 'Visa rules for students.');
        for (let i = 0; i < 4; i++) stats.observe(visa);
        stats.observe(page(query, 'Other', 'Nothing here.'));
        expect(stats.weights[1]).toBe(0);
        expect(stats.weights[0]).toBeGreaterThan(0);
    });

    it('shares sum to 1 and follow the weights', () => {
        const query = new Query('computer science department');
        const stats = new FacetStats(query.size);
        for (let i = 0; i < 6; i++) stats.observe(page(query, '', i % 3 === 0 ? 'computer science department' : 'department'));
        const shares = stats.shares();
        expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
        // "department" is on every page: its IDF ln(7/6.5) is nearly nothing
        expect(shares[2]).toBeLessThan(0.1 * shares[0]!);
    });

    it('keeps relevance in [0, 1] for any pages', () => {
        const word = fc.constantFrom('student', 'housing', 'visa', 'the', 'fees', 'campus', '#', '\n');
        const text = fc.array(word, { maxLength: 40 }).map((words) => words.join(' '));
        fc.assert(
            fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 12 }), (pages) => {
                const query = new Query('student housing visa fees');
                const stats = new FacetStats(query.size);
                const all = pages.map(([title, body]) => page(query, title, body));
                for (const facets of all) {
                    stats.observe(facets);
                    const r = stats.relevance(facets);
                    expect(r).toBeGreaterThanOrEqual(0);
                    expect(r).toBeLessThanOrEqual(1);
                }
            }),
        );
    });

    it('round-trips through JSON with identical weights and relevance', () => {
        const query = new Query('student housing');
        const stats = new FacetStats(query.size);
        const pages = ['student housing halls', 'student news', 'housing market', 'student housing fees'].map((body) => page(query, '', body));
        for (const facets of pages) stats.observe(facets);
        const copy = FacetStats.fromJSON(JSON.parse(JSON.stringify(stats.toJSON())));
        expect(copy.weights).toEqual(stats.weights);
        const next = page(query, 'Housing', 'student housing offices');
        stats.observe(next);
        copy.observe(next);
        expect(copy.relevance(next)).toBe(stats.relevance(next));
    });

    it('rejects a wrong term count with a hint', () => {
        expect(() => new FacetStats(0)).toThrow(/query\.size/);
    });
});
