import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFocusedCrawler } from '../../src/index.js';
import { startSchoolSite } from '../helpers/school-site.js';
import type { SchoolQuery, SchoolSite } from '../helpers/school-site.js';

log.setLevel(LogLevel.WARNING);

// Issue 10's held-out failures, on a generated site: with default settings (adaptive stop) and 80 pages the crawl
// finds each query's pages, and an early stop comes only once they are found. In http mode and in adaptive mode, the
// CLI's default (a static site: Chromium only checks which templates need rendering).
describe.each(['http', 'adaptive'] as const)('a school site with the failure modes measured on held-out captures (%s mode, defaults, 80 pages)', (mode) => {
    let site: SchoolSite;
    beforeAll(async () => {
        site = await startSchoolSite();
    });
    afterAll(() => site.close());

    const cases: Array<[SchoolQuery, string]> = [
        ['science department teachers', 'profiles reached only through image links without text'],
        ['CCA clubs and societies', 'club pages that do not repeat the query, listed by a hub'],
        ['admissions scholarships financial assistance', 'yearly posts reachable only through paginated news listings'],
    ];
    it.each(cases)('"%s": finds %s', async (query) => {
        site.requests.length = 0;
        const focused = await createFocusedCrawler({ mode, query, startUrls: [`${site.url}/`], maxPages: 80, storageDir: mkdtempSync(join(tmpdir(), 'cf-school-')) });
        const report = await focused.run();
        expect(site.recall(query), `stopped ${report.stopReason} after ${report.pagesFetched} pages`).toBeGreaterThanOrEqual(0.9);
        expect(report.pagesFetched).toBeLessThanOrEqual(80);
        // The endless calendar is a trap, not a place to spend the budget.
        expect(site.requests.filter((r) => r.path.startsWith('/events/calendar')).length).toBeLessThanOrEqual(5);
    }, 120_000);
});

// Seen as an intermittent failure of the adaptive test on a loaded machine: the best link's page (its render) was still
// in flight while twelve blind probes came back, and the crawl stopped `no_relevant_pages` with the answer on its way.
describe('a slow answer to the best link (http mode, defaults, 80 pages)', () => {
    it('does not let blind probes stop the crawl for nothing relevant while that page is in flight', async () => {
        const site = await startSchoolSite({ slowPaths: { '/admissions/': 1500 } });
        try {
            const query = 'admissions scholarships financial assistance';
            const focused = await createFocusedCrawler({ mode: 'http', query, startUrls: [`${site.url}/`], maxPages: 80, storageDir: mkdtempSync(join(tmpdir(), 'cf-school-')) });
            const report = await focused.run();
            expect(report.stopReason).not.toBe('no_relevant_pages');
            expect(site.recall(query), `stopped ${report.stopReason} after ${report.pagesFetched} pages`).toBeGreaterThanOrEqual(0.8);
        } finally {
            await site.close();
        }
    }, 120_000);
});

// The adaptive test's intermittent failure, made certain: one page of the news list takes as long as a render in
// Chromium, while the other pages come back in milliseconds. The crawl waits for it instead of spending the budget on
// the blind links left meanwhile, so the list's later pages and their posts are reached.
describe('a slow page of a paginated listing (http mode, defaults, 80 pages)', () => {
    it('is waited for, not overtaken by every blind link in the frontier', async () => {
        const site = await startSchoolSite({ slowPaths: { '/news/?page=6': 1500 } });
        try {
            const query = 'admissions scholarships financial assistance';
            const focused = await createFocusedCrawler({ mode: 'http', query, startUrls: [`${site.url}/`], maxPages: 80, storageDir: mkdtempSync(join(tmpdir(), 'cf-school-')) });
            const report = await focused.run();
            expect(site.recall(query), `stopped ${report.stopReason} after ${report.pagesFetched} pages`).toBeGreaterThanOrEqual(0.9);
        } finally {
            await site.close();
        }
    }, 120_000);
});
