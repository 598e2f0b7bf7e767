// The shared request manager over the in-process store (the Redis store passes the same contract): two managers, as
// two workers, share one frontier, one dedup set, one budget and one stop.
import { describe, expect, it } from 'vitest';

import { Focus, FocusedRequestManager, FrontierRanking, LOG_START, MemoryFrontierStore, SharedRequestManager } from '../../src/index.js';
import type { FetchedEntry, RankableLink, SharedRequestManagerOptions } from '../../src/index.js';
import { SharedLearning } from '../../src/crawlee/shared-learning.js';

const SEED = 'https://www.e.edu/';
const parent = { url: SEED, depth: 0, relevance: 0.2, isHub: false };

function workers(store: MemoryFrontierStore<FetchedEntry>, count: number): SharedRequestManager[] {
    return Array.from({ length: count }, (_, i) => new SharedRequestManager({ focus: new Focus('visa scholarship', { seedUrls: [SEED] }), store, workerId: `w${i}` }));
}

/** Takes the seed, offers `links` as its links, and takes and handles `count` more pages: the paths, in order. */
async function takeAfterSeed(manager: FocusedRequestManager, links: Array<{ url: string; anchor: string }>, count: number): Promise<string[]> {
    await manager.addRequestsBatched([SEED]);
    const seed = (await manager.fetchNextRequest())!;
    manager.offerLinks(links, parent);
    await manager.flushOffers();
    await manager.markRequestHandled(seed);
    const taken: string[] = [];
    for (let i = 0; i < count; i++) {
        const request = (await manager.fetchNextRequest())!;
        taken.push(new URL(request.url).pathname);
        await manager.markRequestHandled(request);
    }
    return taken;
}

/** `count` links of one cluster that the query ranks high: `/international/visa-scholarship-<i>`. */
function internationalLinks(count: number): Array<{ url: string; anchor: string }> {
    return Array.from({ length: count }, (_, i) => ({ url: `https://www.e.edu/international/visa-scholarship-${i}`, anchor: `Visa and scholarship ${i}` }));
}

/** More links than a 12-page budget leaves room for, and a menu of sections: the news index is set aside for room. */
function linksWithNewsMenu(): Array<{ url: string; anchor: string }> {
    return [
        ...internationalLinks(14),
        { url: 'https://www.e.edu/news/scholarships-for-visa-holders', anchor: 'New scholarships for visa holders' },
        { url: 'https://www.e.edu/news/', anchor: 'News' },
        { url: 'https://www.e.edu/campus/map', anchor: 'Campus map' },
    ];
}

/** The same crawl in one process and by one shared worker: the pages each takes after the seed, in order. */
async function inProcessAndShared(links: Array<{ url: string; anchor: string }>, maxPages: number, count: number) {
    const alone = new FocusedRequestManager({ focus: new Focus('visa scholarship', { seedUrls: [SEED] }), maxPages });
    const inProcess = await takeAfterSeed(alone, links, count);
    const store = new MemoryFrontierStore<FetchedEntry>({ maxPages });
    const worker = new SharedRequestManager({ focus: new Focus('visa scholarship', { seedUrls: [SEED] }), store, workerId: 'w0', maxPages });
    const shared = await takeAfterSeed(worker, links, count);
    return { alone, inProcess, worker, shared };
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

    it('drops a leased spelling of a page known already, once a rewrite rule says so, and gives its charge back', async () => {
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 10 });
        const [a, b] = workers(store, 2);
        await a!.addRequestsBatched([SEED]);
        const seed = await a!.fetchNextRequest();
        a!.offerLinks(
            [
                { url: 'https://www.e.edu/visa?print=1', anchor: 'Student visa (print)' },
                { url: 'https://www.e.edu/visa', anchor: 'Student visa' },
                { url: 'https://www.e.edu/fees?print=1', anchor: 'Fees (print)' },
            ],
            parent,
        );
        await a!.flushOffers();
        await a!.settle(seed!);
        await a!.markRequestHandled(seed!);
        // Meanwhile the crawl learned that print=1 is another spelling (in a shared crawl, from the log).
        for (const learner of [a!.trapLearner, b!.trapLearner]) {
            for (const page of ['x', 'y']) {
                learner.observe(`https://www.e.edu/${page}`, `Page ${page}`);
                learner.observe(`https://www.e.edu/${page}?print=1`, `Page ${page}`);
            }
        }
        const taken: string[] = [];
        for (let request = await b!.fetchNextRequest(); request; request = await b!.fetchNextRequest()) {
            taken.push(request.url);
            await b!.settle(request);
            await b!.markRequestHandled(request);
        }
        // The visa page once, though b never saw the spelling a queued; the fees page under its canonical spelling,
        // queued in the store in place of the one dropped. Dropped leases cost no budget.
        expect(taken.sort()).toEqual(['https://www.e.edu/fees', 'https://www.e.edu/visa']);
        expect(b!.skippedCounts()['duplicate-spelling']).toBe(2);
        expect(await store.status()).toMatchObject({ charged: 3, dropped: 2, done: 3 });
    });

    it('commits a request that failed for good once its failure is logged, and gives back the charge of one never sent', async () => {
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 10 });
        const [a] = workers(store, 1);
        await a!.addRequestsBatched([SEED, 'https://www.e.edu/never-sent']);
        for (const sent of [true, false]) {
            const request = (await a!.fetchNextRequest())!;
            request.errorMessages.push('HTTP 503');
            await a!.markRequestHandled(request); // as Crawlee does, before its failedRequestHandler
            expect(await a!.isFinished()).toBe(false); // not committed yet: the failure is still to be logged
            a!.logEvent(request, { kind: 'failure', worker: 'w0', reason: sent ? 'http-503' : 'not-sent', url: request.url });
            await a!.settleFailed(request, sent);
        }
        expect((await store.readEvents(LOG_START, 10)).map(({ event }) => (event as { reason: string }).reason)).toEqual(['http-503', 'not-sent']);
        expect(await store.status()).toMatchObject({ charged: 1, failed: 1, dropped: 1, isFinished: true });
        expect(await a!.isFinished()).toBe(true);
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

    it('counts a page towards opening its section once, whichever workers took its attempts, so every worker ends with the same sections', async () => {
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 10 });
        const [a, b] = workers(store, 2);
        await a!.addRequestsBatched([SEED]);
        const seed = (await a!.fetchNextRequest())!;
        a!.offerLinks(
            [1, 2].map((i) => ({ url: `https://www.e.edu/research/visa/${i}`, anchor: `Visa research ${i}` })),
            parent,
        );
        await a!.flushOffers();
        await a!.settle(seed);
        await a!.markRequestHandled(seed);
        // a's attempt at the first page fails and goes back to the store; b fetches it, then the second page.
        const attempt = (await a!.fetchNextRequest())!;
        attempt.retryCount = 1;
        await a!.reclaimRequest(attempt);
        for (let request = await b!.fetchNextRequest(); request; request = await b!.fetchNextRequest()) {
            b!.logEvent(request, { kind: 'unread', worker: 'w1', url: request.url });
            await b!.settle(request);
            await b!.markRequestHandled(request);
        }
        // Each worker replays the other's events, as a shared crawl does from the log.
        for (const { event } of await store.readEvents(LOG_START, 10)) {
            const logged = event as { worker: string; url: string; takenUrl?: string; explored?: true };
            for (const [worker, id] of [[a!, 'w0'], [b!, 'w1']] as const) {
                if (logged.worker !== id) worker.noteRemoteFetch(logged.url, logged.takenUrl, logged.explored === true);
            }
        }
        // Two fetches of a section of deep pages: not yet the three that open it, on both (a once counted its own
        // attempt and b's fetch of the same page as two).
        expect(a!.sectionsOpened).toBe(0);
        expect(b!.sectionsOpened).toBe(0);
    });

    it('spreads the budget over clusters as one process does: a cluster at its cap yields to a link of another near the top', async () => {
        // maxPages 20: a cluster may take 2 pages (10 %) until it proves itself. The campus links score as high as the
        // international ones but come later, so best first alone would take all five international pages first.
        const links = [
            ...internationalLinks(5),
            { url: 'https://www.e.edu/campus/visa-scholarship-office', anchor: 'Visa and scholarship office' },
            { url: 'https://www.e.edu/campus/visa-scholarship-fund', anchor: 'Visa and scholarship fund' },
            { url: 'https://www.e.edu/about/history', anchor: 'History' },
        ];
        const { inProcess, worker, shared } = await inProcessAndShared(links, 20, 6);
        expect(inProcess.slice(0, 2).every((path) => path.startsWith('/international/'))).toBe(true);
        expect(inProcess[2]).toMatch(/^\/campus\//); // the cap: international has taken its 2 pages
        expect(shared).toEqual(inProcess);
        expect(worker.explorations).toBe(0); // the cap's pick is not an exploration
    });

    it('explores through a section entry it set aside for room, as one process does, and counts only that pick as exploring', async () => {
        // maxPages 12: the seed leaves room for 11 links, so the news index (a menu link, demoted as news) is set aside.
        const links = linksWithNewsMenu();
        const { alone, inProcess, worker, shared } = await inProcessAndShared(links, 12, 9);
        expect(alone.skippedCounts()['frontier-full']).toBeGreaterThan(0);
        expect(inProcess[8]).toBe('/news/'); // the 10th page of the crawl explores, through the entry set aside
        expect(shared).toEqual(inProcess);
        expect(worker.explorations).toBe(1);
        expect(alone.explorations).toBe(1);
    });

    it('explores through a section entry it set aside even while a page being read offers that link again', async () => {
        const links = linksWithNewsMenu();
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 12 });
        let reoffered = 0;
        const worker: SharedRequestManager = new SharedRequestManager({
            focus: new Focus('visa scholarship', { seedUrls: [SEED] }),
            store,
            workerId: 'w0',
            maxPages: 12,
            // While the pick catches up with the log, another page of this worker is read: its menu offers the news
            // index again, and that offer waits for the next flush.
            catchUp: async () => {
                worker.offerLinks([{ url: 'https://www.e.edu/news/', anchor: 'News' }], { url: 'https://www.e.edu/international/visa-scholarship-0', depth: 1, relevance: 0.2, isHub: false });
                reoffered++;
            },
        });
        const shared = await takeAfterSeed(worker, links, 9);
        expect(reoffered).toBeGreaterThan(0);
        expect(shared[8]).toBe('/news/'); // the 10th page of the crawl explores, through the entry set aside
        expect(worker.explorations).toBe(1);
    });

    it('shares a section entry it set aside for room, so that another worker can explore through it', async () => {
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 12 });
        const focus = () => new Focus('visa scholarship', { seedUrls: [SEED] });
        const a = new SharedRequestManager({ focus: focus(), store, workerId: 'a', maxPages: 12 });
        let learning: SharedLearning | null = null;
        const b = new SharedRequestManager({ focus: focus(), store, workerId: 'b', maxPages: 12, catchUp: () => learning!.sync() });
        learning = new SharedLearning(store, 'b', (event) => {
            if (event.kind === 'setAside') b.holdSetAsideElsewhere(event.entries);
        });
        await a.addRequestsBatched([SEED]);
        await b.addRequestsBatched([SEED]);
        const seed = (await a.fetchNextRequest())!;
        a.offerLinks(linksWithNewsMenu(), parent); // the news index does not fit: a sets it aside
        await a.flushOffers();
        await a.settle(seed);
        await a.markRequestHandled(seed);
        const taken: string[] = [];
        for (let i = 0; i < 10; i++) {
            const request = (await b.fetchNextRequest())!;
            taken.push(new URL(request.url).pathname);
            await b.markRequestHandled(request);
        }
        expect(b.explorations).toBe(1);
        expect(taken[9]).toBe('/news/'); // b's exploration turn takes the entry a set aside, not a post of the section
    });

    it('offers a link it set aside for room again once a re-score ranks it above the worst queued link', async () => {
        // A worker whose model comes to value campus pages after they were set aside (as a learned link model does).
        class CampusRanking extends FrontierRanking {
            campusPays = false;
            override rankOf(link: RankableLink): number {
                return this.campusPays && link.url.includes('/campus/') ? 100 : super.rankOf(link);
            }
        }
        class LearningWorker extends SharedRequestManager {
            readonly campus = new CampusRanking(this.focus, this.trapLearner);
            constructor(options: SharedRequestManagerOptions) {
                super(options);
                this.ranking = this.campus;
            }
            set campusPays(pays: boolean) {
                this.campus.campusPays = pays;
            }
        }
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 6 });
        const worker = new LearningWorker({ focus: new Focus('visa scholarship', { seedUrls: [SEED] }), store, workerId: 'w0', maxPages: 6 });
        await worker.addRequestsBatched([SEED]);
        const seed = (await worker.fetchNextRequest())!;
        worker.offerLinks(
            [
                ...internationalLinks(5),
                { url: 'https://www.e.edu/campus/map', anchor: 'Campus map' },
            ],
            parent,
        );
        await worker.flushOffers(); // room for 5: the campus map is set aside
        await worker.settle(seed);
        await worker.markRequestHandled(seed);
        expect(worker.skippedCounts()['frontier-full']).toBe(1);
        worker.campusPays = true;
        worker.rescore();
        await new Promise((resolve) => setTimeout(resolve, 20)); // the re-score runs in the background
        const next = await worker.fetchNextRequest();
        expect(next?.url).toBe('https://www.e.edu/campus/map');
        expect((await store.status()).fresh).toBe(4); // it took the place of the worst queued link, not a sixth one
    });

    it('does not queue a page again that it took before a rewrite rule changed its key, when the page is linked again', async () => {
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 10 });
        const [worker] = workers(store, 1);
        await worker!.addRequestsBatched([SEED]);
        const seed = (await worker!.fetchNextRequest())!;
        worker!.offerLinks([{ url: 'https://www.e.edu/partners/acme.html', anchor: 'Acme visa scholarship' }], parent);
        await worker!.flushOffers();
        await worker!.settle(seed);
        await worker!.markRequestHandled(seed);
        const acme = (await worker!.fetchNextRequest())!;
        expect(acme.url).toBe('https://www.e.edu/partners/acme.html');
        await worker!.settle(acme);
        await worker!.markRequestHandled(acme);
        // Then the crawl learns that .html may be dropped: the page's key changes from what the store holds.
        for (const page of ['x', 'y']) {
            worker!.trapLearner.observe(`https://www.e.edu/${page}.html`, `Page ${page}`);
            worker!.trapLearner.observe(`https://www.e.edu/${page}`, `Page ${page}`);
        }
        expect(worker!.trapLearner.keyOf('https://www.e.edu/partners/acme.html')).not.toBe(acme.uniqueKey);
        worker!.offerLinks([{ url: 'https://www.e.edu/partners/acme.html', anchor: 'Acme visa scholarship' }], { ...parent, url: 'https://www.e.edu/partners/' });
        await worker!.flushOffers();
        expect(await worker!.fetchNextRequest()).toBeNull();
        expect((await store.status()).charged).toBe(2);
    });
    it('fetches a page queued under its canonical key by a worker with a rewrite rule this one has not learned, unless it took that page', async () => {
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 10 });
        const [a, b] = workers(store, 2);
        const acme = 'https://www.e.edu/partners/acme.html';
        await b!.addRequestsBatched([SEED]);
        const seed = (await b!.fetchNextRequest())!;
        b!.offerLinks([{ url: acme, anchor: 'Acme visa scholarship' }], parent);
        await b!.flushOffers();
        await b!.settle(seed);
        await b!.markRequestHandled(seed);
        // Worker a has learned that .html may be dropped, and does what it does with a leased spelling under an old key:
        // queues the page under its canonical key and drops the old one.
        for (const page of ['x', 'y']) {
            a!.trapLearner.observe(`https://www.e.edu/${page}.html`, `Page ${page}`);
            a!.trapLearner.observe(`https://www.e.edu/${page}`, `Page ${page}`);
        }
        const [old] = (await store.lease('a', 1)).leases;
        const canonicalKey = a!.trapLearner.keyOf(acme);
        expect(canonicalKey).not.toBe(old!.key);
        expect((await store.enqueue([{ ...old!, key: canonicalKey, payload: { ...old!.payload, uniqueKey: canonicalKey } }])).outcomes).toEqual(['queued']);
        await store.commit(old!, 'dropped');
        // Worker b knows the old key, and no rule maps one key to the other: the page is fetched, not dropped again.
        const request = (await b!.fetchNextRequest())!;
        expect(request.url).toBe(acme);
        expect(b!.skippedCounts()['duplicate-spelling'] ?? 0).toBe(0);
        await b!.settle(request);
        await b!.markRequestHandled(request);
        // But a page b took is not fetched again under the key of a worker that had not heard of it yet.
        const beta = 'https://www.e.edu/partners/beta.html';
        b!.offerLinks([{ url: beta, anchor: 'Beta visa scholarship' }], parent);
        await b!.flushOffers();
        const taken = (await b!.fetchNextRequest())!;
        expect(taken.url).toBe(beta);
        await b!.settle(taken);
        await b!.markRequestHandled(taken);
        const betaKey = a!.trapLearner.keyOf(beta);
        expect(betaKey).not.toBe(taken.uniqueKey);
        expect((await store.enqueue([{ ...old!, key: betaKey, url: beta, payload: { ...old!.payload, url: beta, uniqueKey: betaKey } }])).outcomes).toEqual(['queued']);
        expect(await b!.fetchNextRequest()).toBeNull();
        expect(b!.skippedCounts()['duplicate-spelling']).toBe(1);
    });

    it('announces an exploration when it is taken, so that a worker exploring at the same moment opens another section', async () => {
        const links = [
            ...internationalLinks(24),
            { url: 'https://www.e.edu/news/', anchor: 'News' },
            { url: 'https://www.e.edu/news/scholarships-for-visa-holders', anchor: 'New scholarships for visa holders' },
            { url: 'https://www.e.edu/campus/map', anchor: 'Campus map' },
        ];
        const focus = () => new Focus('visa scholarship', { seedUrls: [SEED] });
        const store = new MemoryFrontierStore<FetchedEntry>({ maxPages: 50, maxInFlightPerHost: 50 });
        const a = new SharedRequestManager({ focus: focus(), store, workerId: 'a', maxPages: 50 });
        // Worker b replays the log before it picks, as a worker of a FocusedCrawl does.
        let learning: SharedLearning | null = null;
        const b = new SharedRequestManager({ focus: focus(), store, workerId: 'b', maxPages: 50, catchUp: () => learning!.sync() });
        learning = new SharedLearning(store, 'b', (event) => {
            if (event.kind === 'exploring') b.noteRemoteFetch(event.url, event.takenUrl, event.explored);
        });
        await a.addRequestsBatched([SEED]);
        await b.addRequestsBatched([SEED]); // every worker adds the seeds (its exploration scope)
        const seed = (await a.fetchNextRequest())!;
        a.offerLinks(links, parent);
        await a.flushOffers();
        await a.settle(seed);
        await a.markRequestHandled(seed);
        const take = async (worker: SharedRequestManager): Promise<string> => {
            const request = (await worker.fetchNextRequest())!;
            return new URL(request.url).pathname; // held, not handled: its page is not done when the other worker picks
        };
        for (let i = 0; i < 8; i++) await take(a);
        for (let i = 0; i < 9; i++) await take(b);
        expect(await take(a)).toBe('/news/'); // each worker's tenth page explores
        expect(await take(b)).toBe('/campus/map');
        expect([a.explorations, b.explorations]).toEqual([1, 2]); // b counts a's exploration too
        const logged = (await store.readEvents(LOG_START, 10)).map(({ event }) => event as { kind: string; worker: string });
        expect(logged.map(({ kind, worker }) => `${kind} ${worker}`)).toEqual(['exploring a', 'exploring b']);
    });
});
