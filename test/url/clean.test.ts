import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
    cleanUrl,
    InvalidUrlError,
    looksLikeRandomId,
    SESSION_PARAMS,
    TRACKER_PARAMS,
    TRACKER_PREFIXES,
} from '../../src/url/index.js';
import { forgetUrlParts, partsOfUrl, urlParts } from '../../src/url/parts.js';
import { anyUrl } from './arbitraries.js';

describe('cleanUrl', () => {
    it('strips_trackers_and_sessions (the nine examples of §2.1 / §10)', () => {
        const cases: [string, string][] = [
            ['https://e.edu/apply?utm_source=x&id=7&fbclid=abc', 'https://e.edu/apply?id=7'],
            ['https://e.edu/p/4/;jsessionid=ABC123', 'https://e.edu/p/4/'],
            ['https://e.edu/p;JSESSIONID=ABC', 'https://e.edu/p'],
            ['https://a.com/?PHPSESSID=f3a9c2', 'https://a.com/'],
            ['https://e.edu/forum?sid=8dd3dede98a7626cbf4e1c23217573da', 'https://e.edu/forum'],
            ['https://e.edu/forum?sid=3&ref=home&source=nav', 'https://e.edu/forum?sid=3&ref=home&source=nav'],
            ['https://e.edu//docs///a', 'https://e.edu/docs/a'],
            ['https://e.edu/list?b=1&a=2', 'https://e.edu/list?b=1&a=2'],
            ['https://e.edu/news?internal_medium=nav&elqTrackId=A1B2&page=2', 'https://e.edu/news?page=2'],
        ];
        for (const [input, expected] of cases) expect(cleanUrl(input)).toBe(expected);
    });

    it('drops the fragment', () => {
        expect(cleanUrl('https://e.edu/admissions#deadlines')).toBe('https://e.edu/admissions');
        expect(cleanUrl('https://e.edu/a?x=1#')).toBe('https://e.edu/a?x=1');
    });

    it('removes session matrix parameters from any path segment, keeping other matrix parameters', () => {
        expect(cleanUrl('https://shop.example/cart;jsessionid=0F1E2D/items?id=3')).toBe('https://shop.example/cart/items?id=3');
        expect(cleanUrl('https://e.edu/p;PHPSESSID=ab;lang=en')).toBe('https://e.edu/p;lang=en');
        expect(cleanUrl('https://e.edu/p;view=full')).toBe('https://e.edu/p;view=full');
    });

    it('lets the parser resolve a dot segment that session stripping uncovers', () => {
        expect(cleanUrl('https://e.edu/a/..;jsessionid=1/b')).toBe('https://e.edu/b');
    });

    it('removes the 41 tracker names in any case', () => {
        expect(cleanUrl('https://e.edu/?GCLID=1&msclkid=2&_hsenc=3&__hstc=4&mc_eid=5&srsltid=6&q=visa')).toBe('https://e.edu/?q=visa');
        expect(cleanUrl('https://e.edu/x?spm=a.b.c&scm=1&igshid=z&li_fat_id=q&wt_mc=w&pk_kwd=k')).toBe('https://e.edu/x');
    });

    it('removes tracker prefixes utm_ mtm_ itm_ internal_ elq', () => {
        expect(cleanUrl('https://e.edu/x?utm_campaign=a&mtm_kwd=b&itm_source=c&internal_link=d&elqaid=e&id=1')).toBe(
            'https://e.edu/x?id=1',
        );
    });

    it('removes session names, also percent-encoded', () => {
        expect(cleanUrl('https://e.edu/x?cfid=1&cftoken=2&zenid=3&oscsid=4&session_id=5&sessionid=6&page=1')).toBe(
            'https://e.edu/x?page=1',
        );
        expect(cleanUrl('https://e.edu/x?utm%5Fsource=a&page=1')).toBe('https://e.edu/x?page=1');
    });

    it('removes sid only when it looks random (≥ 16 letters/digits with a digit)', () => {
        expect(cleanUrl('https://e.edu/t?sid=0123456789abcdef')).toBe('https://e.edu/t');
        expect(cleanUrl('https://e.edu/t?sid=0123456789abcde')).toBe('https://e.edu/t?sid=0123456789abcde'); // 15
        expect(cleanUrl('https://e.edu/t?sid=abcdefghijklmnopq')).toBe('https://e.edu/t?sid=abcdefghijklmnopq'); // no digit
        expect(cleanUrl('https://e.edu/t?sid=physics')).toBe('https://e.edu/t?sid=physics');
    });

    it('keeps content parameters (ref, source, id) and their order', () => {
        expect(cleanUrl('https://e.edu/s?source=rss&id=9&ref=x&utm_term=y&z=1')).toBe('https://e.edu/s?source=rss&id=9&ref=x&z=1');
    });

    it('drops an empty query and empty query pieces', () => {
        expect(cleanUrl('https://e.edu/a?')).toBe('https://e.edu/a');
        expect(cleanUrl('https://e.edu/a?&&x=1&&')).toBe('https://e.edu/a?x=1');
        expect(cleanUrl('https://e.edu/a?utm_source=x#frag')).toBe('https://e.edu/a');
    });

    it('collapses slashes in the path only', () => {
        expect(cleanUrl('https://e.edu/a//b/?next=//c')).toBe('https://e.edu/a/b/?next=//c');
    });

    it('lowercases scheme and host, drops the default port, keeps another port', () => {
        expect(cleanUrl('HTTPS://WWW.E.Edu:443/Path')).toBe('https://www.e.edu/Path');
        expect(cleanUrl('http://e.edu:80/')).toBe('http://e.edu/');
        expect(cleanUrl('http://e.edu:8080/x')).toBe('http://e.edu:8080/x');
    });

    it('turns an IDN host into punycode', () => {
        expect(cleanUrl('https://Bücher.example/Straße?utm_source=x')).toBe('https://xn--bcher-kva.example/Stra%C3%9Fe');
    });

    it('accepts unbalanced percent signs', () => {
        expect(cleanUrl('https://e.edu/100%/x?q=50%&utm_source=a&%zz=1')).toBe('https://e.edu/100%/x?q=50%&%zz=1');
    });

    it('keeps user info', () => {
        expect(cleanUrl('https://user:pw@e.edu/x')).toBe('https://user:pw@e.edu/x');
    });

    it('takes URL objects without changing them', () => {
        const url = new URL('https://e.edu/x?utm_source=a#f');
        expect(cleanUrl(url)).toBe('https://e.edu/x');
        expect(url.href).toBe('https://e.edu/x?utm_source=a#f');
    });

    it('only drops the fragment of non-http URLs', () => {
        expect(cleanUrl('mailto:a@e.edu?subject=hi#x')).toBe('mailto:a@e.edu?subject=hi');
        expect(cleanUrl('ftp://files.e.edu//pub?utm_source=a')).toBe('ftp://files.e.edu//pub?utm_source=a');
    });

    it('throws InvalidUrlError (a TypeError) naming the URL and the reason', () => {
        const cases: [string, RegExp][] = [
            ['/relative/path', /no scheme/],
            ['', /empty/],
            ['http://e.edu:99999/', /invalid port/],
            ['http://exa mple.com/', /invalid host/],
            ['http://', /missing host/],
        ];
        for (const [input, reason] of cases) {
            let error: unknown;
            try {
                cleanUrl(input);
            } catch (e) {
                error = e;
            }
            expect(error).toBeInstanceOf(InvalidUrlError);
            expect(error).toBeInstanceOf(TypeError);
            const e = error as InvalidUrlError;
            expect(e.message).toContain(JSON.stringify(input));
            expect(e.message).toMatch(reason);
            expect(e.url).toBe(input);
            expect(e.code).toBe('ERR_INVALID_URL');
        }
    });

    it('truncates a long bad URL in the message to 200 characters', () => {
        const bad = `http://bad host/${'x'.repeat(500)}`;
        try {
            cleanUrl(bad);
            expect.unreachable();
        } catch (e) {
            const error = e as InvalidUrlError;
            expect(error.message).toContain(`${bad.slice(0, 200)}…`);
            expect(error.message).not.toContain(bad.slice(0, 201));
            expect(error.url).toBe(bad);
        }
    });

    it('is idempotent', () => {
        fc.assert(
            fc.property(anyUrl, (url) => {
                const once = cleanUrl(url);
                expect(cleanUrl(once)).toBe(once);
            }),
            { numRuns: 2000 },
        );
    });

    it('leaves parts that equal a fresh parse of its result (what the memo relies on)', () => {
        fc.assert(
            fc.property(anyUrl, (url) => {
                const cleaned = cleanUrl(url);
                const memo = urlParts(cleaned);
                forgetUrlParts();
                expect(memo).toEqual(partsOfUrl(new URL(cleaned)));
            }),
            { numRuns: 2000 },
        );
    });

    it('never leaves a tracker, a fragment or a double slash in an http(s) URL', () => {
        fc.assert(
            fc.property(anyUrl, (url) => {
                const cleaned = new URL(cleanUrl(url));
                expect(cleaned.hash).toBe('');
                expect(cleaned.pathname).not.toContain('//');
                expect(cleaned.pathname.toLowerCase()).not.toContain(';jsessionid=');
                for (const name of cleaned.searchParams.keys()) expect(name.toLowerCase()).not.toMatch(/^(utm_|fbclid$|phpsessid$)/);
            }),
        );
    });

    it('keeps exactly the non-tracker, non-empty query pieces, as written and in order', () => {
        const removable = (piece: string): boolean => {
            const raw = piece.split('=')[0]!.toLowerCase();
            let name = raw;
            try {
                name = decodeURIComponent(raw);
            } catch {
                // unbalanced %: compared as written
            }
            const value = piece.slice(piece.indexOf('=') + 1);
            return (
                TRACKER_PARAMS.has(name) ||
                SESSION_PARAMS.has(name) ||
                TRACKER_PREFIXES.some((prefix) => name.startsWith(prefix)) ||
                (name === 'sid' && looksLikeRandomId(value))
            );
        };
        fc.assert(
            fc.property(anyUrl, (url) => {
                const { search } = new URL(url);
                const kept = search.slice(1).split('&').filter((piece) => piece !== '' && !removable(piece));
                expect(new URL(cleanUrl(url)).search).toBe(kept.length === 0 ? '' : `?${kept.join('&')}`);
            }),
            { numRuns: 3000 },
        );
    });
});
