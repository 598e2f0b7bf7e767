// Workers of one shared crawl in this process (each with its own storage): who may join, and one stop for all.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFocusedCrawler } from '../../src/index.js';
import type { CreateFocusedCrawlerOptions, FocusedCrawler } from '../../src/index.js';
import { crawlKeys } from '../../src/redis/index.js';
import { redisUnavailable, startRedis } from '../helpers/redis-server.js';
import type { TestRedis } from '../helpers/redis-server.js';
import { SHARED_SITE_QUERY, startSharedSite } from './shared-site.js';
import type { SharedSite } from './shared-site.js';

describe.skipIf(redisUnavailable !== null)('workers of a crawl shared through Redis', () => {
    let redis: TestRedis;
    let site: SharedSite;
    const opened: FocusedCrawler[] = [];

    beforeAll(async () => {
        redis = await startRedis();
        site = await startSharedSite({ pages: 200, latencyMillis: 100 });
    });
    afterAll(async () => {
        for (const focused of opened) await focused.focus.manager.close().catch(() => undefined);
        await site?.close();
        await redis?.stop();
    });

    const worker = async (crawlId: string, extra: Partial<CreateFocusedCrawlerOptions> = {}) => {
        const focused = await createFocusedCrawler({
            startUrls: [`${site.url}/p0`],
            query: SHARED_SITE_QUERY,
            mode: 'http',
            maxPages: 60,
            stop: 'never',
            maxRequestsPerHost: 8,
            minConcurrency: 2,
            maxConcurrency: 2,
            storageDir: mkdtempSync(join(tmpdir(), 'cf-shared-')),
            redis: { url: redis.url, crawlId, leaseMillis: 5_000 },
            ...extra,
        });
        opened.push(focused);
        return focused;
    };

    it('refuses, before crawling, a worker whose query, seeds or mode differ from the crawl it joins', async () => {
        await worker('identity');
        await expect(worker('identity', { query: 'wind turbines' })).rejects.toThrow(
            /Crawl id "identity" already holds another crawl \(query: the crawl has "solar panels", this worker "wind turbines"\)\. Start this worker with the same query, seeds, mode and options/,
        );
        await expect(worker('identity', { startUrls: [`${site.url}/p1`] })).rejects.toThrow(/another crawl \(seeds: /);
        await expect(worker('identity', { mode: 'browser' })).rejects.toThrow(/another crawl \(mode: the crawl has "http", this worker "browser"\)/);
        await expect(worker('identity', { maxPages: 61 })).rejects.toThrow(/Start every worker of a crawl with the same budget and limits|another crawl \(options/);
        expect(site.hits).toEqual([]); // nobody crawled
        await expect(worker('identity')).resolves.toBeDefined(); // the same crawl may be joined
    });

    it('a stop in one worker stops the whole crawl: every worker reports the same reason', async () => {
        const first = await worker('one-stop');
        const second = await worker('one-stop');
        let stopped = false;
        const stopper = await worker('one-stop', {
            onProgress: (progress) => {
                if (!stopped && progress.pagesFetched >= 3) {
                    stopped = true;
                    stopper.stop();
                }
            },
        });
        const reports = await Promise.all([first.run(), second.run(), stopper.run()]);
        expect(stopped).toBe(true);
        expect(reports.map((r) => r.stopReason)).toEqual(['cancelled', 'cancelled', 'cancelled']);
        const admin = redis.client();
        const counters = await admin.hgetall(crawlKeys('one-stop').named.counters);
        expect(Number(counters.charged)).toBeLessThan(60);
        expect(Number(counters.done) + Number(counters.failed ?? 0)).toBe(Number(counters.charged));
        expect(await admin.zcard(crawlKeys('one-stop').named.leases)).toBe(0);
    }, 120_000);

    it('every worker learns what each fetch taught: the link calibration and the ranking of links without evidence agree', async () => {
        // Pages whose number is a multiple of 5 answer 404: fetches that teach the calibration that their link did not pay.
        const holey = await startSharedSite({ pages: 200, latencyMillis: 50, missingEvery: 5 });
        try {
            const one = { startUrls: [`${holey.url}/p0`], maxPages: 40 };
            const workers = [await worker('learn-together', one), await worker('learn-together', one)];
            const reports = await Promise.all(workers.map((w) => w.run()));
            const missed = reports[0]!.failures['http-404'] ?? 0;
            expect(missed).toBeGreaterThan(0);
            const [a, b] = workers.map((w) => w.focus);
            expect(a!.manager.pagesScheduled).toBeGreaterThan(0); // both workers fetched
            expect(b!.manager.pagesScheduled).toBeGreaterThan(0);
            // Each fetch of a link (every page but the seed) taught the calibration once, in every worker, 404s included.
            expect(a!.focus!.calibrationSamples).toBe(reports[0]!.pagesFetched - 1);
            expect(b!.focus!.calibrationSamples).toBe(reports[0]!.pagesFetched - 1);
            // What each page revealed ranks links without evidence alike in every worker.
            expect(a!.manager.toJSON().discovery).toEqual(b!.manager.toJSON().discovery);
        } finally {
            await holey.close();
        }
    }, 120_000);

    it('when Redis dies mid-crawl, the worker\'s run rejects with an error that says what happened and what to do', async () => {
        const doomed = await startRedis();
        try {
            const focused = await worker('doomed', { maxPages: 200, redis: { url: doomed.url, crawlId: 'doomed', leaseMillis: 5_000 } });
            site.hits.length = 0; // killed once this crawl's first page is asked for
            const killer = setInterval(() => {
                if (site.hits.length > 0) {
                    clearInterval(killer);
                    process.kill(doomed.pid, 'SIGKILL');
                }
            }, 10);
            await expect(focused.run()).rejects.toThrow(
                new RegExp(`this worker lost the shared crawl "doomed" at ${doomed.url} \\(.*\\)\\. Start it again with the same command once Redis answers`),
            );
            clearInterval(killer);
        } finally {
            await doomed.stop();
        }
    }, 60_000);
});

describe('without the redis option', () => {
    it('nothing outside src/redis loads it but by a dynamic import, so a one-process crawl never needs ioredis', () => {
        const root = join(import.meta.dirname, '..', '..', 'src');
        const offenders: string[] = [];
        const walk = (dir: string): void => {
            for (const entry of readdirSync(dir, { withFileTypes: true })) {
                const path = join(dir, entry.name);
                if (entry.isDirectory()) {
                    if (path !== join(root, 'redis')) walk(path);
                } else if (entry.name.endsWith('.ts')) {
                    const text = readFileSync(path, 'utf8');
                    if (/^\s*(?:import|export)\b[^;]*?from\s+['"](?:ioredis|[^'"]*\/redis\/[^'"]*)['"]/m.test(text)) offenders.push(path);
                }
            }
        };
        walk(root);
        expect(offenders).toEqual([]);
    });
});
