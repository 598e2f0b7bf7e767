// The adaptive stop in a crawl shared by two workers: whichever fires first stops both, with its reason.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startDemoSite, demoLabels } from '../../src/cli/demo-site.js';
import { createFocusedCrawler } from '../../src/index.js';
import { redisUnavailable, startRedis } from '../helpers/redis-server.js';
import type { TestRedis } from '../helpers/redis-server.js';

describe.skipIf(redisUnavailable !== null)('the adaptive stop of a shared crawl', () => {
    let redis: TestRedis;
    let site: Awaited<ReturnType<typeof startDemoSite>>;
    beforeAll(async () => {
        redis = await startRedis();
        site = await startDemoSite();
    });
    afterAll(async () => {
        await site?.close();
        await redis?.stop();
    });

    const worker = () =>
        createFocusedCrawler({
            startUrls: [site.url],
            query: demoLabels().query,
            mode: 'http',
            maxPages: 200,
            maxConcurrency: 2,
            storageDir: mkdtempSync(join(tmpdir(), 'cf-adaptive-')),
            redis: { url: redis.url, crawlId: 'adaptive', leaseMillis: 5_000 },
        });

    it('fires through the shared store (demo site: 89 pages and an endless calendar), and a worker joining later ends at once with its reason', async () => {
        // One worker: its learners see every page, as in one process. (With several, each learns only from its own
        // pages, so the rule needs more pages to fire; see the README's limits.)
        const first = await (await worker()).run();
        expect(['coverage_reached', 'saturated']).toContain(first.stopReason);
        expect(first.sharedCrawl!.charged).toBeLessThan(200);
        const late = await (await worker()).run();
        expect(late.stopReason).toBe(first.stopReason);
        expect(late.pagesFetched).toBe(0);
        expect(late.sharedCrawl).toMatchObject({ charged: first.sharedCrawl!.charged, leased: 0 });
    }, 120_000);
});
