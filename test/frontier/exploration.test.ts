import { describe, expect, it } from 'vitest';

import { ExplorationLedger, SECTION_SAMPLE, SectionExploration, opensSection, pickExploration, sectionOf } from '../../src/frontier/exploration.js';

const e = (path: string) => `https://www.e.org${path}`;
const candidate = (path: string, score: number) => ({ url: e(path), score, item: path });

describe('sectionOf', () => {
    it('is the host and first directory; a page at the root has none', () => {
        expect(sectionOf(e('/news_events/foundation_news/253.html'))).toBe('e.org/news_events');
        expect(sectionOf(e('/News/'))).toBe('e.org/news');
        expect(sectionOf(e('/about.html'))).toBeNull();
        expect(sectionOf('not a url')).toBeNull();
    });
});

describe('pickExploration', () => {
    it('explores the section of the best-scored candidate through its shallowest link', () => {
        const picked = pickExploration([
            candidate('/downloads/tools.html', 0.4),
            candidate('/news_events/foundation_news/253.html', 0.7),
            candidate('/news_events/foundation_news.html', 0.1),
            candidate('/news_events/index.html', 0.05),
        ]);
        // The news section, chosen by its best link; entered through its index, which lists every post.
        expect(picked?.item).toBe('/news_events/index.html');
    });

    it('takes the better-scored of equally shallow links, and ignores pages at the root', () => {
        expect(pickExploration([candidate('/guide/b.html', 0.2), candidate('/guide/a.html', 0.3), candidate('/top.html', 9)])?.item).toBe('/guide/a.html');
        expect(pickExploration([candidate('/top.html', 1)])).toBeUndefined();
        expect(pickExploration([])).toBeUndefined();
    });
});

describe('opensSection', () => {
    it('is opened by an exploration pick, by its entry, or by a sample of its pages; not by one deep page', () => {
        expect(opensSection(e('/news_events/foundation_news/253.html'), false, 1)).toBe(false);
        expect(opensSection(e('/news_events/foundation_news/253.html'), true, 1)).toBe(true);
        expect(opensSection(e('/news_events/'), false, 1)).toBe(true);
        expect(opensSection(e('/news_events/index.html'), false, 1)).toBe(true);
        expect(opensSection(e('/news_events/events/7.html'), false, SECTION_SAMPLE)).toBe(true);
    });
});

describe('ExplorationLedger', () => {
    it("rates exploring by the sections it opened that went on to yield a found page (Jeffreys' mean, ½ untried)", () => {
        const ledger = new ExplorationLedger();
        expect(ledger.value()).toBe(0.5);
        ledger.noteExplored('e.org/news');
        ledger.noteExplored('e.org/about');
        ledger.noteExplored('e.org/news'); // one section, once
        expect(ledger.value()).toBeCloseTo(0.5 / 3);
        ledger.noteFound(e('/news/2024/visa-rules.html'));
        ledger.noteFound(e('/news/2024/more-visa-rules.html')); // a section pays off once
        ledger.noteFound(e('/guide/visa.html')); // a section exploration did not open
        ledger.noteFound(e('/top.html'));
        expect(ledger.counts).toEqual({ explored: 2, productive: 1 });
        expect(ledger.value()).toBeCloseTo(1.5 / 3);
        const restored = ExplorationLedger.fromJSON(JSON.parse(JSON.stringify(ledger.toJSON())));
        expect(restored.counts).toEqual({ explored: 2, productive: 1 });
        expect(ExplorationLedger.fromJSON(undefined).value()).toBe(0.5);
    });
});

describe('SectionExploration', () => {
    it('opens a section by an exploration pick, its entry, or a sample of its pages, and counts the picks', () => {
        const sections = new SectionExploration();
        expect(sections.isUnopened(e('/news/1.html'))).toBe(true);
        expect(sections.isUnopened(e('/about.html'))).toBe(false); // at the root: in no section
        for (let i = 1; i < SECTION_SAMPLE; i++) sections.noteTaken(e(`/news/${i}.html`), false);
        expect(sections.isUnopened(e('/news/x.html'))).toBe(true);
        sections.noteTaken(e(`/news/${SECTION_SAMPLE}.html`), false);
        expect(sections.isUnopened(e('/news/x.html'))).toBe(false);
        sections.noteTaken(e('/guide/a/b.html'), true);
        expect(sections.isUnopened(e('/guide/c.html'))).toBe(false);
        expect([sections.pages, sections.sectionsOpened]).toEqual([1, 2]);
    });

    it('learns what exploring pays from the pages found in the sections it opened, and survives a snapshot', () => {
        const sections = new SectionExploration();
        expect(sections.value()).toBe(0.5); // an untried arm
        sections.noteTaken(e('/guide/a/b.html'), true);
        sections.noteTaken(e('/jobs/a/b.html'), true);
        sections.noteFound(e('/guide/a/c.html'));
        expect(sections.value()).toBeCloseTo(1.5 / 3);
        sections.noteTaken(e('/people/a/b.html'), false);
        const restored = SectionExploration.fromJSON(JSON.parse(JSON.stringify(sections.toJSON())));
        expect(restored.toJSON()).toEqual(sections.toJSON());
        expect(restored.value()).toBeCloseTo(1.5 / 3);
        expect(restored.isUnopened(e('/people/x.html'))).toBe(true); // one deep page does not open it
        expect(SectionExploration.fromJSON({}).pages).toBe(0);
    });
});
