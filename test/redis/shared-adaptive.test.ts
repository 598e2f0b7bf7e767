// The adaptive stop in a crawl shared by two workers: whichever fires first stops both, with its reason.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startDemoSite, demoLabels } from '../../src/cli/demo-site.js';
import { createFocusedCrawler } from '../../src/index.js';
import { redisUnavailable, startRedis } from '../helpers/redis-server.js';
import type { TestRedis } from '../helpers/redis-server.js';
import type { FocusReport } from '../../src/report/index.js';

describe.skipIf(redisUnavailable !== null)('the adaptive stop of a shared crawl', () => {
    let redis: TestRedis;
    let site: Awaited<ReturnType<typeof startDemoSite>>;
    beforeAll(async () => {
        redis = await startRedis();
        site = await startDemoSite({ latencyMillis: 30 });
    });
    afterAll(async () => {
        await site?.close();
        await redis?.stop();
    });

    const worker = (crawlId: string) =>
        createFocusedCrawler({
            startUrls: [site.url],
            query: demoLabels().query,
            mode: 'http',
            maxPages: 200,
            maxConcurrency: 2,
            storageDir: mkdtempSync(join(tmpdir(), 'cf-adaptive-')),
            redis: { url: redis.url, crawlId, leaseMillis: 5_000 },
        });

    /** A report without the worker's own part: what every worker of the crawl must report alike. */
    const crawlPart = (report: FocusReport) => ({ ...report, sharedCrawl: { ...report.sharedCrawl!, worker: null } });

    it('fires through the shared store (demo site: 89 pages and an endless calendar), and a worker joining later ends at once with its report', async () => {
        const first = await (await worker('adaptive')).run();
        expect(['coverage_reached', 'saturated']).toContain(first.stopReason);
        expect(first.sharedCrawl!.charged).toBeLessThan(200);
        const late = await (await worker('adaptive')).run();
        expect(late.stopReason).toBe(first.stopReason);
        expect(late.sharedCrawl!.worker).toMatchObject({ requests: 0, delivered: 0 });
        expect(late.sharedCrawl).toMatchObject({ charged: first.sharedCrawl!.charged, leased: 0 });
        expect(crawlPart(late)).toEqual(crawlPart(first));
    }, 120_000);

    it('two workers learn from every page of the crawl: the same traps and rewrite rules, one adaptive stop, one report', async () => {
        const workers = await Promise.all([worker('learning'), worker('learning')]);
        const reports = await Promise.all(workers.map((w) => w.run()));
        const [one, two] = reports as [FocusReport, FocusReport];
        // Each worker fetched part of the crawl, and replayed the other's pages from the crawl's log.
        for (const report of reports) {
            expect(report.sharedCrawl!.worker.requests).toBeGreaterThan(5);
            expect(report.sharedCrawl!.worker.replayed).toBeGreaterThan(5);
        }
        expect(one.sharedCrawl!.worker.requests + two.sharedCrawl!.worker.requests).toBe(one.sharedCrawl!.charged);
        // One stop and one report. (The rule usually fires after about 130 of the site's 137 pages, as with one worker
        // over Redis; which pages finish first decides whether the site runs out just before.)
        expect(['coverage_reached', 'saturated', 'exhausted']).toContain(one.stopReason);
        expect(crawlPart(two)).toEqual(crawlPart(one));
        // Not only the published report: each worker's own learners hold the crawl's traps and rules.
        const own = workers.map((w) => w.focus.report());
        expect(own[0]!.pagesProcessed).toBe(own[1]!.pagesProcessed);
        expect(own[0]!.relevantPages).toBe(own[1]!.relevantPages);
        expect(own[0]!.pagesProcessed).toBe(one.pagesProcessed);
        // Links skipped by reason: each worker's counts travel with its commits, so every worker counts the crawl's.
        expect(own[0]!.skipped).toEqual(own[1]!.skipped);
        expect(one.skipped['duplicate-url']).toBeGreaterThan(0);
        // Exploration, as in one process: every tenth page of each worker goes into a section no worker had opened.
        expect(one.exploration.pages).toBeGreaterThan(0);
        expect(own[0]!.exploration).toEqual(own[1]!.exploration);
        // The adaptive stop weighs the same evidence on both: distinct relevant paragraphs per query term.
        expect(own[0]!.termEvidence).toEqual(own[1]!.termEvidence);
        expect(own[0]!.coverage).toBe(own[1]!.coverage);
        // The same rules; their support may differ by a pair, because a copy is paired with the first spelling each
        // worker read, and the workers read the copies in different orders.
        const ruleOf = ({ support: _support, ...rule }: FocusReport['rewriteRules'][number]) => JSON.stringify(rule);
        for (const report of own) {
            expect(report.traps.map((t) => t.shape).sort()).toEqual(one.traps.map((t) => t.shape).sort());
            expect(report.rewriteRules.map(ruleOf).sort()).toEqual(one.rewriteRules.map(ruleOf).sort());
        }
        expect(one.rewriteRules.length, 'the demo teaches rewrite rules (print=1, index.html)').toBeGreaterThan(0);
        // The workers' datasets together hold each delivered page once.
        const delivered = one.sharedCrawl!.worker.delivered + two.sharedCrawl!.worker.delivered;
        expect(delivered).toBe(one.relevantPages);
    }, 180_000);
});
