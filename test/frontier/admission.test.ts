import { describe, expect, it } from 'vitest';

import { Admission, TrapLearner } from '../../src/frontier/index.js';
import { CrawlScope, UrlGlobs } from '../../src/url/index.js';

function admission(options: { maxDepth?: number; include?: string[]; exclude?: string[] } = {}): Admission {
    return new Admission({
        scope: new CrawlScope(['example.org']),
        maxDepth: options.maxDepth,
        globs: new UrlGlobs(options.include, options.exclude),
        trapLearner: new TrapLearner(),
    });
}

describe('Admission', () => {
    it('gives a URL that passes its cleaned spelling and dedup key', () => {
        const verdict = admission().judge('https://www.example.org/docs/?utm_source=x#top', 1);
        expect(verdict).toMatchObject({ admitted: true, cleaned: 'https://www.example.org/docs/', url: 'https://www.example.org/docs/' });
        expect(verdict.admitted && verdict.uniqueKey).toBeTruthy();
    });

    it('names the first rule a URL breaks, in order: filter, cleaning, scope, depth, globs', () => {
        const rules = admission({ maxDepth: 2, exclude: ['https://www.example.org/private/**'] });
        expect(rules.judge('https://www.example.org/logo.png', 1)).toMatchObject({ admitted: false, reason: 'binary-extension' });
        expect(rules.judge('http://[bad', 1)).toEqual({ admitted: false, reason: 'malformed-url', url: 'http://[bad' });
        expect(rules.judge('https://other.net/docs/', 1)).toEqual({ admitted: false, reason: 'out-of-scope', url: 'https://other.net/docs/' });
        expect(rules.judge('https://www.example.org/docs/', 3)).toMatchObject({ admitted: false, reason: 'beyond-max-depth' });
        expect(rules.judge('https://www.example.org/private/a', 1)).toMatchObject({ admitted: false, reason: 'excluded-by-glob' });
    });

    it('exempts start URLs from the globs, not from scope', () => {
        const rules = admission({ include: ['https://www.example.org/docs/**'] });
        expect(rules.judge('https://www.example.org/blog/a', 1)).toMatchObject({ admitted: false, reason: 'not-included-by-glob' });
        expect(rules.judge('https://www.example.org/blog/a', 0)).toMatchObject({ admitted: true });
        expect(rules.judge('https://other.net/', 0)).toMatchObject({ admitted: false, reason: 'out-of-scope' });
    });
});
