import { describe, expect, it } from 'vitest';

import { InProcessFrontier, LeaseHeartbeat, MemoryFrontierStore, optionsHash } from '../../src/frontier/index.js';
import { frontierStoreContract, offer } from './frontier-store.contract.js';
import type { TestPayload } from './frontier-store.contract.js';

// Every client of an in-process crawl is the one store.
frontierStoreContract('in-process', async (options) => {
    const store = new MemoryFrontierStore<TestPayload>(options);
    return { open: async () => store };
});

describe('InProcessFrontier', () => {
    it('runs on the clock it is given, synchronously', () => {
        let now = 1_000;
        const frontier = new InProcessFrontier<TestPayload>({ leaseMillis: 100, now: () => now });
        frontier.enqueue([offer('a', 1)]);
        const [lease] = frontier.lease('w1', 1).leases;
        expect(lease!.deadline).toBe(1_100);
        now = 1_099;
        expect(frontier.reclaimExpired()).toBe(0);
        now = 1_100;
        expect(frontier.reclaimExpired()).toBe(1);
        expect(frontier.commit(lease!, 'done')).toBe('stale');
    });

    it('survives its process through a JSON snapshot: leases out come back charged and first, fences and budget hold', () => {
        const options = { maxPages: 4, maxInFlightPerHost: 8 };
        const frontier = new InProcessFrontier<TestPayload>(options);
        const identity = { query: 'q', seeds: ['https://a.test/'], mode: 'http', optionsHash: optionsHash({ maxPages: 4 }) };
        frontier.claimIdentity(identity);
        frontier.enqueue(['a', 'b', 'c', 'd', 'e'].map((key, i) => offer(key, 5 - i)));
        frontier.setHostDelay('b.test', 2_000);
        const [a] = frontier.lease('w1', 2).leases; // one: the host has not answered yet
        expect(frontier.commit(a!, 'done', [{ kind: 'page', url: a!.url }], { url: a!.url })).toBe('ok');
        const [b] = frontier.lease('w1', 1).leases;

        const restored = InProcessFrontier.fromJSON<TestPayload>(JSON.parse(JSON.stringify(frontier.toJSON())), options);
        // e was turned away when offered: no more fresh URLs than the budget of 4 could fetch.
        expect(restored.status()).toMatchObject({ charged: 2, done: 1, requeued: 1, fresh: 2, leased: 0 });
        // The old process's lease is fenced out; its page comes back first, without a second charge.
        expect(restored.commit(b!, 'done')).toBe('stale');
        expect(restored.enqueue([offer('a', 9)]).outcomes).toEqual(['duplicate']);
        const again = restored.lease('w2', 10).leases.map((lease) => lease.key);
        expect(again).toEqual(['b', 'c', 'd']);
        expect(restored.status()).toMatchObject({ charged: 4, fresh: 0, leased: 3 });
        // The log, the item owed (claimable at once), the identity and the host's Crawl-delay survive.
        expect(restored.readEvents('0', 10).map((entry) => entry.event)).toEqual([{ kind: 'page', url: a!.url }]);
        expect(restored.claimDeliveries(10).map((owed) => owed.item)).toEqual([{ url: a!.url }]);
        expect(() => restored.claimIdentity({ ...identity, query: 'other' })).toThrow(/query/);
        expect(restored.toJSON().hostDelay).toEqual([['b.test', 2_000]]);
        expect(() => InProcessFrontier.fromJSON({ version: 2 } as never)).toThrow(/Unknown frontier snapshot/);
    });

    it('refuses options that cannot work, saying which', () => {
        expect(() => new InProcessFrontier({ leaseMillis: 0 })).toThrow(/leaseMillis must be an integer ≥ 1/);
        expect(() => new InProcessFrontier({ maxPages: -1 })).toThrow(/maxPages/);
        expect(() => new InProcessFrontier().lease('w', 0)).toThrow(/max ≥ 1/);
    });
});

describe('LeaseHeartbeat', () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('keeps leases alive with one extend call per beat, and reports a lease it lost', async () => {
        const store = new MemoryFrontierStore<TestPayload>({ leaseMillis: 300 });
        let extendCalls = 0;
        const lost: string[] = [];
        const heartbeat = new LeaseHeartbeat(
            { options: store.options, extend: (leases) => (extendCalls++, store.extend(leases)) },
            { onLost: (lease) => lost.push(lease.key) },
        );
        await store.enqueue([offer('a', 2), offer('b', 1, 'b.test')]);
        const [a, b] = (await store.lease('w1', 2)).leases;
        heartbeat.add(a!);
        heartbeat.add(b!);
        await sleep(700);
        expect(await store.reclaimExpired()).toBe(0);
        expect(extendCalls).toBeGreaterThanOrEqual(3);
        expect(extendCalls).toBeLessThanOrEqual(8); // per beat, not per lease
        // b is taken away (as if reclaimed and committed elsewhere): the next beat reports it and lets it go.
        await store.commit(b!, 'done');
        await heartbeat.beat();
        expect(lost).toEqual(['b']);
        expect(heartbeat.size).toBe(1);
        heartbeat.delete(a!);
        expect(heartbeat.size).toBe(0);
        const callsWhenIdle = extendCalls;
        await sleep(250);
        expect(extendCalls).toBe(callsWhenIdle); // the timer stopped with the last lease
        await sleep(200);
        expect(await store.reclaimExpired()).toBe(1); // a, no longer kept alive
    });
});

describe('crawl identity', () => {
    it('hashes options regardless of key order, and tells them apart', () => {
        expect(optionsHash({ maxPages: 60, scope: { hosts: ['a'], sub: true } })).toBe(optionsHash({ scope: { sub: true, hosts: ['a'] }, maxPages: 60 }));
        expect(optionsHash({ maxPages: 60 })).not.toBe(optionsHash({ maxPages: 61 }));
        expect(optionsHash({ maxPages: 60, extra: undefined })).toBe(optionsHash({ maxPages: 60 }));
    });
});
