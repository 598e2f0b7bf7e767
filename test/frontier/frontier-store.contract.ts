import { afterEach, describe, expect, it } from 'vitest';

import { CrawlIdentityMismatchError, LOG_START } from '../../src/frontier/index.js';
import type { FrontierLease, FrontierOffer, FrontierStore, FrontierStoreOptions } from '../../src/frontier/index.js';

/** What the contract stores with each URL: a nested object with floats, as a link signal is. */
export interface TestPayload {
    note: string;
    weights: number[];
}

/** One crawl under test; `open()` gives another client (worker) of the same crawl. */
export interface ContractCrawl {
    open(): Promise<FrontierStore<TestPayload>>;
}

export type ContractCrawlFactory = (options: FrontierStoreOptions) => Promise<ContractCrawl>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function offer(key: string, score: number, host = 'a.test', note = key): FrontierOffer<TestPayload> {
    return { key, url: `https://${host}/${key}`, host, depth: 1, score, payload: { note, weights: [0.1, 1 / 3, 2.5e-7] } };
}

/** Leases until the store hands out nothing more now; returns the leases in order. */
async function leaseAll(store: FrontierStore<TestPayload>, worker = 'w1', max = 100): Promise<Array<FrontierLease<TestPayload>>> {
    const all: Array<FrontierLease<TestPayload>> = [];
    for (;;) {
        const batch = await store.lease(worker, max);
        all.push(...batch.leases);
        if (batch.leases.length === 0) return all;
    }
}

/**
 * The behaviour every {@link FrontierStore} must have. Each test opens a fresh crawl through `newCrawl`.
 * Timing tests use short leases and delays (300–500 ms) in the store's own clock.
 */
export function frontierStoreContract(name: string, newCrawl: ContractCrawlFactory): void {
    describe(`frontier store contract: ${name}`, () => {
        const opened: Array<FrontierStore<TestPayload>> = [];
        afterEach(async () => {
            await Promise.all(opened.splice(0).map((store) => store.close()));
        });

        /**
         * A crawl and `clients` clients of it. A new host gets as many leases as any other unless a test asks for the
         * new-host limit: most tests lease several URLs of one host before any of them ends.
         */
        async function crawl(options: FrontierStoreOptions = {}, clients = 1): Promise<Array<FrontierStore<TestPayload>>> {
            const handle = await newCrawl({ maxInFlightPerNewHost: options.maxInFlightPerHost ?? 4, ...options });
            const stores: Array<FrontierStore<TestPayload>> = [];
            for (let i = 0; i < clients; i++) stores.push(await handle.open());
            opened.push(...stores);
            return stores;
        }

        it('leases the best URL first and returns what was offered with it', async () => {
            const [store] = await crawl();
            const result = await store!.enqueue([offer('low', 1), offer('high', 3), offer('mid', 2)]);
            expect(result).toEqual({ outcomes: ['queued', 'queued', 'queued'], evicted: [] });
            const batch = await store!.lease('w1', 2);
            expect(batch.status).toBe('leased');
            expect(batch.leases.map((l) => l.key)).toEqual(['high', 'mid']);
            const [first] = batch.leases;
            expect(first).toMatchObject({ url: 'https://a.test/high', host: 'a.test', depth: 1, score: 3, attempts: 0 });
            expect(first!.payload).toEqual({ note: 'high', weights: [0.1, 1 / 3, 2.5e-7] });
            expect(batch.leases[0]!.token).not.toBe(batch.leases[1]!.token);
            expect(first!.deadline).toBeGreaterThan(Date.now() - 5_000);
            expect(await store!.status()).toMatchObject({ fresh: 1, leased: 2, charged: 2, queued: 1 });
        });

        it('hands out and lists ties in score in discovery order, whatever the keys spell', async () => {
            const [store] = await crawl({ maxInFlightPerHost: 10 });
            // A listing's next and previous pages promise the same: the one found first goes first.
            await store!.enqueue([offer('page=3', 2), offer('page=22', 2), offer('best', 5)]);
            await store!.enqueue([offer('page=1', 2), offer('page=4', 2)]);
            await store!.enqueue([offer('page=22', 2)]); // found again at the same score: keeps its place
            expect((await store!.queuedEntries(10)).map((e) => e.key)).toEqual(['best', 'page=3', 'page=22', 'page=1', 'page=4']);
            expect((await leaseAll(store!)).map((l) => l.key)).toEqual(['best', 'page=3', 'page=22', 'page=1', 'page=4']);
        });

        it('keeps one entry per key: a URL offered again is a duplicate', async () => {
            const [store] = await crawl();
            await store!.enqueue([offer('a', 1)]);
            const again = await store!.enqueue([offer('a', 1), offer('a', 0.5)]);
            expect(again.outcomes).toEqual(['duplicate', 'duplicate']);
            expect(await store!.status()).toMatchObject({ queued: 1, duplicates: 2, rescored: 0 });
            expect((await leaseAll(store!)).map((l) => l.key)).toEqual(['a']);
        });

        it('re-scores a queued URL found again with a better score, and only then', async () => {
            const [store] = await crawl();
            await store!.enqueue([offer('a', 1, 'a.test', 'first'), offer('b', 2, 'b.test')]);
            expect((await store!.enqueue([offer('a', 0.5, 'a.test', 'worse')])).outcomes).toEqual(['duplicate']);
            expect((await store!.enqueue([offer('a', 5, 'a.test', 'better')])).outcomes).toEqual(['rescored']);
            const leases = await leaseAll(store!);
            expect(leases.map((l) => l.key)).toEqual(['a', 'b']);
            expect(leases[0]).toMatchObject({ score: 5, payload: { note: 'better' } });
            expect(await store!.status()).toMatchObject({ rescored: 1, duplicates: 1 });
        });

        it('never resurrects a URL that is leased, done or failed', async () => {
            const [store] = await crawl({ maxAttempts: 1 });
            await store!.enqueue([offer('leased', 3), offer('done', 2), offer('failed', 1)]);
            const [leased, done, failed] = (await store!.lease('w1', 3)).leases;
            expect(await store!.commit(done!, 'done')).toBe('ok');
            expect(await store!.retry(failed!)).toBe('failed'); // its one attempt is spent
            const again = await store!.enqueue([offer('leased', 100), offer('done', 100), offer('failed', 100)]);
            expect(again.outcomes).toEqual(['duplicate', 'duplicate', 'duplicate']);
            expect(await store!.status()).toMatchObject({ queued: 0, leased: 1, done: 1, failed: 1, charged: 3 });
            expect(await store!.lease('w1', 5)).toMatchObject({ leases: [], status: 'empty' });
            expect(await store!.commit(leased!, 'done')).toBe('ok');
            expect(await store!.lease('w1', 5)).toMatchObject({ leases: [], status: 'finished' });
        });

        it('bounds the frontier: a full one rejects worse URLs and evicts the worst for better ones', async () => {
            const [store] = await crawl({ maxQueued: 3 });
            await store!.enqueue([offer('s1', 1), offer('s2', 2), offer('s3', 3)]);
            const worse = await store!.enqueue([offer('worse', 0.5)]);
            expect(worse).toEqual({ outcomes: ['rejected'], evicted: [] });
            const better = await store!.enqueue([offer('better', 5)]);
            expect(better.outcomes).toEqual(['queued']);
            expect(better.evicted.map((e) => [e.key, e.score, e.host, e.payload.note])).toEqual([['s1', 1, 'a.test', 's1']]);
            expect(await store!.status()).toMatchObject({ queued: 3, evicted: 1, rejected: 1 });
            // An evicted URL is forgotten: it may come back if it beats the worst.
            expect((await store!.enqueue([offer('s1', 0.1)])).outcomes).toEqual(['rejected']);
            expect((await store!.enqueue([offer('s1', 9)])).outcomes).toEqual(['queued']);
            expect((await leaseAll(store!)).map((l) => l.key)).toEqual(['s1', 'better', 's3']);
        });

        it('holds no more fresh URLs than the budget left could fetch', async () => {
            const [store] = await crawl({ maxPages: 2, maxQueued: 100 });
            const result = await store!.enqueue([offer('a', 1), offer('b', 2), offer('c', 3), offer('d', 0.5)]);
            expect(result.outcomes).toEqual(['queued', 'queued', 'queued', 'rejected']);
            expect(result.evicted.map((e) => e.key)).toEqual(['a']);
            expect(await store!.status()).toMatchObject({ queued: 2 });
        });

        it("honours each host's in-flight limit across workers", async () => {
            const [one, two] = await crawl({ maxInFlightPerHost: 2 }, 2);
            await one!.enqueue([...[1, 2, 3, 4, 5].map((i) => offer(`a${i}`, 10 - i, 'a.test')), offer('b1', 1, 'b.test')]);
            const first = await one!.lease('w1', 1);
            const second = await two!.lease('w2', 10);
            const leased = [...first.leases, ...second.leases];
            expect(leased.map((l) => l.key)).toEqual(['a1', 'a2', 'b1']);
            const blocked = await one!.lease('w1', 10);
            expect(blocked).toMatchObject({ leases: [], status: 'busy', waitMillis: null });
            expect(await two!.commit(second.leases[0]!, 'done')).toBe('ok');
            expect((await one!.lease('w1', 10)).leases.map((l) => l.key)).toEqual(['a3']);
        });

        it('gives a host none of whose leases has ended one lease at a time, across workers, until one ends done or failed', async () => {
            const [one, two] = await crawl({ maxInFlightPerHost: 3, maxInFlightPerNewHost: 1 }, 2);
            await one!.enqueue([...[1, 2, 3, 4].map((i) => offer(`a${i}`, 10 - i, 'a.test')), offer('b1', 1, 'b.test')]);
            const first = await one!.lease('w1', 10);
            expect(first.leases.map((l) => l.key)).toEqual(['a1', 'b1']);
            expect((await two!.lease('w2', 10)).leases).toEqual([]);
            // a page given back unfetched is no answer
            expect(await one!.commit(first.leases[0]!, 'dropped')).toBe('ok');
            const probe = await two!.lease('w2', 10);
            expect(probe.leases.map((l) => l.key)).toEqual(['a2']);
            expect(await two!.commit(probe.leases[0]!, 'failed')).toBe('ok');
            expect((await one!.lease('w1', 10)).leases.map((l) => l.key)).toEqual(['a3', 'a4']);
        });

        it('spaces leases of a host by its delay, its Crawl-delay and its back-off', async () => {
            const [store] = await crawl({ minDelayPerHostMillis: 300, maxInFlightPerHost: 10 });
            await store!.enqueue([offer('a1', 9, 'a.test'), offer('a2', 8, 'a.test'), offer('b1', 7, 'b.test'), offer('b2', 6, 'b.test')]);
            await store!.setHostDelay('b.test', 800);
            expect((await store!.lease('w1', 10)).leases.map((l) => l.key)).toEqual(['a1', 'b1']);
            const waiting = await store!.lease('w1', 10);
            expect(waiting.status).toBe('busy');
            expect(waiting.waitMillis).toBeGreaterThan(0);
            expect(waiting.waitMillis).toBeLessThanOrEqual(300);
            await sleep(waiting.waitMillis! + 50);
            // a's delay is over, b's Crawl-delay (800 ms) is not
            expect((await store!.lease('w1', 10)).leases.map((l) => l.key)).toEqual(['a2']);
            await store!.enqueue([offer('a3', 5, 'a.test')]);
            await store!.backOffHost('a.test', 2_000); // Retry-After: 2
            await sleep(700); // past b's Crawl-delay, and past a's own delay but not its back-off
            expect((await store!.lease('w1', 10)).leases.map((l) => l.key)).toEqual(['b2']);
            const backedOff = await store!.lease('w1', 10);
            expect(backedOff.status).toBe('busy');
            expect(backedOff.waitMillis).toBeGreaterThan(1_000);
        });

        it('charges the exact budget once per URL while several workers lease at once', async () => {
            const budget = 25;
            const workers = await crawl({ maxPages: budget, maxInFlightPerHost: 1 }, 4);
            await workers[0]!.enqueue(Array.from({ length: 100 }, (_, i) => offer(`u${i}`, i % 7, `h${i % 30}.test`)));
            const leasedKeys: string[] = [];
            await Promise.all(
                workers.map(async (store, w) => {
                    for (;;) {
                        // several lease calls in flight from one worker, too
                        const batches = await Promise.all([store.lease(`w${w}`, 2), store.lease(`w${w}`, 3)]);
                        const leases = batches.flatMap((b) => b.leases);
                        leasedKeys.push(...leases.map((l) => l.key));
                        await Promise.all(leases.map((l) => store.commit(l, 'done')));
                        if (batches.every((b) => b.status === 'finished')) return;
                        if (leases.length === 0) await sleep(5);
                    }
                }),
            );
            expect(leasedKeys.length).toBe(budget);
            expect(new Set(leasedKeys).size).toBe(budget);
            expect(await workers[1]!.status()).toMatchObject({ charged: budget, done: budget, leased: 0, isFinished: true, finishReason: 'limit_reached' });
        });

        it('fences out a worker whose lease expired and was handed to another: its commit is stale and changes nothing', async () => {
            const [slow, fast] = await crawl({ leaseMillis: 300 }, 2);
            await slow!.enqueue([offer('page', 1)]);
            const [held] = (await slow!.lease('slow', 1)).leases;
            await sleep(450);
            const [taken] = (await fast!.lease('fast', 1)).leases;
            expect(taken!.key).toBe('page');
            expect(taken!.token).not.toBe(held!.token);
            expect(await slow!.extend([held!])).toEqual([null]);
            expect(await slow!.commit(held!, 'failed')).toBe('stale');
            expect(await slow!.retry(held!)).toBe('stale');
            expect(await fast!.status()).toMatchObject({ leased: 1, done: 0, failed: 0, stale: 2, reclaimed: 1, charged: 1 });
            expect(await fast!.commit(taken!, 'done')).toBe('ok');
            expect(await fast!.commit(taken!, 'done')).toBe('stale'); // twice is once
            expect(await slow!.status()).toMatchObject({ leased: 0, done: 1, failed: 0, charged: 1, isFinished: true });
        });

        it("reclaims a dead worker's expired leases, keeping their charge, and serves them before fresh URLs", async () => {
            const [dead, alive] = await crawl({ leaseMillis: 300, maxPages: 3 }, 2);
            await alive!.enqueue([offer('x', 5), offer('y', 4), offer('z', 1)]);
            await dead!.lease('dead', 2); // x and y, never committed
            expect(await alive!.reclaimExpired()).toBe(0);
            await sleep(450);
            expect(await alive!.reclaimExpired()).toBe(2);
            expect(await alive!.status()).toMatchObject({ requeued: 2, fresh: 1, leased: 0, charged: 2, reclaimed: 2 });
            await alive!.enqueue([offer('better-fresh', 100)]); // room is the budget left: 1, so it evicts z
            const batch = await alive!.lease('alive', 10);
            expect(batch.leases.map((l) => [l.key, l.attempts])).toEqual([['x', 0], ['y', 0], ['better-fresh', 0]]);
            expect(await alive!.status()).toMatchObject({ charged: 3 });
        });

        it('a heartbeat keeps all of a worker\'s leases alive past their first deadline, and reports lost ones', async () => {
            const [worker, other] = await crawl({ leaseMillis: 400 }, 2);
            await worker!.enqueue([offer('long', 2), offer('longer', 1)]);
            const leases = (await worker!.lease('w1', 2)).leases;
            let deadline = leases[0]!.deadline;
            for (let i = 0; i < 5; i++) {
                await sleep(150);
                const extended = await worker!.extend(leases);
                expect(extended).toEqual([expect.any(Number), expect.any(Number)]);
                expect(extended[0]!).toBeGreaterThanOrEqual(deadline);
                deadline = extended[0]!;
            }
            expect(await other!.lease('w2', 1)).toMatchObject({ leases: [], status: 'empty' });
            expect(await other!.reclaimExpired()).toBe(0);
            expect(await worker!.commit(leases[0]!, 'done')).toBe('ok');
            expect(await worker!.extend(leases)).toEqual([null, expect.any(Number)]);
            expect(await worker!.commit(leases[1]!, 'done')).toBe('ok');
        });

        it('retries a URL with attempts + 1, ahead of fresh URLs, and fails it at maxAttempts', async () => {
            const [store] = await crawl({ maxAttempts: 3 });
            await store!.enqueue([offer('flaky', 1), offer('fresh', 50)]);
            let [lease] = (await store!.lease('w1', 1)).leases;
            expect(lease!.key).toBe('fresh');
            await store!.commit(lease!, 'done');
            [lease] = (await store!.lease('w1', 1)).leases;
            await store!.enqueue([offer('fresher', 99)]);
            expect(await store!.retry(lease!)).toBe('queued');
            [lease] = (await store!.lease('w1', 1)).leases;
            expect(lease).toMatchObject({ key: 'flaky', attempts: 1 });
            expect(await store!.retry(lease!)).toBe('queued');
            [lease] = (await store!.lease('w1', 1)).leases;
            expect(lease).toMatchObject({ key: 'flaky', attempts: 2 });
            expect(await store!.retry(lease!)).toBe('failed');
            expect(await store!.status()).toMatchObject({ failed: 1, done: 1, retried: 2, charged: 2, queued: 1 });
            expect((await store!.lease('w1', 5)).leases.map((l) => l.key)).toEqual(['fresher']);
        });

        it('stops the whole crawl: every worker sees the first reason, no fresh URL is handed out, retries still are', async () => {
            const [one, two] = await crawl({}, 2);
            await one!.enqueue([offer('a', 3), offer('b', 2), offer('c', 1)]);
            const [a] = (await one!.lease('w1', 1)).leases;
            expect(await two!.stop('saturated')).toBe('saturated');
            expect(await one!.stop('coverage_reached')).toBe('saturated');
            expect(await one!.retry(a!)).toBe('queued');
            const batch = await two!.lease('w2', 10);
            expect(batch.stopReason).toBe('saturated');
            expect(batch.leases.map((l) => l.key)).toEqual(['a']);
            const after = await one!.lease('w1', 10);
            expect(after).toMatchObject({ leases: [], status: 'empty', stopReason: 'saturated' });
            await two!.commit(batch.leases[0]!, 'done');
            expect(await one!.lease('w1', 10)).toMatchObject({ leases: [], status: 'finished', stopReason: 'saturated' });
            expect(await one!.status()).toMatchObject({ fresh: 2, isEmpty: true, isFinished: true, finishReason: 'stopped', stopReason: 'saturated' });
        });

        it('keeps a page committed with its item owed until its worker acknowledges the write, and the heartbeat keeps it', async () => {
            const [worker, other] = await crawl({ leaseMillis: 400 }, 2);
            await worker!.enqueue([offer('page', 1), offer('plain', 0.5)]);
            const [page, plain] = (await worker!.lease('w1', 2)).leases;
            const item = { url: 'https://a.test/page', markdown: '# Page', relevance: 0.75 };
            expect(await worker!.commit(page!, 'done', [{ page: 'page' }], item)).toBe('ok');
            expect(await worker!.commit(plain!, 'done')).toBe('ok'); // without an item, nothing is owed
            expect(await other!.status()).toMatchObject({ done: 2, owed: 1, leased: 0, isFinished: true });
            for (let i = 0; i < 4; i++) {
                await sleep(150);
                expect(await worker!.extend([page!, plain!])).toEqual([expect.any(Number), null]);
            }
            expect(await other!.claimDeliveries(10)).toEqual([]); // its worker is alive: not due
            expect(await worker!.acknowledgeDelivery(page!)).toBe('ok');
            expect(await worker!.acknowledgeDelivery(page!)).toBe('stale'); // twice is once
            expect(await other!.status()).toMatchObject({ owed: 0, redelivered: 0 });
            expect(await worker!.extend([page!])).toEqual([null]);
        });

        it("hands a dead worker's owed delivery, item and all, to one claimer; the dead worker is fenced out", async () => {
            const [dead, one, two] = await crawl({ leaseMillis: 300 }, 3);
            await dead!.enqueue([offer('page', 1)]);
            const [lease] = (await dead!.lease('dead', 1)).leases;
            const item = { url: 'https://a.test/page', weights: [0.1, 1 / 3] };
            expect(await dead!.commit(lease!, 'done', [], item)).toBe('ok');
            expect(await one!.claimDeliveries(10)).toEqual([]);
            await sleep(450);
            const [first, second] = await Promise.all([one!.claimDeliveries(10), two!.claimDeliveries(10)]);
            const claimed = [...first, ...second];
            expect(claimed).toEqual([{ key: 'page', token: expect.any(Number), item }]);
            expect(claimed[0]!.token).not.toBe(lease!.token);
            expect(await dead!.acknowledgeDelivery(lease!)).toBe('stale');
            expect(await dead!.extend([lease!])).toEqual([null]);
            const claimer = first.length > 0 ? one! : two!;
            expect(await claimer.status()).toMatchObject({ owed: 1, redelivered: 1, done: 1 });
            expect(await claimer.acknowledgeDelivery(claimed[0]!)).toBe('ok');
            expect(await claimer.status()).toMatchObject({ owed: 0, redelivered: 1 });
        });

        it('owes nothing for a stale commit, nor for a failed or dropped page', async () => {
            const [slow, fast] = await crawl({ leaseMillis: 300 }, 2);
            await slow!.enqueue([offer('page', 3), offer('bad', 2), offer('spelling', 1)]);
            const [held] = (await slow!.lease('slow', 1)).leases;
            await sleep(450);
            const [taken, bad, spelling] = (await fast!.lease('fast', 3)).leases;
            expect(taken!.key).toBe('page');
            expect(await slow!.commit(held!, 'done', [], { url: 'late' })).toBe('stale');
            expect(await fast!.commit(bad!, 'failed', [], { url: 'bad' })).toBe('ok');
            expect(await fast!.commit(spelling!, 'dropped', [], { url: 'spelling' })).toBe('ok');
            expect(await fast!.status()).toMatchObject({ owed: 0 });
            expect(await fast!.commit(taken!, 'done', [], { url: 'page' })).toBe('ok');
            expect(await fast!.status()).toMatchObject({ owed: 1 });
        });

        it('tells empty (leases out) from finished, and why it finished', async () => {
            const [store] = await crawl();
            expect(await store!.lease('w1', 1)).toMatchObject({ leases: [], status: 'finished' });
            await store!.enqueue([offer('only', 1)]);
            expect(await store!.status()).toMatchObject({ isEmpty: false, isFinished: false, finishReason: null });
            const [lease] = (await store!.lease('w1', 1)).leases;
            expect(await store!.lease('w1', 1)).toMatchObject({ leases: [], status: 'empty' });
            expect(await store!.status()).toMatchObject({ isEmpty: true, isFinished: false, finishReason: null });
            await store!.commit(lease!, 'done');
            expect(await store!.status()).toMatchObject({ isEmpty: true, isFinished: true, finishReason: 'exhausted' });
        });

        it('re-scores queued URLs up and down, and ignores leased or unknown ones', async () => {
            const [store] = await crawl();
            await store!.enqueue([offer('a', 3), offer('b', 2), offer('c', 1)]);
            const [a] = (await store!.lease('w1', 1)).leases;
            expect(await store!.rescore([{ key: 'b', score: 0.1 }, { key: 'a', score: 50 }, { key: 'nope', score: 9 }])).toBe(1);
            expect((await leaseAll(store!)).map((l) => l.key)).toEqual(['c', 'b']);
            expect(await store!.commit(a!, 'done')).toBe('ok');
        });

        it('logs a commit\'s events once, in commit order, for every worker; a fenced-out commit logs nothing', async () => {
            const [one, two] = await crawl({ leaseMillis: 300 }, 2);
            await one!.enqueue([offer('a', 3), offer('b', 2), offer('c', 1)]);
            const [a] = (await one!.lease('one', 1)).leases;
            const [b] = (await two!.lease('two', 1)).leases;
            expect(await two!.readEvents(LOG_START, 10)).toEqual([]);
            expect(await two!.commit(b!, 'done', [{ page: 'b', relevance: 0.25 }])).toBe('ok');
            expect(await one!.commit(a!, 'failed', [{ page: 'a', failure: 'http-500' }, { page: 'a', note: 'second' }])).toBe('ok');
            const log = await one!.readEvents(LOG_START, 10);
            expect(log.map((entry) => entry.event)).toEqual([{ page: 'b', relevance: 0.25 }, { page: 'a', failure: 'http-500' }, { page: 'a', note: 'second' }]);
            expect(new Set(log.map((entry) => entry.id)).size).toBe(3);
            // Read on from any id: the rest, in order, at most `max` at a time.
            expect((await two!.readEvents(log[0]!.id, 1)).map((entry) => entry.event)).toEqual([{ page: 'a', failure: 'http-500' }]);
            expect(await two!.readEvents(log[2]!.id, 10)).toEqual([]);
            // A worker whose lease expired and was handed out again logs nothing: the page's events count once.
            const [slow] = (await one!.lease('slow', 1)).leases;
            await sleep(450);
            const [fast] = (await two!.lease('fast', 1)).leases;
            expect(fast!.key).toBe(slow!.key);
            expect(await one!.commit(slow!, 'done', [{ page: 'c', by: 'slow' }])).toBe('stale');
            expect(await two!.commit(fast!, 'done', [{ page: 'c', by: 'fast' }])).toBe('ok');
            expect((await one!.readEvents(log[2]!.id, 10)).map((entry) => entry.event)).toEqual([{ page: 'c', by: 'fast' }]);
        });

        it('logs what a lease holder announces before its commit, and nothing from a worker whose lease was handed out again', async () => {
            const [one, two] = await crawl({ leaseMillis: 300 }, 2);
            await one!.enqueue([offer('a', 2), offer('b', 1)]);
            const [a] = (await one!.lease('one', 1)).leases;
            const [b] = (await two!.lease('two', 1)).leases;
            expect(await one!.announce(a!, [{ exploring: 'a' }])).toBe('ok');
            expect(await two!.commit(b!, 'done', [{ page: 'b' }])).toBe('ok');
            // The lease is still held: the commit that follows logs after the announcement, and counts.
            expect(await one!.commit(a!, 'done', [{ page: 'a' }])).toBe('ok');
            expect((await two!.readEvents(LOG_START, 10)).map((entry) => entry.event)).toEqual([{ exploring: 'a' }, { page: 'b' }, { page: 'a' }]);
            // After the commit the lease is no longer held, nor is a lease that expired and was handed out again.
            expect(await one!.announce(a!, [{ exploring: 'late' }])).toBe('stale');
            await one!.enqueue([offer('c', 1)]);
            const [slow] = (await one!.lease('slow', 1)).leases;
            await sleep(450);
            const [fast] = (await two!.lease('fast', 1)).leases;
            expect(fast!.key).toBe(slow!.key);
            expect(await one!.announce(slow!, [{ exploring: 'c', by: 'slow' }])).toBe('stale');
            expect(await two!.announce(fast!, [{ exploring: 'c', by: 'fast' }])).toBe('ok');
            expect((await one!.readEvents(LOG_START, 10)).map((entry) => entry.event).slice(3)).toEqual([{ exploring: 'c', by: 'fast' }]);
            expect((await one!.status()).stale).toBe(0);
        });

        it('hands out the fresh URLs a worker prefers before better ones, after requeued ones, if their host is free', async () => {
            const [store] = await crawl({ maxInFlightPerHost: 1 });
            await store!.enqueue([offer('top', 9), offer('low', 1, 'd.test'), offer('busy', 0.5, 'b.test'), offer('other', 4, 'b.test'), offer('retry', 3, 'c.test')]);
            const [retry] = (await store!.lease('w1', 1)).leases;
            expect(retry!.key).toBe('top');
            expect(await store!.retry(retry!)).toBe('queued');
            // The requeued URL first, then the preferred one whose host is free; an unknown key and a leased one are ignored.
            const batch = await store!.lease('w1', 2, ['nope', 'low']);
            expect(batch.leases.map((l) => l.key)).toEqual(['top', 'low']);
            expect(await store!.status()).toMatchObject({ charged: 2 });
            const [other] = (await store!.lease('w1', 1)).leases;
            expect(other!.key).toBe('other');
            // b.test is at its in-flight limit: the preferred URL there waits, the best free one goes instead.
            expect((await store!.lease('w1', 1, ['busy', 'top'])).leases.map((l) => l.key)).toEqual(['retry']);
        });

        it('drops a leased URL unfetched: it stays known, and its charge comes back only on its first lease', async () => {
            const [one, two] = await crawl({ leaseMillis: 300, maxPages: 2 }, 2);
            await one!.enqueue([offer('spelling', 3), offer('page', 2)]);
            const [spelling] = (await one!.lease('one', 1)).leases;
            expect(await one!.commit(spelling!, 'dropped')).toBe('ok');
            expect(await one!.status()).toMatchObject({ charged: 0, dropped: 1, done: 0 });
            expect((await one!.enqueue([offer('spelling', 5), offer('third', 1)])).outcomes).toEqual(['duplicate', 'queued']);
            // Reclaimed from a worker that may have fetched it: the charge stays.
            const [slow] = (await one!.lease('slow', 1)).leases;
            await sleep(450);
            const [again] = (await two!.lease('fast', 1)).leases;
            expect(again!.key).toBe(slow!.key);
            expect(await two!.commit(again!, 'dropped')).toBe('ok');
            expect(await two!.status()).toMatchObject({ charged: 1, dropped: 2 });
            // The budget given back is spent on another page.
            expect((await two!.lease('fast', 5)).leases.map((l) => l.key)).toEqual(['third']);
            expect(await two!.status()).toMatchObject({ charged: 2 });
        });

        it('lists the queued scores best first, requeued ones too, and keeps the first final report', async () => {
            const [one, two] = await crawl({}, 2);
            await one!.enqueue([offer('a', 0.5), offer('b', 2), offer('c', 0.125), offer('d', 1)]);
            const [b] = (await one!.lease('one', 1)).leases;
            expect(await one!.retry(b!)).toBe('queued');
            expect(await two!.queuedScores(10)).toEqual([2, 1, 0.5, 0.125]);
            expect(await two!.queuedScores(2)).toEqual([2, 1]);
            expect(await two!.queuedScores(0)).toEqual([]);
            // The entries behind them, with their payloads, for re-scoring: requeued first, then fresh, each best first.
            const entries = await two!.queuedEntries(2);
            expect(entries.map((entry) => [entry.key, entry.score])).toEqual([['b', 2], ['d', 1], ['a', 0.5]]);
            expect(entries[1]).toEqual(offer('d', 1));
            await two!.rescore(entries.map((entry) => ({ key: entry.key, score: entry.score / 10 })));
            expect(await one!.queuedScores(10)).toEqual([0.2, 0.125, 0.1, 0.05]);
            expect(await two!.publishedReport()).toBeNull();
            expect(await two!.publishReport({ stopReason: 'saturated', pages: [1, 2] })).toEqual({ stopReason: 'saturated', pages: [1, 2] });
            expect(await one!.publishReport({ stopReason: 'limit_reached' })).toEqual({ stopReason: 'saturated', pages: [1, 2] });
            expect(await one!.publishedReport()).toEqual({ stopReason: 'saturated', pages: [1, 2] });
        });

        it('lets workers of the same crawl join, and refuses one with another identity, saying what to do', async () => {
            const [first, second] = await crawl({}, 2);
            const identity = { query: 'river flood maps', seeds: ['https://b.test/', 'https://a.test/'], mode: 'http', optionsHash: 'abc' };
            await first!.claimIdentity(identity);
            await second!.claimIdentity({ ...identity, seeds: ['https://a.test/', 'https://b.test/'] });
            const refused = await second!.claimIdentity({ ...identity, query: 'volcanoes' }).catch((error: unknown) => error);
            expect(refused).toBeInstanceOf(CrawlIdentityMismatchError);
            expect((refused as CrawlIdentityMismatchError).differences).toEqual(['query']);
            expect((refused as Error).message).toMatch(/query: the crawl has "river flood maps", this worker "volcanoes"/);
            expect((refused as Error).message).toMatch(/same query, seeds, mode and options.*new crawl id/);
            await expect(second!.claimIdentity({ ...identity, mode: 'browser' })).rejects.toThrow(/mode/);
        });
    });
}
