import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CheerioCrawler, Configuration, LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FocusedCrawl } from '../../src/index.js';
import type { LoggingServer } from '../helpers/fault-server.js';
import { treeSite } from './kill-resume.js';

log.setLevel(LogLevel.OFF);

/**
 * Issue 15: under load a budgeted page was lost when the crawler itself failed before the request left it (Chromium
 * slow to open a page), three times in a row. Such failures are simulated by a pre-navigation hook that throws before
 * the scope guard (the point where a request starts to navigate).
 */
describe('failures before navigation', () => {
    let site: LoggingServer;
    beforeAll(async () => {
        site = await treeSite(30, 0);
    });
    afterAll(async () => site.close());

    async function crawlWith(failuresOf: (path: string) => number, maxPages: number) {
        const config = new Configuration({ storageClientOptions: { localDataDirectory: mkdtempSync(join(tmpdir(), 'cf-local-')) }, persistStorage: false });
        const focus = await FocusedCrawl.open({ startUrls: [`${site.url}/p0`], maxPages, config, respectRobotsTxt: false });
        const attempts = new Map<string, number>();
        const before = site.requests.length;
        const crawler = new CheerioCrawler(
            {
                requestQueue: focus.requestQueue,
                maxRequestRetries: 2,
                maxConcurrency: 4,
                preNavigationHooks: [
                    async ({ request }) => {
                        const path = new URL(request.url).pathname;
                        const attempt = (attempts.get(path) ?? 0) + 1;
                        attempts.set(path, attempt);
                        if (attempt <= failuresOf(path)) throw new Error(`simulated: could not open a page for ${path}`);
                    },
                    focus.scopeGuardHook(),
                ],
                requestHandler: focus.handler(),
                errorHandler: focus.errorHandler(),
                failedRequestHandler: focus.failedRequestHandler(),
            },
            config,
        );
        const report = await focus.run(crawler);
        const fetched = site.requests.slice(before).map((r) => r.path).filter((path) => /^\/p\d+$/.test(path));
        return { report, fetched, attempts };
    }

    it('do not use up the retries: every page of the budget is fetched, none lost', async () => {
        // three failures each: with two retries, these pages were lost before
        const { report, fetched } = await crawlWith((path) => (['/p3', '/p5', '/p8'].includes(path) ? 3 : 0), 20);
        expect(report.failures).toEqual({});
        expect(report.pagesFetched).toBe(20);
        expect(fetched).toHaveLength(20);
        expect(fetched).toEqual(expect.arrayContaining(['/p3', '/p5', '/p8']));
    });

    it('are spared a bounded number of times: a page that can never be opened fails after 5 + 3 attempts, and gives its place in the budget to another', async () => {
        const { report, fetched, attempts } = await crawlWith((path) => (path === '/p1' ? Infinity : 0), 10);
        expect(attempts.get('/p1')).toBe(5 + 3);
        expect(fetched).not.toContain('/p1');
        // the site was never asked for /p1, so ten other pages are fetched: the budget is what the site is asked for
        expect(fetched).toHaveLength(10);
        expect(new Set(fetched).size).toBe(10);
        expect(report.pagesFetched).toBe(10);
        expect(report.failures).toEqual({ 'not-sent': 1 });
    });
});
