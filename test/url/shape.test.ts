import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashHex } from '../../src/stat/index.js';
import { cleanUrl, shapeKey, urlShape } from '../../src/url/index.js';
import { forgetUrlParts } from '../../src/url/parts.js';
import { anyUrl } from './arbitraries.js';

/** The template rule written as plainly as possible, to check the optimised scanner against. */
function referenceShape(url: string): string {
    const { host, pathname, search } = new URL(url);
    const path = pathname
        .split('/')
        .map((segment) => (!/\d/.test(segment) ? segment : segment.length >= 16 ? '*' : segment.replace(/\d+/g, '#')))
        .join('/');
    const names = [...new Set(search.slice(1).split('&').filter((piece) => piece !== '').map((piece) => piece.split('=')[0]!))];
    return `${host.toLowerCase()}${path}${names.length === 0 ? '' : `?${names.sort().join('&')}`}`;
}

describe('urlShape', () => {
    it('replaces digit runs and sorts the parameter names (§2.3 example)', () => {
        expect(urlShape('https://e.edu/events/2024/05?year=2024&month=5')).toBe('e.edu/events/#/#?month&year');
    });

    it('makes calendar and pagination siblings share one template', () => {
        expect(urlShape('http://cs.stanford.edu/events/calendar/month/2016-01.html')).toBe(
            urlShape('http://cs.stanford.edu/events/calendar/month/2015-12.html'),
        );
        expect(urlShape('https://e.edu/news?page=12')).toBe('e.edu/news?page');
        expect(urlShape('https://e.edu/news/page/3/')).toBe('e.edu/news/page/#/');
    });

    it('replaces a long segment with digits by * before the digit rule', () => {
        expect(urlShape('https://e.edu/doc/3f2b9c1e-77aa-4b1c-9d3e-0a1b2c3d4e5f/view')).toBe('e.edu/doc/*/view');
        expect(urlShape('https://e.edu/news/2024-new-scholarship-1234')).toBe('e.edu/news/*');
        expect(urlShape('https://e.edu/news/item-123456789')).toBe('e.edu/news/item-#'); // 15 chars
        expect(urlShape('https://e.edu/international-students')).toBe('e.edu/international-students'); // long, no digit
    });

    it('counts a repeated parameter name once and drops values', () => {
        expect(urlShape('https://virtual.acl2020.org/papers.html?filter=keywords&search=mt&filter=titles')).toBe(
            'virtual.acl2020.org/papers.html?filter&search',
        );
    });

    it('lowercases the host, keeps a non-default port, ignores the fragment', () => {
        expect(urlShape('https://E.EDU:8443/A1#x')).toBe('e.edu:8443/A#');
        expect(urlShape('https://www2.e.edu/')).toBe('www2.e.edu/'); // digits in the host stay
    });

    it('agrees with a plain split/map/join version of the rule on messy URLs', () => {
        fc.assert(
            fc.property(anyUrl, (url) => {
                forgetUrlParts();
                expect(urlShape(url)).toBe(referenceShape(url));
            }),
            { numRuns: 3000 },
        );
        for (const url of ['https://e.edu/a1b22c333/4?b&a=1&&=x&b=2&a', 'https://e.edu/x-12345678901234/y?', 'https://e.edu/']) {
            expect(urlShape(url)).toBe(referenceShape(url));
        }
    });

    it('throws InvalidUrlError on a relative URL', () => {
        expect(() => urlShape('/x')).toThrow(TypeError);
    });
});

describe('shapeKey', () => {
    it('is the hash of the shape, as 16 hex digits', () => {
        const url = 'https://e.edu/events/2024/05?year=2024&month=5';
        expect(shapeKey(url)).toBe(hashHex('e.edu/events/#/#?month&year'));
        expect(shapeKey(url)).toMatch(/^[0-9a-f]{16}$/);
        expect(shapeKey('https://e.edu/events/2023/11?month=11&year=2023')).toBe(shapeKey(url));
    });

    it('gives the same key from the memo of cleanUrl and from a fresh parse', () => {
        fc.assert(
            fc.property(anyUrl, (url) => {
                const cleaned = cleanUrl(url);
                const memoised = shapeKey(cleaned);
                forgetUrlParts();
                expect(memoised).toBe(shapeKey(cleaned));
                expect(shapeKey(new URL(cleaned))).toBe(memoised);
            }),
            { numRuns: 1000 },
        );
    });
});
