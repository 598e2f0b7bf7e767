import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SKIP_OPTIONS, skipReason } from '../../src/url/index.js';
import { anyUrl } from './arbitraries.js';

describe('skipReason', () => {
    it('fetches ordinary pages and text documents', () => {
        for (const url of [
            'https://www.e.edu/admissions/international/',
            'https://e.edu/catalog.pdf',
            'https://e.edu/forms/application.docx',
            'https://e.edu/data/fees.csv',
            'https://e.edu/sitemap.xml',
            'https://e.edu/robots.txt',
            'https://e.edu/api/programs.json',
            'https://e.edu/book.epub',
            'https://e.edu/v1.2/notes',
            'http://e.edu/',
        ]) {
            expect(skipReason(url), url).toBeNull();
        }
    });

    it("unsupported-scheme: javascript:, mailto:, tel:, data:, file:, ftp:", () => {
        for (const url of [
            'javascript:void(0)',
            'JavaScript:openMenu()',
            'mailto:admissions@e.edu',
            'tel:+1-555-0100',
            'data:text/html,<p>hi</p>',
            'file:///etc/passwd',
            'ftp://ftp.e.edu/pub/',
            'ws://e.edu/socket',
        ]) {
            expect(skipReason(url), url).toBe('unsupported-scheme');
        }
    });

    it('binary-extension: images, media, archives, fonts, scripts and styles, any case', () => {
        for (const url of [
            'https://e.edu/img/campus.JPG',
            'https://e.edu/media/tour.mp4',
            'https://e.edu/podcast/ep1.mp3?dl=1',
            'https://e.edu/downloads/setup.exe',
            'https://e.edu/files/data.tar.gz',
            'https://e.edu/fonts/inter.woff2',
            'https://e.edu/static/app.js',
            'https://e.edu/static/site.css#x',
            'https://e.edu/static/app.js.map',
            'https://e.edu/logo.svg;jsessionid=1',
        ]) {
            expect(skipReason(url), url).toBe('binary-extension');
        }
        // the extension of the last segment only
        expect(skipReason('https://e.edu/images.png/about')).toBeNull();
        expect(skipReason('https://e.edu/gallery/')).toBeNull();
    });

    it('pathological-path: the same segment three or more times in a row', () => {
        expect(skipReason('https://e.edu/more/more/more/')).toBe('pathological-path');
        expect(skipReason('https://e.edu/a/b/b/b/c')).toBe('pathological-path');
        expect(skipReason('https://e.edu/en/en/page')).toBeNull();
        expect(skipReason('https://e.edu/a/b/a/b/a/b')).toBeNull();
    });

    it('too-deep: more than maxPathSegments segments', () => {
        const deep = (n: number) => `https://e.edu/${Array.from({ length: n }, (_, i) => `s${i}`).join('/')}`;
        expect(skipReason(deep(20))).toBeNull();
        expect(skipReason(deep(21))).toBe('too-deep');
        expect(skipReason(deep(6), { maxPathSegments: 5 })).toBe('too-deep');
        expect(DEFAULT_SKIP_OPTIONS.maxPathSegments).toBe(20);
    });

    it('too-long: more than maxUrlLength characters', () => {
        const url = (n: number) => {
            const base = 'https://e.edu/search?q=';
            return base + 'x'.repeat(n - base.length);
        };
        expect(skipReason(url(2048))).toBeNull();
        expect(skipReason(url(2049))).toBe('too-long');
        expect(skipReason(url(101), { maxUrlLength: 100 })).toBe('too-long');
        expect(DEFAULT_SKIP_OPTIONS.maxUrlLength).toBe(2048);
        // a long data: URL is still reported by its scheme
        expect(skipReason(`data:image/png;base64,${'A'.repeat(5000)}`)).toBe('unsupported-scheme');
    });

    it('malformed-url: relative, empty or unparseable', () => {
        for (const url of ['/about', 'about.html', '', 'http://', 'http://exa mple.com/', 'https://e.edu:99999/']) {
            expect(skipReason(url), url).toBe('malformed-url');
        }
        expect(skipReason(undefined as unknown as string)).toBe('malformed-url');
        expect(skipReason({ toString: () => { throw new Error('x'); } } as unknown as string)).toBe('malformed-url');
    });

    it('takes URL objects', () => {
        expect(skipReason(new URL('https://e.edu/a.png'))).toBe('binary-extension');
        expect(skipReason(new URL('https://e.edu/a'))).toBeNull();
    });

    it('ignores nonsense options', () => {
        expect(skipReason('https://e.edu/a/b', { maxPathSegments: NaN, maxUrlLength: -1 })).toBeNull();
    });

    it('never throws on arbitrary input', () => {
        fc.assert(
            fc.property(
                fc.oneof(
                    fc.string({ unit: 'binary', maxLength: 300 }),
                    fc.string({ unit: 'grapheme-ascii', maxLength: 100 }).map((s) => `https://${s}`),
                    fc.string({ unit: 'binary', maxLength: 100 }).map((s) => `http://e.edu/${s}`),
                    anyUrl,
                ),
                (url) => {
                    const reason = skipReason(url);
                    expect([null, 'unsupported-scheme', 'binary-extension', 'pathological-path', 'too-deep', 'too-long', 'malformed-url']).toContain(reason);
                },
            ),
            { numRuns: 3000 },
        );
        fc.assert(fc.property(fc.anything(), (x) => void skipReason(x as string)));
    });
});
