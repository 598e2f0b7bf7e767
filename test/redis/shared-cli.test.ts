// The command line of a shared crawl: a worker started with --redis/--crawl-id, and `status` reading the crawl back.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { main } from '../../src/cli/main.js';
import { captureConsole } from '../helpers/console-capture.js';
import { redisUnavailable, startRedis } from '../helpers/redis-server.js';
import type { TestRedis } from '../helpers/redis-server.js';
import { SHARED_SITE_QUERY, startSharedSite } from './shared-site.js';
import type { SharedSite } from './shared-site.js';
import type { FocusReport } from '../../src/report/index.js';

const capture = captureConsole;

describe.skipIf(redisUnavailable !== null)('crawlee-focus crawl --redis … --crawl-id … and status', () => {
    let redis: TestRedis;
    let site: SharedSite;
    beforeAll(async () => {
        redis = await startRedis();
        site = await startSharedSite({ pages: 100, latencyMillis: 20 });
    });
    afterAll(async () => {
        await site?.close();
        await redis?.stop();
    });
    afterEach(() => vi.restoreAllMocks());

    it('a worker crawls through Redis, and status prints the crawl as every worker sees it', async () => {
        const { out } = capture();
        const storage = mkdtempSync(join(tmpdir(), 'cf-cli-shared-'));
        const shared = ['--redis', redis.url, '--crawl-id', 'cli-crawl'];
        const crawl = ['crawl', `${site.url}/p0`, '--query', SHARED_SITE_QUERY, '--mode', 'http', '--max-pages', '12', '--stop', 'never', '--storage', storage, '--json', ...shared];
        expect(await main(crawl)).toBe(0);
        const printed = JSON.parse(out.at(-1)!) as FocusReport;
        expect(printed.stopReason).toBe('limit_reached');
        expect(await main(['status', ...shared])).toBe(0);
        const text = out.at(-1)!;
        expect(text).toContain(`crawl "cli-crawl": "${SHARED_SITE_QUERY}", mode http, 1 seed(s)`);
        expect(text).toContain('pages charged 12/12   done 12   failed 0');
        expect(text).toContain('leased 0');
        expect(text).toContain('finished (limit_reached)');
        // The whole crawl's report, as the worker wrote it.
        expect(text).toContain('crawlee-focus: "');
        expect(text).toContain('stopped: limit_reached');
        expect(text).toContain(`this worker (${printed.sharedCrawl!.worker.id}): 12 requests`);
        expect(await main(['status', ...shared, '--json'])).toBe(0);
        const status = JSON.parse(out.at(-1)!);
        expect(status).toMatchObject({ crawlId: 'cli-crawl', charged: 12, budget: 12, done: 12, leased: 0, stale: 0, stopReason: null, finishReason: 'limit_reached' });
        expect(status.report).toEqual(printed);
    }, 60_000);

    it('status of a crawl id no worker started says so', async () => {
        capture();
        await expect(main(['status', '--redis', redis.url, '--crawl-id', 'never-started'])).rejects.toThrow('No crawl has been started under the crawl id "never-started" in this Redis');
    });
});
