import { describe, expect, it } from 'vitest';

import { InProcessFrontier, MemoryFrontierStore } from '../../src/frontier/index.js';
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

    it('refuses options that cannot work, saying which', () => {
        expect(() => new InProcessFrontier({ leaseMillis: 0 })).toThrow(/leaseMillis must be an integer ≥ 1/);
        expect(() => new InProcessFrontier({ maxPages: -1 })).toThrow(/maxPages/);
        expect(() => new InProcessFrontier().lease('w', 0)).toThrow(/max ≥ 1/);
    });
});
