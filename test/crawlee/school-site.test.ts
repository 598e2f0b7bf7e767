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

/** The admissions query crawled in http mode with one page's answer held back 1.5 s, as a loaded machine's render is. */
async function crawlWithSlowPage(path: string): Promise<{ recall: number; stopReason: string; why: string }> {
    const site = await startSchoolSite({ slowPaths: { [path]: 1500 } });
    try {
        const query = 'admissions scholarships financial assistance';
        const focused = await createFocusedCrawler({ mode: 'http', query, startUrls: [`${site.url}/`], maxPages: 80, storageDir: mkdtempSync(join(tmpdir(), 'cf-school-')) });
        const report = await focused.run();
        return { recall: site.recall(query), stopReason: report.stopReason, why: `stopped ${report.stopReason} after ${report.pagesFetched} pages` };
    } finally {
        await site.close();
    }
}

describe('a slow page in a crawl of quick ones (http mode, defaults, 80 pages)', () => {
    // Seen as an intermittent failure of the adaptive test on a loaded machine: the best link's page (its render) was
    // still in flight while twelve blind probes came back, and the crawl stopped `no_relevant_pages` with the answer on its way.
    it('does not let blind probes stop the crawl for nothing relevant while the best link\'s page is in flight', async () => {
        const { recall, stopReason, why } = await crawlWithSlowPage('/admissions/');
        expect(stopReason).not.toBe('no_relevant_pages');
        expect(recall, why).toBeGreaterThanOrEqual(0.8);
    }, 120_000);

    // The adaptive test's other intermittent failure, made certain: one page of the news list answers as slowly as a
    // render in Chromium. The crawl waits for it instead of spending the budget on the blind links left meanwhile.
    it('waits for a slow page of a paginated listing rather than let every blind link overtake it', async () => {
        const { recall, why } = await crawlWithSlowPage('/news/?page=6');
        expect(recall, why).toBeGreaterThanOrEqual(0.9);
    }, 120_000);
});
