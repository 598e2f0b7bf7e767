import { describe, expect, it } from 'vitest';

import { parseActorInput } from '../../src/actor/input.js';

describe('parseActorInput', () => {
    it('maps Website Content Crawler\'s names onto the crawl options', () => {
        const parsed = parseActorInput({
            startUrls: [{ url: 'https://school.example/' }, 'https://school.example/admissions'],
            query: '  admissions scholarships ',
            maxCrawlPages: 40,
            maxCrawlDepth: 3,
            includeUrlGlobs: [{ glob: 'https://school.example/**' }],
            excludeUrlGlobs: ['https://school.example/**/*.zip'],
            crawlerType: 'cheerio',
            useSitemaps: false,
            respectRobotsTxtFile: false,
            ignoreHttpsErrors: true,
            maxConcurrency: 3,
            stop: 'never',
            minRelevance: 0.2,
            maxRequestsPerHost: 2,
            minDelayPerHostMillis: 500,
            documents: false,
        });
        expect(parsed).toEqual({
            ok: true,
            options: {
                startUrls: ['https://school.example/', 'https://school.example/admissions'],
                query: 'admissions scholarships',
                mode: 'http',
                maxPages: 40,
                stop: 'never',
                minRelevance: 0.2,
                maxDepth: 3,
                includeUrlGlobs: ['https://school.example/**'],
                excludeUrlGlobs: ['https://school.example/**/*.zip'],
                maxConcurrency: 3,
                maxRequestsPerHost: 2,
                minDelayPerHostMillis: 500,
                useSitemaps: false,
                respectRobotsTxt: false,
                ignoreHttpsErrors: true,
                documents: false,
            },
        });
        expect(parseActorInput({ startUrls: [{ url: 'https://e.org/' }], crawlerType: 'playwright:adaptive' })).toMatchObject({ ok: true, options: { mode: 'adaptive', query: null } });
    });

    it('says what to fix, field by field', () => {
        const parsed = parseActorInput({ startUrls: [{ url: 'ftp://e.org/' }, { nope: 1 }], maxCrawlPages: 0, crawlerType: 'playwright:firefox', stop: 'soon', minRelevance: 2, useSitemaps: 'yes' });
        expect(parsed.ok).toBe(false);
        const errors = parsed.ok ? [] : parsed.errors;
        expect(errors).toEqual([
            '"startUrls[0]" must be an http(s) URL (got "ftp://e.org/").',
            '"startUrls[1]" must be an http(s) URL (got {"nope":1}).',
            '"crawlerType" must be one of "playwright:chrome", "playwright:adaptive", "cheerio" (got "playwright:firefox").',
            '"stop" must be "adaptive" or "never" (got "soon").',
            '"minRelevance" must be a number from 0 to 1 (got 2).',
            '"maxCrawlPages" must be a whole number ≥ 1 (got 0).',
            '"useSitemaps" must be true or false (got "yes").',
        ]);
        expect(parseActorInput({ startUrls: ['https://e.org/'], includeUrlGlobs: [{ glob: '' }], maxCrawlDepth: -1 })).toEqual({
            ok: false,
            errors: ['"maxCrawlDepth" must be a whole number ≥ 0 (got -1).', '"includeUrlGlobs[0]" must be a glob such as "https://example.com/docs/**" (got {"glob":""}).'],
        });
        expect(parseActorInput(null)).toMatchObject({ ok: false, errors: [expect.stringContaining('"startUrls"')] });
        expect(parseActorInput({ query: 'x' })).toMatchObject({ ok: false, errors: [expect.stringContaining('at least one URL')] });
    });
});
