import { describe, expect, it } from 'vitest';
import { Focus } from '../../src/focus/focus.js';
import { continuesListing } from '../../src/focus/listing.js';
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
