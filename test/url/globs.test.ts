import { describe, expect, it } from 'vitest';
import { globToRegExp, UrlGlobs } from '../../src/url/globs.js';

describe('URL globs', () => {
    it('matches * within a segment, ** across segments, ? one character, {a,b} and [classes], on the whole URL', () => {
        const docs = globToRegExp('https://e.org/docs/**');
        expect(docs.test('https://e.org/docs/a/b.html')).toBe(true);
        expect(docs.test('https://e.org/blog/docs/a')).toBe(false);
        const one = globToRegExp('https://e.org/*/index.html');
        expect(one.test('https://e.org/news/index.html')).toBe(true);
        expect(one.test('https://e.org/news/2024/index.html')).toBe(false);
        expect(globToRegExp('https://e.org/**/*.{pdf,docx}').test('https://e.org/forms/x/apply.docx')).toBe(true);
        expect(globToRegExp('https://e.org/page?').test('https://e.org/page2')).toBe(true);
        expect(globToRegExp('https://e.org/[!a]*').test('https://e.org/about')).toBe(false);
        expect(globToRegExp('https://e.org/a+b(c)').test('https://e.org/a+b(c)')).toBe(true); // regex characters are literal
    });

    it('excludes before it includes, and includes everything without include globs', () => {
        const globs = new UrlGlobs(['https://e.org/docs/**'], ['https://e.org/docs/old/**']);
        expect(globs.verdict('https://e.org/docs/new/a')).toBeNull();
        expect(globs.verdict('https://e.org/docs/old/a')).toBe('excluded-by-glob');
        expect(globs.verdict('https://e.org/blog/a')).toBe('not-included-by-glob');
        expect(new UrlGlobs([], ['**.zip']).verdict('https://e.org/a')).toBeNull();
        expect(new UrlGlobs().isEmpty).toBe(true);
    });
});
