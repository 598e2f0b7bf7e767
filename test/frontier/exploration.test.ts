import { describe, expect, it } from 'vitest';

import { SECTION_SAMPLE, opensSection, pickExploration, sectionOf } from '../../src/frontier/exploration.js';

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
