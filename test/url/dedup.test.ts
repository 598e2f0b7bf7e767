import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanUrl, dedupKey, hostOf, hostOrNull } from '../../src/url/index.js';
import { keptParam, trackerParam } from './arbitraries.js';

describe('dedupKey', () => {
    it('sorts parameters by name, then value', () => {
        expect(dedupKey('https://e.edu/s?b=2&a=3&a=1')).toBe('https://e.edu/s?a=1&a=3&b=2');
        expect(dedupKey('https://e.edu/s?tag=z&page=2&tag=a')).toBe(dedupKey('https://e.edu/s?tag=a&tag=z&page=2'));
    });

    it('drops the fragment, the default port and empty pieces; lowercases scheme and host', () => {
        expect(dedupKey('HTTP://E.Edu:80/Path?&x=1&#top')).toBe('http://e.edu/Path?x=1');
        expect(dedupKey('https://e.edu/a?')).toBe('https://e.edu/a');
    });

    it('resolves dot segments', () => {
        expect(dedupKey('https://e.edu/a/./b/../c')).toBe('https://e.edu/a/c');
    });

    it('drops the whole query with dropQuery', () => {
        expect(dedupKey('https://e.edu/papers.html?filter=x&search=y', { dropQuery: true })).toBe('https://e.edu/papers.html');
        expect(dedupKey('https://e.edu/papers.html?filter=x', { dropQuery: false })).toBe('https://e.edu/papers.html?filter=x');
    });

    it('keeps the path case and trailing slash (servers may distinguish them)', () => {
        expect(dedupKey('https://e.edu/About/')).not.toBe(dedupKey('https://e.edu/about'));
    });

    it('is stable under parameter reordering after cleanUrl', () => {
        const query = fc.array(fc.oneof(trackerParam, keptParam), { maxLength: 8 });
        fc.assert(
            fc.property(
                fc.webUrl({ withQueryParameters: false, withFragments: true }),
                query.chain((params) => fc.tuple(fc.constant(params), fc.shuffledSubarray(params, { minLength: params.length }))),
                (base, [params, shuffled]) => {
                    const make = (ps: string[]) => {
                        const hash = base.indexOf('#');
                        const [head, fragment] = hash < 0 ? [base, ''] : [base.slice(0, hash), base.slice(hash)];
                        return `${head}${ps.length ? `?${ps.join('&')}` : ''}${fragment}`;
                    };
                    expect(dedupKey(cleanUrl(make(shuffled)))).toBe(dedupKey(cleanUrl(make(params))));
                },
            ),
            { numRuns: 1000 },
        );
    });
});

describe('hostOf', () => {
    it('lowercases and drops a leading www. and the port', () => {
        expect(hostOf('https://WWW.E.edu:8080/x')).toBe('e.edu');
        expect(hostOf('https://journals.e.edu/')).toBe('journals.e.edu');
        expect(hostOf(new URL('http://www.cs.stanford.edu/'))).toBe('cs.stanford.edu');
    });

    it('keeps www. when nothing with a dot would remain, and inner www', () => {
        expect(hostOf('https://www.com/')).toBe('www.com');
        expect(hostOf('https://www2.e.edu/')).toBe('www2.e.edu');
        expect(hostOf('https://cs.www.e.edu/')).toBe('cs.www.e.edu');
    });

    it('turns IDN hosts into punycode and throws on relative URLs', () => {
        expect(hostOf('https://www.Bücher.example/')).toBe('xn--bcher-kva.example');
        expect(() => hostOf('/x')).toThrow(TypeError);
    });

    it('hostOrNull gives the same host, and null where hostOf throws', () => {
        expect(hostOrNull('https://WWW.E.edu:8080/x')).toBe('e.edu');
        expect(hostOrNull('/x')).toBeNull();
        expect(hostOrNull('http://[::1')).toBeNull();
    });
});
