import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
    AdaptiveStop,
    DEFAULT_ADAPTIVE_OPTIONS,
    EVIDENCE_RELEVANCE,
    HARVEST_WINDOW_PATIENCE,
    MIN_RELEVANCE,
    type AdaptivePage,
    type QueryTerms,
} from '../../src/focus/adaptive.js';

const words = (text: string): string[] => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Minimal query: lowercase words, exact match. */
function queryOf(text: string): QueryTerms {
    const terms = words(text);
    return {
        size: terms.length,
        terms,
        termsIn(body: string) {
            const present = new Set(words(body));
            return new Set(terms.flatMap((term, i) => (present.has(term) ? [i] : [])));
        },
    };
}

const query = queryOf('student housing');
const blindJunk: AdaptivePage = { relevance: 0, markdown: 'Campus news of the week.', blind: true };
const linkedJunk: AdaptivePage = { ...blindJunk, blind: false };
const relevant = (markdown: string): AdaptivePage => ({ relevance: 0.5, markdown, blind: false });

/** `n` paragraphs of distinct filler, each mentioning `mention`. */
function paragraphsAbout(mention: string, n: number, tag: string): string {
    return Array.from({ length: n }, (_, i) => `Paragraph ${tag}-${i} about ${mention} with some more words.`).join('\n\n');
}

function observeAll(stop: AdaptiveStop, pages: AdaptivePage[]) {
    return pages.map((page) => stop.observe(page));
}

describe('AdaptiveStop', () => {
    it('calls a page novel when it is relevant and not a repeat of paragraphs read before, at any harvest size', () => {
        const stop = new AdaptiveStop(query);
        const listing = paragraphsAbout('housing', 20, 'card'); // 180 words: the minGain bar is 9
        expect(stop.observe(relevant(listing)).novel).toBe(true);
        expect(stop.observe(relevant(listing)).novel).toBe(false); // the same cards again, e.g. a filtered view of the list
        const mostlyOld = stop.observe(relevant(`${listing}\n\nOne new sentence on student housing.`));
        expect(mostlyOld).toMatchObject({ hit: false, novel: true }); // new, but a small share of the page and below minGain
        expect(stop.observe({ relevance: (MIN_RELEVANCE + EVIDENCE_RELEVANCE) / 2, markdown: listing, blind: false }).novel).toBe(true); // neutral band: not compared
        expect(stop.observe(linkedJunk).novel).toBe(false);
    });

    it('defaults to patience 5, minGain 0.05, evidencePerTerm 3, coverageThreshold 0.8, recallTarget 0.9, maxExpectedLeft 1', () => {
        expect(DEFAULT_ADAPTIVE_OPTIONS).toEqual({ patience: 5, minGain: 0.05, evidencePerTerm: 3, coverageThreshold: 0.8, recallTarget: 0.9, maxExpectedLeft: 1 });
    });

    it('stops with no_relevant_pages after 10 blind pages with patience 5', () => {
        const stop = new AdaptiveStop(query, { patience: 5 });
        const verdicts = observeAll(stop, Array(10).fill(blindJunk));
        expect(verdicts.slice(0, 9).every((v) => v.stop === null && !v.hit)).toBe(true);
        expect(verdicts[9]!.stop).toBe('no_relevant_pages');
        expect(stop.summary().stopReason).toBe('no_relevant_pages');
    });

    it('scales the cold stop with patience', () => {
        const stop = new AdaptiveStop(query, { patience: 2 });
        expect(observeAll(stop, Array(4).fill(blindJunk)).map((v) => v.stop)).toEqual([null, null, null, 'no_relevant_pages']);
    });

    it('does not count irrelevant pages reached through promising links towards the cold stop', () => {
        const stop = new AdaptiveStop(query);
        expect(observeAll(stop, Array(30).fill(linkedJunk)).every((v) => v.stop === null)).toBe(true);
        // A promising link that disappoints also breaks a run of blind pages.
        observeAll(stop, Array(9).fill(blindJunk));
        stop.observe(linkedJunk);
        expect(observeAll(stop, Array(9).fill(blindJunk)).every((v) => v.stop === null)).toBe(true);
        expect(stop.observe(blindJunk).stop).toBe('no_relevant_pages');
    });

    it('waits with no_relevant_pages while a page reached through a promising link is still being fetched', () => {
        const stop = new AdaptiveStop(query, { patience: 5 });
        const pendingJunk: AdaptivePage = { ...blindJunk, pending: () => ({ keys: [], promising: true }) };
        expect(observeAll(stop, Array(14).fill(pendingJunk)).every((v) => v.stop === null)).toBe(true);
        // It landed irrelevant: a promising link that disappoints starts the blind count again.
        stop.observe(linkedJunk);
        expect(observeAll(stop, Array(9).fill(blindJunk)).every((v) => v.stop === null)).toBe(true);
        expect(stop.observe(blindJunk).stop).toBe('no_relevant_pages');
    });

    it('waits with no_relevant_pages for the pages that were out when the blind count reached its limit', () => {
        const out = (...keys: string[]): AdaptivePage => ({ ...blindJunk, pending: () => ({ keys, promising: false }) });
        const stop = new AdaptiveStop(query, { patience: 5 });
        observeAll(stop, Array(9).fill(blindJunk));
        expect(stop.observe(out('list', 'menu')).stop).toBeNull();
        // Pages taken since are not waited for, or the rule would never fire on a busy crawl.
        expect(stop.observe(out('list', 'other')).stop).toBeNull();
        // It survives a restart with what it waits for.
        const restored = AdaptiveStop.fromJSON(JSON.parse(JSON.stringify(stop.toJSON())), query);
        expect(restored.observe(out('other', 'more')).stop).toBe('no_relevant_pages');

        // The awaited page was the one that opens the site: the crawl goes on.
        const opened = new AdaptiveStop(query, { patience: 5 });
        observeAll(opened, Array(9).fill(blindJunk));
        expect(opened.observe(out('list')).stop).toBeNull();
        expect(opened.observe({ ...relevant(paragraphsAbout('student housing', 3, 'list')), blind: true }).hit).toBe(true);
        expect(observeAll(opened, Array(10).fill(out('x'))).every((v) => v.stop === null)).toBe(true);
        expect(opened.toJSON().coldAwaiting).toBeUndefined();
    });

    it('gives no evidence and no staleness for pages in the neutral band, but ends a cold run', () => {
        const neutral: AdaptivePage = { relevance: (MIN_RELEVANCE + EVIDENCE_RELEVANCE) / 2, markdown: paragraphsAbout('student housing', 5, 'n'), blind: true };
        const stop = new AdaptiveStop(query);
        observeAll(stop, Array(9).fill(blindJunk));
        expect(stop.observe(neutral)).toEqual({ hit: false, novel: true, found: false, stop: null });
        expect(observeAll(stop, Array(9).fill(blindJunk)).every((v) => v.stop === null)).toBe(true);
        expect(stop.summary().termEvidence).toEqual([0, 0]);

        expect(stop.observe(relevant(paragraphsAbout('student', 1, 'r'))).hit).toBe(true);
        expect(observeAll(stop, Array(20).fill(neutral)).every((v) => v.stop === null && !v.hit)).toBe(true);
        expect(stop.summary()).toMatchObject({ termEvidence: [1, 0], sources: 1, relevantPages: 22 });
    });

    it('treats the band edges as: 0.05 neutral, 0.15 evidence', () => {
        const stop = new AdaptiveStop(query);
        const markdown = paragraphsAbout('housing', 2, 'edge');
        expect(stop.observe({ relevance: MIN_RELEVANCE, markdown, blind: false }).hit).toBe(false);
        expect(stop.observe({ relevance: EVIDENCE_RELEVANCE, markdown, blind: false }).hit).toBe(true);
        expect(stop.summary().termEvidence).toEqual([0, 2]);
    });

    /** Feeds `n` irrelevant pages reached through promising links; returns the stop verdicts. */
    const junk = (stop: AdaptiveStop, n: number) => observeAll(stop, Array(n).fill(linkedJunk)).map((v) => v.stop);
    /** Window of recent pages compared with the earlier harvest. */
    const WINDOW = HARVEST_WINDOW_PATIENCE * DEFAULT_ADAPTIVE_OPTIONS.patience;

    it('needs two sources for coverage: one rich page alone ends saturated, not covered', () => {
        const rich = relevant(`${paragraphsAbout('student', 3, 's')}\n\n${paragraphsAbout('housing', 3, 'h')}`);
        const alone = new AdaptiveStop(query);
        alone.observe(rich);
        expect(alone.summary()).toMatchObject({ coverage: 1, sources: 1 });
        expect(junk(alone, WINDOW + 1).at(-1)).toBe('saturated');

        const twoSources = new AdaptiveStop(query);
        twoSources.observe(rich);
        expect(twoSources.observe(relevant(paragraphsAbout('housing fees', 2, 'f'))).hit).toBe(true);
        expect(twoSources.summary()).toMatchObject({ coverage: 1, sources: 2 });
        const stops = junk(twoSources, WINDOW);
        // the first moment the recent window (all empty) is clearly below the two hits before it
        expect(stops.indexOf('coverage_reached')).toBe(WINDOW - 1);
        expect(stops.slice(0, WINDOW - 1).every((s) => s === null)).toBe(true);
    });

    it('does not call a query covered below the coverage threshold', () => {
        const stop = new AdaptiveStop(query, { evidencePerTerm: 3, coverageThreshold: 0.8 });
        observeAll(stop, [relevant(paragraphsAbout('student', 3, 'a')), relevant(paragraphsAbout('housing', 1, 'b'))]);
        // coverage = (1 + 1/3) / 2 ≈ 0.67
        expect(stop.summary().coverage).toBeCloseTo(2 / 3, 10);
        expect(junk(stop, WINDOW).at(-1)).toBe('saturated');
    });

    it('saturates once the recent harvest is clearly below the earlier one, and keeps reporting it', () => {
        const stop = new AdaptiveStop(query, { patience: 4 });
        const window = HARVEST_WINDOW_PATIENCE * 4;
        for (let i = 0; i < 6; i++) expect(stop.observe(relevant(i === 0 ? paragraphsAbout('housing', 1, 'p0') : paragraphsAbout('student', 2, `p${i}`))).hit).toBe(true);
        const page = relevant(paragraphsAbout('student', 2, 'p1')); // read before: nothing new
        const repeats = observeAll(stop, Array(window).fill(page));
        expect(repeats.every((v) => !v.hit)).toBe(true);
        const first = repeats.findIndex((v) => v.stop === 'saturated');
        // six hits then nothing: the window of 16 must have pushed some hits out before it is "clearly below"
        expect(first).toBeGreaterThan(4);
        expect(repeats.slice(first).every((v) => v.stop === 'saturated')).toBe(true);
        // Later pages are still accounted (hit is reported) but the stop reason stays.
        expect(stop.observe(relevant(paragraphsAbout('housing', 3, 'late')))).toEqual({ hit: true, novel: true, found: true, stop: 'saturated' });
    });

    it('does not call a topic saturated while one of its terms has no evidence at all', () => {
        const stop = new AdaptiveStop(query, { patience: 4 });
        for (let i = 0; i < 6; i++) stop.observe(relevant(paragraphsAbout('student', 2, `s${i}`)));
        const repeats = observeAll(stop, Array(3 * HARVEST_WINDOW_PATIENCE * 4).fill(relevant(paragraphsAbout('student', 2, 's1'))));
        expect(repeats.every((v) => v.stop === null)).toBe(true);
        expect(stop.summary().termEvidence).toEqual([12, 0]);
    });

    it('never stops a crawl whose harvest holds up, with runs of empty pages longer than the patience', () => {
        fc.assert(
            fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 4 }), (pattern) => {
                // A steady harvest: the same pattern of hits and empty runs, over and over (up to 7 empty pages in a row).
                const stop = new AdaptiveStop(query);
                let n = 0;
                for (let round = 0; round < 15; round++) {
                    for (const gap of pattern) {
                        if (stop.observe(relevant(paragraphsAbout('student housing', 2, `h${n++}`))).stop) return false;
                        if (junk(stop, gap).some((s) => s !== null)) return false;
                    }
                }
                return true;
            }),
            { numRuns: 200 },
        );
    });

    it('does not take two hits on the first two pages for a harvest that later dropped', () => {
        // Found by the property above: hit, hit, then one hit every seven pages. The pages before the window were only
        // the two hits, so the steady trickle after them looked like a significant drop.
        const stop = new AdaptiveStop(query);
        let n = 0;
        const verdicts = [];
        for (let round = 0; round < 10; round++) {
            for (const gap of [0, 6, 6, 6]) {
                verdicts.push(stop.observe(relevant(paragraphsAbout('student housing', 2, `h${n++}`))));
                verdicts.push(...junk(stop, gap).map((s) => ({ stop: s })));
            }
        }
        expect(verdicts.every((v) => v.stop === null)).toBe(true);
    });

    it('resets staleness when a page brings new content', () => {
        const stop = new AdaptiveStop(query);
        stop.observe(relevant(paragraphsAbout('student', 2, 'a')));
        observeAll(stop, Array(4).fill(linkedJunk));
        expect(stop.observe(relevant(paragraphsAbout('housing', 2, 'b')))).toEqual({ hit: true, novel: true, found: true, stop: null });
        expect(observeAll(stop, Array(4).fill(linkedJunk)).every((v) => v.stop === null)).toBe(true);
    });

    it('counts a page adding little new text, both below minGain and below half of the page, as nothing new', () => {
        const stop = new AdaptiveStop(query, { minGain: 0.05 });
        // 100 words collected.
        const hundredWords = Array.from({ length: 10 }, (_, i) => `student w${i} a b c d e f g h`).join('\n\n');
        expect(stop.observe(relevant(hundredWords)).hit).toBe(true);
        expect(stop.observe(relevant(`${hundredWords}\n\nhousing one two three`))).toEqual({ hit: false, novel: true, found: true, stop: null }); // 4 < 5, 4 < 52
        expect(stop.summary()).toMatchObject({ sources: 1, termEvidence: [10, 1] });
        expect(stop.observe(relevant(`${hundredWords}\n\nhousing one two three four`)).hit).toBe(true); // 5 ≥ 0.05 · 100
        expect(stop.summary().sources).toBe(2);
    });

    it('keeps counting wholly new pages however much was collected: the minGain bar does not stop a collection', () => {
        const stop = new AdaptiveStop(query, { minGain: 0.1, patience: 3 });
        const page = (i: number) => relevant(`student page ${i} has exactly eight words here`);
        const verdicts = Array.from({ length: 40 }, (_, i) => stop.observe(page(i)));
        expect(verdicts.every((v) => v.hit && v.stop === null)).toBe(true);
        expect(stop.summary().sources).toBe(40);
    });

    it('counts repeated boilerplate paragraphs once, however they are wrapped', () => {
        const nav = 'Home | Student life | Housing | Contact';
        const footer = '© University. All rights reserved.';
        const stop = new AdaptiveStop(query);
        expect(stop.observe(relevant(`${nav}\n\n${footer}\n\nStudent halls open in September.`)).hit).toBe(true);
        expect(stop.observe(relevant(`Home | Student life |\nHousing | Contact\n  \n${footer}\n\nFamily housing has a waiting list.`)).hit).toBe(true);
        expect(stop.observe(relevant(`  ${nav}  \r\n\r\n${footer.replace(' ', '\n')}`))).toEqual({ hit: false, novel: false, found: false, stop: null });
        // nav once + halls paragraph; nav once + family paragraph.
        expect(stop.summary().termEvidence).toEqual([2, 2]);
    });

    it('rejects options that cannot work', () => {
        expect(() => new AdaptiveStop(query, { patience: 0 })).toThrow(/patience/);
        expect(() => new AdaptiveStop(query, { coverageThreshold: 1.5 })).toThrow(/coverageThreshold/);
        expect(() => new AdaptiveStop(query, { evidencePerTerm: 0 })).toThrow(/evidencePerTerm/);
        expect(() => new AdaptiveStop(query, { minGain: -1 })).toThrow(/minGain/);
    });

    it('refuses to restore a state saved for another query', () => {
        const json = JSON.parse(JSON.stringify(new AdaptiveStop(query)));
        expect(() => AdaptiveStop.fromJSON(json, queryOf('library hours'))).toThrow(/another query/);
    });

    it('continues identically after a JSON round trip', () => {
        const paragraphPool = [
            'Student housing applications open in May.',
            'Housing fees are paid each term.',
            'Home | Student life | Housing',
            'The library opens at nine.',
            'International student visa advice.',
            'Dining halls serve three meals a day for every student in housing.',
        ];
        const page = fc.record({
            relevance: fc.constantFrom(0, 0.03, 0.05, 0.1, 0.15, 0.4, 0.9),
            markdown: fc.array(fc.constantFrom(...paragraphPool), { maxLength: 4 }).map((blocks) => blocks.join('\n\n')),
            blind: fc.boolean(),
        });
        fc.assert(
            fc.property(fc.array(page, { maxLength: 40 }), fc.array(page, { maxLength: 40 }), fc.integer({ min: 1, max: 6 }), (before, after, patience) => {
                const original = new AdaptiveStop(query, { patience, minGain: 0.2 });
                observeAll(original, before);
                const restored = AdaptiveStop.fromJSON(JSON.parse(JSON.stringify(original)), query);
                expect(restored.summary()).toEqual(original.summary());
                expect(observeAll(restored, after)).toEqual(observeAll(original, after));
                expect(restored.toJSON()).toEqual(original.toJSON());
            }),
        );
    });
});
