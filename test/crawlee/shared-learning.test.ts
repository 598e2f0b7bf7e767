import { describe, expect, it } from 'vitest';

import { SharedLearning } from '../../src/crawlee/shared-learning.js';
import type { CrawlEvent } from '../../src/crawlee/shared-learning.js';
import { MemoryFrontierStore } from '../../src/frontier/index.js';

/** A store with `pages` pages committed, alternately by workers a and b, each with one failure event. */
async function storeWithLog(pages: number): Promise<MemoryFrontierStore> {
    const store = new MemoryFrontierStore();
    await store.enqueue(Array.from({ length: pages }, (_, i) => ({ key: `k${i}`, url: `https://a.test/${i}`, host: 'a.test', depth: 1, score: pages - i, payload: null })));
    for (let i = 0; i < pages; i++) {
        const [lease] = (await store.lease('w', 1)).leases;
        const event: CrawlEvent = { kind: 'failure', worker: i % 2 === 0 ? 'a' : 'b', reason: `r${i}`, url: lease!.url };
        expect(await store.commit(lease!, 'done', [event])).toBe('ok');
    }
    return store;
}

describe('SharedLearning', () => {
    it("replays the other workers' events in log order, skips its own, and reads on from where it stopped", async () => {
        const store = await storeWithLog(7);
        const applied: string[] = [];
        const learning = new SharedLearning(store, 'a', (event) => applied.push((event as { reason: string }).reason), { batch: 2 });
        expect(await learning.sync()).toBe(7); // past several batches: to the end of the log
        expect(applied).toEqual(['r1', 'r3', 'r5']);
        expect(learning.replayed).toBe(0); // failures only: no page
        expect(await learning.sync()).toBe(0);
        await store.enqueue([{ key: 'late', url: 'https://a.test/late', host: 'a.test', depth: 1, score: 1, payload: null }]);
        const [lease] = (await store.lease('w', 1)).leases;
        await store.commit(lease!, 'done', [{ kind: 'unread', worker: 'b', url: lease!.url } satisfies CrawlEvent]);
        expect(await learning.sync()).toBe(1);
        expect(learning.replayed).toBe(1);
    });

    it('lets concurrent callers share one read, so no event is applied twice', async () => {
        const store = await storeWithLog(6);
        let applied = 0;
        const learning = new SharedLearning(store, 'none', () => applied++);
        await Promise.all([learning.sync(), learning.sync(), learning.sync()]);
        expect(applied).toBe(6);
    });

    it('refuses a batch that is not a positive integer', () => {
        expect(() => new SharedLearning(new MemoryFrontierStore(), 'a', () => {}, { batch: 0 })).toThrow('batch must be an integer ≥ 1');
    });
});
