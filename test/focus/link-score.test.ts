import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATED_FACTOR, FURNITURE_FACTOR } from '../../src/focus/furniture.js';
import {
    DEPTH_DECAY, evidenceScore, FOREIGN_FACTOR, isBlind, LANGUAGE_PORTAL_SCORE, linkScore, provenDemotion, SECTION_SCORE,
    type LinkScoreWeights, type LinkSignal,
} from '../../src/focus/link-score.js';
import { Locality, localityKeys } from '../../src/focus/locality.js';
import { PRIOR_WEIGHTS } from '../../src/focus/model.js';
import { TermWeights } from '../../src/focus/weights.js';

const plain: LinkSignal = {
    anchorTerms: 0, urlTerms: 0, contextTerms: 0, parentRelevance: 0, phrase: false,
    furniture: false, dated: false, foreign: false, section: null, languagePortal: false, depth: 0, locality: null,
};
const start = (terms = 2, englishHomeOpen = true): LinkScoreWeights => ({ terms: new TermWeights(terms), model: PRIOR_WEIGHTS, englishHomeOpen });

describe('linkScore', () => {
    it('equals the fixed formula with no data: 2·anchor + 1.5·url + 1·context + 0.5·parent + 0.5·phrase, × 0.9^depth', () => {
        const signal = { ...plain, anchorTerms: 0b01, urlTerms: 0b11, contextTerms: 0b10, parentRelevance: 0.4, phrase: false, depth: 2 };
        expect(linkScore(signal, start())).toBeCloseTo((2 * 0.5 + 1.5 * 1 + 1 * 0.5 + 0.5 * 0.4) * 0.81, 12);
        const phrase = { ...plain, anchorTerms: 0b11, phrase: true };
        expect(linkScore(phrase, start())).toBeCloseTo(2 + 0.5, 12);
    });

    it('uses the current term weights: a common term covers less', () => {
        const weights = start();
        for (let i = 0; i < 10; i++) weights.terms.observe(i === 0 ? 0b11 : 0b01); // term 0 on every page
        const common = linkScore({ ...plain, anchorTerms: 0b01 }, weights);
        const rare = linkScore({ ...plain, anchorTerms: 0b10 }, weights);
        expect(rare).toBeGreaterThan(3 * common);
    });

    it('applies the strongest demotion only, and never a floor to a demoted link', () => {
        const good = { ...plain, anchorTerms: 0b11, urlTerms: 0b11, contextTerms: 0b11, phrase: true };
        const base = linkScore(good, start());
        expect(linkScore({ ...good, furniture: true }, start())).toBeCloseTo(base * FURNITURE_FACTOR, 12);
        expect(linkScore({ ...good, dated: true }, start())).toBeCloseTo(base * DATED_FACTOR, 12);
        expect(linkScore({ ...good, foreign: true }, start())).toBeCloseTo(base * FOREIGN_FACTOR, 12);
        expect(linkScore({ ...good, furniture: true, dated: true }, start())).toBeCloseTo(base * DATED_FACTOR, 12);
        expect(linkScore({ ...plain, furniture: true, section: 'section' }, start())).toBe(0);
    });

    it('lifts section entries and the open English portal to their floors, then decays', () => {
        expect(linkScore({ ...plain, section: 'section', depth: 1 }, start())).toBeCloseTo(SECTION_SCORE * DEPTH_DECAY, 12);
        expect(linkScore({ ...plain, section: 'subsite' }, start())).toBe(SECTION_SCORE);
        expect(linkScore({ ...plain, languagePortal: true, section: 'subsite' }, start())).toBe(LANGUAGE_PORTAL_SCORE);
        expect(linkScore({ ...plain, languagePortal: true }, start(2, false))).toBe(0);
        const strong = { ...plain, anchorTerms: 0b11, section: 'section' as const };
        expect(linkScore(strong, start())).toBe(2); // a floor never lowers a score
    });

    it('adds the locality weight times the yield of the target\'s neighbourhood, and never goes below zero', () => {
        const locality = new Locality();
        for (const name of ['deadlines', 'checklist', 'faq']) locality.observe(localityKeys(`http://e.edu/admissions/${name}.html`), true, 0.1);
        for (const name of ['faculty', 'lecturer', 'postdoc']) locality.observe(localityKeys(`http://e.edu/jobs/${name}.html`), false, 0.1);
        const weights = { ...start(), locality };
        const at = (path: string) => ({ ...plain, parentRelevance: 0.2, locality: localityKeys(`http://e.edu${path}`) });
        const unknown = linkScore(at('/research/ai.html'), weights);
        expect(unknown).toBeCloseTo(0.5 * 0.2, 12); // nothing fetched there: the fixed formula
        const sibling = linkScore(at('/admissions/visiting.html'), weights);
        expect(sibling).toBeCloseTo(unknown + PRIOR_WEIGHTS[5]! * locality.estimate(localityKeys('http://e.edu/admissions/visiting.html')), 12);
        expect(sibling).toBeGreaterThan(unknown + 0.2);
        expect(linkScore(at('/jobs/staff.html'), weights)).toBe(0); // 0.1 − 0.3: clamped
    });

    it('lifts a demotion where the neighbourhood has paid off in this crawl, and keeps it where it has not', () => {
        const locality = new Locality();
        for (const id of [1, 2, 3]) locality.observe(localityKeys(`http://e.org/news/events/${id}.html`), true, 0.1);
        for (const id of [1, 2, 3]) locality.observe(localityKeys(`http://e.org/news/press/${id}.html`), false, 0.1);
        const weights = { ...start(), locality, model: [...PRIOR_WEIGHTS.slice(0, 5), 0] }; // locality weight 0: only the factor moves
        const post = (path: string) => ({ ...plain, anchorTerms: 0b01, furniture: true, locality: localityKeys(`http://e.org${path}`) });
        const undemoted = linkScore({ ...post('/news/events/4.html'), furniture: false }, weights);
        const proven = linkScore(post('/news/events/4.html'), weights);
        const untried = linkScore(post('/news/jobs/4.html'), weights);
        expect(untried).toBeCloseTo(undemoted * FURNITURE_FACTOR, 12);
        expect(linkScore(post('/news/press/4.html'), weights)).toBeCloseTo(undemoted * FURNITURE_FACTOR, 12);
        expect(proven).toBeGreaterThan(3 * untried);
        expect(proven).toBeLessThan(undemoted);
        // A flat site: the papers that paid off share the root directory with /about.html, whose own template is untried.
        const flat = new Locality();
        for (const id of [1, 2, 3, 4]) flat.observe(localityKeys(`http://e.org/paper_${id}.html`), true, 0.1);
        expect(flat.estimate(localityKeys('http://e.org/about.html'))).toBeGreaterThan(0.1);
        expect(flat.templateEstimate(localityKeys('http://e.org/about.html'))).toBe(0);
        const about = { ...plain, anchorTerms: 0b01, furniture: true, locality: localityKeys('http://e.org/about.html') };
        const flatWeights = { ...start(), locality: flat, model: [...PRIOR_WEIGHTS.slice(0, 5), 0] };
        expect(linkScore(about, flatWeights)).toBeCloseTo(linkScore({ ...about, furniture: false }, flatWeights) * FURNITURE_FACTOR, 12);
        expect(provenDemotion(FURNITURE_FACTOR, 0.5)).toBe(1);
        expect(provenDemotion(FURNITURE_FACTOR, 0.25)).toBeCloseTo(0.6, 12);
    });

    it('shrinks the section floor as the query gets covered, and drops it at full coverage', () => {
        const section = { ...plain, section: 'section' as const };
        expect(linkScore(section, { ...start(), coverage: 0 })).toBe(SECTION_SCORE);
        expect(linkScore(section, { ...start(), coverage: 0.6 })).toBeCloseTo(SECTION_SCORE * 0.4, 12);
        expect(linkScore(section, { ...start(), coverage: 1 })).toBe(0);
        expect(linkScore({ ...section, languagePortal: true }, { ...start(), coverage: 1 })).toBe(LANGUAGE_PORTAL_SCORE); // the portal floor stays
    });

    it('returns a fixed score as given, at any depth', () => {
        expect(linkScore({ ...plain, fixed: 7, depth: 5, furniture: true }, start())).toBe(7);
    });

    it('is non-negative and falls with depth', () => {
        const signal = fc.record({
            anchorTerms: fc.integer({ min: 0, max: 7 }), urlTerms: fc.integer({ min: 0, max: 7 }), contextTerms: fc.integer({ min: 0, max: 7 }),
            parentRelevance: fc.double({ min: 0, max: 1, noNaN: true }), phrase: fc.boolean(), furniture: fc.boolean(), dated: fc.boolean(),
            foreign: fc.boolean(), section: fc.constantFrom(null, 'section' as const, 'subsite' as const), languagePortal: fc.boolean(),
            depth: fc.integer({ min: 0, max: 30 }),
            locality: fc.constant(null),
        });
        fc.assert(
            fc.property(signal, (s) => {
                const score = linkScore(s, start(3));
                expect(score).toBeGreaterThanOrEqual(0);
                expect(linkScore({ ...s, depth: s.depth + 1 }, start(3))).toBeLessThanOrEqual(score);
            }),
        );
    });
});

describe('isBlind', () => {
    it('is true only for a scored link with no query term in anchor, URL or context', () => {
        expect(isBlind(plain)).toBe(true);
        expect(isBlind({ ...plain, parentRelevance: 0.9 })).toBe(true);
        expect(isBlind({ ...plain, contextTerms: 1 })).toBe(false);
        expect(isBlind({ ...plain, fixed: 1000 })).toBe(false);
    });
});

describe('evidenceScore', () => {
    it("is the link's evidence without the news and dated priors and without floors, depth still counted", () => {
        const good = { ...plain, anchorTerms: 0b11, urlTerms: 0b11, phrase: true, depth: 1 };
        const base = linkScore(good, start());
        expect(evidenceScore({ ...good, furniture: true }, start())).toBeCloseTo(base, 12);
        expect(evidenceScore({ ...good, dated: true }, start())).toBeCloseTo(base, 12);
        expect(linkScore({ ...good, furniture: true }, start())).toBeLessThan(base);
        // A section entry with no evidence is not lifted to the section floor.
        expect(evidenceScore({ ...plain, section: 'section' }, start())).toBe(0);
        expect(linkScore({ ...plain, section: 'section' }, start())).toBeGreaterThan(0);
    });

    it('keeps the prior against another language: exploring is not a reason to read a translation', () => {
        const good = { ...plain, anchorTerms: 0b11 };
        expect(evidenceScore({ ...good, foreign: true }, start())).toBeCloseTo(linkScore(good, start()) * FOREIGN_FACTOR, 12);
    });
});
