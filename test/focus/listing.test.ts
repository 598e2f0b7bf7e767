import { describe, expect, it } from 'vitest';
import { Focus } from '../../src/focus/focus.js';
import { continuesListing, listingPromise } from '../../src/focus/listing.js';
import { DEPTH_DECAY } from '../../src/focus/link-score.js';

const LIST = 'https://www.e.org/news/index.html?page=3';

describe('continuesListing', () => {
    it('knows the steps of a list: next, previous, arrows and guillemets', () => {
        for (const anchor of ['next', 'Next page', 'previous', '« Prev', 'Older posts', 'Newer entries →', '»', '‹', '>>']) {
            expect(continuesListing(LIST, 'https://www.e.org/news/index.html?page=4', anchor), anchor).toBe(true);
        }
    });

    it('takes a page number only for a URL of the page\'s own template: a number alone may be a footnote or a day', () => {
        expect(continuesListing(LIST, 'https://www.e.org/news/index.html?page=7', '7')).toBe(true);
        expect(continuesListing('https://www.e.org/blog/page/2/', 'https://www.e.org/blog/page/3/', '3')).toBe(true);
        expect(continuesListing(LIST, 'https://www.e.org/calendar/2024/05/15', '15')).toBe(false);
    });

    it('is false for titles, other hosts, the page itself and empty anchors', () => {
        expect(continuesListing(LIST, 'https://www.e.org/news/17.html', 'Next generation sequencing explained')).toBe(false);
        expect(continuesListing(LIST, 'https://other.org/news/?page=4', 'next')).toBe(false);
        expect(continuesListing(LIST, LIST, 'next')).toBe(false);
        expect(continuesListing(LIST, 'https://www.e.org/news/index.html?page=4', '  ')).toBe(false);
        expect(continuesListing('not a url', 'https://www.e.org/x', 'next')).toBe(false);
    });
});

describe('a link that continues a listing', () => {
    const focus = new Focus('nordic conferences', { seedUrls: ['https://www.e.org/'] });
    const listing = { url: LIST, relevance: 0.1, isHub: true };
    const link = (url: string, anchor: string) => ({ url, anchor, context: '', depth: 2 });

    it('is worth the best item of its page one hop further away, and keeps that when the queue is re-scored', () => {
        const item = focus.scoreLink(link('https://www.e.org/news/41.html', 'Nordic conference in Oslo'), listing);
        const alone = focus.scoreLink(link('https://www.e.org/news/index.html?page=4', 'next'), listing);
        const next = focus.scoreLink(link('https://www.e.org/news/index.html?page=4', 'next'), listing, item.signal);
        expect(alone.score).toBeLessThan(item.score * DEPTH_DECAY);
        expect(next.score).toBeCloseTo(item.score * DEPTH_DECAY, 12);
        expect(focus.score(JSON.parse(JSON.stringify(next.signal)))).toBeCloseTo(next.score, 12);
    });

    it('stores the item one level deep and keeps its own score when that is higher', () => {
        const weak = focus.scoreLink(link('https://www.e.org/news/42.html', 'Board minutes'), listing);
        const strong = focus.scoreLink(link('https://www.e.org/nordic/conferences/?page=2', 'Nordic conferences: next'), listing, weak.signal);
        const own = focus.scoreLink(link('https://www.e.org/nordic/conferences/?page=2', 'Nordic conferences: next'), listing);
        expect(strong.score).toBe(own.score);
        const chained = focus.scoreLink(link('https://www.e.org/news/index.html?page=5', 'next'), listing, strong.signal);
        expect(chained.signal.continues?.continues).toBeUndefined();
    });
});

describe('listingPromise', () => {
    const focus = new Focus('nordic conferences', { seedUrls: ['https://www.e.org/'] });
    const score = (signal: Parameters<typeof focus.score>[0]) => focus.score(signal);
    const list = (page: number) => ({ url: `https://www.e.org/news/?page=${page}`, relevance: 0.1, isHub: true });
    const link = (url: string, anchor: string, depth: number) => ({ url, anchor, context: '', depth });

    it('is the page\'s best item, unless the page was reached by continuing the list and the list promised more before', () => {
        const strong = focus.scoreLink(link('https://www.e.org/news/41.html', 'Nordic conference in Oslo', 3), list(3));
        const weak = focus.scoreLink(link('https://www.e.org/news/51.html', 'Board minutes', 4), list(4));
        const viaNext = focus.scoreLink(link('https://www.e.org/news/?page=4', 'next', 3), list(3), strong.signal).signal;
        expect(listingPromise(weak.signal, null, score)).toBe(weak.signal);
        expect(listingPromise(strong.signal, viaNext, score)).toBe(strong.signal);
        // Page 4 holds only board minutes: its next link keeps page 3's conference post, as if it stood on page 4.
        const carried = listingPromise(weak.signal, viaNext, score)!;
        expect(carried).toMatchObject({ anchorTerms: strong.signal.anchorTerms, depth: strong.signal.depth + 1 });
        expect(score(carried)).toBeCloseTo(strong.score * DEPTH_DECAY, 12);
        expect(listingPromise(undefined, viaNext, score)).toEqual(carried);
    });

    it('fades page by page while the list reveals nothing better', () => {
        const strong = focus.scoreLink(link('https://www.e.org/news/41.html', 'Nordic conference in Oslo', 3), list(3));
        let via = focus.scoreLink(link('https://www.e.org/news/?page=4', 'next', 3), list(3), strong.signal).signal;
        const scores: number[] = [];
        for (let page = 4; page < 8; page++) {
            const next = focus.scoreLink(link(`https://www.e.org/news/?page=${page + 1}`, 'next', page), list(page), listingPromise(undefined, via, score));
            scores.push(next.score);
            via = next.signal;
        }
        for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeCloseTo(scores[i - 1]! * DEPTH_DECAY, 12);
    });
});
