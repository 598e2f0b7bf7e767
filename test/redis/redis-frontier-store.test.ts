import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RedisFrontierStore } from '../../src/redis/index.js';
import { frontierStoreContract, offer } from '../frontier/frontier-store.contract.js';
import type { TestPayload } from '../frontier/frontier-store.contract.js';
import { redisUnavailable, startRedis } from '../helpers/redis-server.js';
import type { TestRedis } from '../helpers/redis-server.js';

if (redisUnavailable) console.warn(redisUnavailable);

describe.skipIf(redisUnavailable !== null)('RedisFrontierStore', () => {
    let server: TestRedis;
    let crawls = 0;
    beforeAll(async () => {
        server = await startRedis();
    });
    afterAll(async () => {
        await server?.stop();
    });

    // Each crawl gets its own id; each client its own connection.
    frontierStoreContract('redis', async (options) => {
        const crawlId = `contract-${++crawls}`;
        return { open: () => RedisFrontierStore.open<TestPayload>({ ...options, redis: server.url, crawlId }) };
    });

    it('refuses a worker whose frontier options differ from the crawl\'s, saying what to do', async () => {
        const first = await RedisFrontierStore.open({ redis: server.url, crawlId: 'options-check', maxPages: 60 });
        await expect(RedisFrontierStore.open({ redis: server.url, crawlId: 'options-check', maxPages: 61 })).rejects.toThrow(
            /was started with frontier options .*"maxPages":60.*this worker has .*"maxPages":61.*same budget and limits, or give this one a new crawl id/,
        );
        await first.close();
    });

    it('rejects crawl ids that would break the key prefix', async () => {
        await expect(RedisFrontierStore.open({ redis: server.url, crawlId: 'a}b' })).rejects.toThrow(/crawl id must be a non-empty name/);
    });

    it('keeps crawls apart, and deletes one without touching another', async () => {
        const redis = server.client();
        const a = await RedisFrontierStore.open<TestPayload>({ redis, crawlId: 'apart-a' });
        const b = await RedisFrontierStore.open<TestPayload>({ redis, crawlId: 'apart-b' });
        await a.enqueue([offer('x', 1)]);
        expect((await b.status()).queued).toBe(0);
        expect(await RedisFrontierStore.deleteCrawl(redis, 'apart-a')).toBeGreaterThan(0);
        expect((await a.status()).queued).toBe(0);
        await b.enqueue([offer('y', 1)]);
        expect((await b.status()).queued).toBe(1);
    });

    it('sends scripts by SHA, and loads them again after the server forgot them', async () => {
        const redis = server.client();
        const admin = server.client();
        const store = await RedisFrontierStore.open<TestPayload>({ redis, crawlId: 'evalsha' });
        await store.enqueue([offer('a', 1)]);
        await admin.config('RESETSTAT');
        await store.status();
        await store.status();
        // ioredis sends a script's source once per connection (EVAL), its SHA after that.
        const stats = await admin.info('commandstats');
        expect(stats).toMatch(/cmdstat_eval:calls=1,/);
        expect(stats).toMatch(/cmdstat_evalsha:calls=1,/);
        await admin.script('FLUSH');
        expect((await store.lease('w1', 1)).leases.map((l) => l.key)).toEqual(['a']);
    });

    it('sends large batches in bounded script calls, with the same outcome', async () => {
        const store = await RedisFrontierStore.open<TestPayload>({ redis: server.url, crawlId: 'batches', enqueueBatch: 7, maxQueued: 30 });
        const result = await store.enqueue(Array.from({ length: 50 }, (_, i) => offer(`k${i}`, i)));
        expect(result.outcomes.filter((o) => o === 'queued')).toHaveLength(50);
        expect(result.evicted.map((e) => e.key)).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`));
        expect((await store.status()).queued).toBe(30);
        await store.close();
    });
});
