// The shared request manager over the in-process store (the Redis store passes the same contract): two managers, as
// two workers, share one frontier, one dedup set, one budget and one stop.
import { describe, expect, it } from 'vitest';

import { Focus, MemoryFrontierStore, SharedRequestManager } from '../../src/index.js';
import type { FetchedEntry } from '../../src/index.js';

const SEED = 'https://www.e.edu/';
const parent = { url: SEED, depth: 0, relevance: 0.2, isHub: false };

function workers(store: MemoryFrontierStore<FetchedEntry>, count: number): SharedRequestManager[] {
    return Array.from({ length: count }, (_, i) => new SharedRequestManager({ focus: new Focus('visa scholarship', { seedUrls: [SEED] }), store, workerId: `w${i}` }));
}

describe('SharedRequestManager', () => {
    it('hands each page to one worker only, within one budget, best first, and finishes when the store does', async () => {
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 4 });
        const [a, b] = workers(store, 2);
        await a!.addRequestsBatched([SEED]);
        await b!.addRequestsBatched([SEED]); // every worker adds the seeds: the store dedups them
        const seed = await b!.fetchNextRequest();
        expect(seed?.url).toBe(SEED);
        expect(await a!.fetchNextRequest()).toBeNull(); // the seed is leased to b
        expect(await a!.isFinished()).toBe(false);
        b!.offerLinks(
            [
                { url: 'https://www.e.edu/campus', anchor: 'Campus life' },
                { url: 'https://www.e.edu/visa', anchor: 'Student visa' },
                { url: 'https://www.e.edu/scholarship', anchor: 'Scholarships' },
                { url: 'https://www.e.edu/visa?utm_source=x', anchor: 'Visa' }, // the same page once cleaned
                { url: 'https://elsewhere.org/visa', anchor: 'Visa elsewhere' },
            ],
            parent,
        );
        expect(await b!.flushOffers()).toBe(3);
        expect(await b!.settle(seed!)).toBe('ok');
        await b!.markRequestHandled(seed!);
        const taken: string[] = [];
        for (const worker of [a!, b!, a!, b!]) {
            const request = await worker.fetchNextRequest();
            if (!request) continue;
            taken.push(request.url);
            expect(await worker.settle(request)).toBe('ok');
            await worker.markRequestHandled(request);
        }
        expect(taken.slice(0, 2).sort()).toEqual(['https://www.e.edu/scholarship', 'https://www.e.edu/visa']);
        expect(taken).toHaveLength(3); // the budget: 4 pages, the seed included
        expect(await a!.isFinished()).toBe(true);
        expect(await b!.isFinished()).toBe(true);
        expect(a!.finishReason).toBe('limit_reached');
        expect((await store.status()).charged).toBe(4);
    });

    it('a retry goes back to the store for any worker, and a stop in one worker is every worker\'s', async () => {
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 10 });
        const [a, b] = workers(store, 2);
        await a!.addRequestsBatched([SEED]);
        const first = await a!.fetchNextRequest();
        first!.retryCount = 1; // as Crawlee does before it reclaims a failed request
        await a!.reclaimRequest(first!);
        const again = await b!.fetchNextRequest();
        expect(again?.url).toBe(SEED);
        expect(again?.retryCount).toBe(1);
        a!.stop('saturated');
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(await b!.settle(again!)).toBe('ok');
        b!.offerLinks([{ url: 'https://www.e.edu/visa', anchor: 'Student visa' }], parent);
        await b!.flushOffers();
        await b!.markRequestHandled(again!);
        expect(await b!.fetchNextRequest()).toBeNull(); // stopped: nothing fresh is handed out
        expect(b!.sharedStopReason).toBe('saturated');
        expect(await b!.isFinished()).toBe(true);
        expect(a!.sharedStopReason).toBe('saturated');
    });
});
