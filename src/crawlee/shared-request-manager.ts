import { log as crawleeLog } from 'crawlee';
import type { AddRequestsBatchedOptions, Request, AddRequestsBatchedResult, Dictionary, IRequestManager, RequestQueueOperationOptions, RequestsLike, Source } from 'crawlee';

import { LeaseHeartbeat, pickDiverse, pickExploration, politenessHost } from '../frontier/index.js';
import type { ExplorationCandidate, FrontierLease, FrontierOffer, FrontierStatus, FrontierStore, LeaseBatch, LeaseRef, OwedDelivery } from '../frontier/index.js';
import { dedupKey, shapeKey } from '../url/index.js';
import { FOREFRONT_SCORE, FocusedRequestManager } from './request-manager.js';
import type { Discovery, FetchedEntry, FocusedRequestManagerOptions, FrontierEntry, FrontierSkipReason, StallState } from './request-manager.js';
import type { ExploringEvent } from './shared-learning.js';

type OperationInfo = Awaited<ReturnType<IRequestManager['addRequest']>>;

export interface SharedRequestManagerOptions extends FocusedRequestManagerOptions {
    /** The frontier every worker of the crawl shares (a `RedisFrontierStore`, or a `MemoryFrontierStore` in tests). */
    store: FrontierStore<FetchedEntry>;
    /** Names this worker in the store's leases; unique per process. */
    workerId: string;
    /**
     * Replays what the other workers logged since this worker last read the log (`SharedLearning.sync`). Called before
     * an exploration pick, so that sections other workers have just started exploring are not explored again.
     * @default none: the pick goes by what was replayed last
     */
    catchUp?: () => Promise<unknown>;
}

/** Pages handled between two reads of the store's counters and queued scores. */
const STATUS_EVERY_PAGES = 10;

/** How long a failed request waits for the failed-request handler to settle it before it is committed anyway. */
const FAILED_SETTLE_GRACE_MILLIS = 5_000;

/**
 * Pages handled by a worker between two re-scorings of the shared queue at most: every page, as one process re-scores
 * on every change. Every fifth page left the store's order and its promotions from the reserve a few pages behind the
 * model: recall 0.87 / 0.89 / 0.80 with 1, 2 and 4 workers against 0.88 / 0.90 / 0.85 re-scoring every page (means of
 * 7, 7 and 37 runs; openehr industry partners, `bench:focus --workers`), for about one more round trip per page.
 */
const RESCORE_EVERY_PAGES = 1;

/** Queued URLs of each queue a re-scoring reads and re-scores, best first. */
const RESCORE_TOP = 1_000;

/** A relative change of a score below this is not sent. */
const RESCORE_EPSILON = 1e-6;

/** Queued links an exploration pick looks at, best first. */
const EXPLORATION_WINDOW = 1_000;

/** Links of this worker's reserve offered to the store again at most, per re-score. */
const PROMOTE_MAX = 1_000;

/** Queued links of each queue the cluster cap looks at, best first: links far down cannot jump the queue anyway. */
const DIVERSITY_WINDOW = 64;

/** Queued scores read at most: the recall estimate sums their probabilities, and the best carry nearly all of it. */
const QUEUED_SCORES_READ = 5_000;

/** A request this worker holds a lease for, from the moment Crawlee took it until it was handled or given back. */
interface HeldLease {
    lease: FrontierLease<FetchedEntry>;
    entry: FetchedEntry;
    /** The commit's answer once the page was settled; `null` before. */
    settled: 'ok' | 'stale' | null;
    /** The heartbeat found the lease reclaimed: another worker owns the page now. */
    lost: boolean;
    /** What the page taught the crawl, logged with its commit (see {@link SharedRequestManager.logEvent}). */
    events: unknown[];
    /** Leased as this worker's exploration pick (see {@link SharedRequestManager.explorationPick}). */
    explored: boolean;
}

/**
 * Crawlee's request manager over a {@link FrontierStore} shared by several worker processes (issue 14): the queue,
 * dedup, page budget, leases, per-host politeness, retries and the stop decision live in the store; admission
 * (cleaning, rewrite rules, skip reasons, scope, globs, robots.txt, link scoring) stays in this process, inherited
 * from {@link FocusedRequestManager}, whose own queue is left empty.
 *
 * - Links are buffered as they are admitted and sent in one `enqueue` by {@link flushOffers}, which the page hook awaits
 *   before the page's lease is committed, so a page's children are in the store before the page counts as done.
 * - One URL is leased per free slot (`isEmpty` leases it, `fetchNextRequest` hands it out): a large prefetch would let
 *   leases age while they wait (Crawlee #2849). A heartbeat keeps every held lease alive.
 * - The page hook calls {@link settle} (the fenced commit) before delivering: a page whose commit is `stale` belongs
 *   to another worker after a reclaim, and is not delivered here.
 * - `isFinished` is the store's: the crawl ends for every worker when nothing is queued that may be leased and no lease
 *   is out anywhere, so survivors wait for a dead worker's leases to expire and fetch its pages.
 *
 * - What a page teaches the crawl (trap learner, rewrite rules, link model, facet statistics, harvest, the adaptive stop)
 *   is logged with its commit ({@link logEvent}); every worker replays the log (see `SharedLearning`).
 *
 * - When the model moves, the best queued URLs are re-scored in the store ({@link rescoreIfDue}).
 *
 * - Every tenth lease is an exploration pick, as in one process ({@link explorationPick}); the others keep the cluster
 *   cap, as in one process ({@link diversePick}). An exploration is announced in the log when it is leased, so that
 *   no other worker explores the same section meanwhile.
 *
 * - A request that failed for good is committed by {@link settleFailed}, after the failed-request handler logged why;
 *   one never sent is `dropped`, its charge back to the budget.
 *
 * Per worker still (known limitations): the reserve of links set aside for want of room (each worker promotes and
 * explores only its own, {@link promoteReserve}) and the breadth-first mode's per-host round robin (a breadth-first
 * crawl is ordered by depth).
 */
export class SharedRequestManager extends FocusedRequestManager {
    readonly store: FrontierStore<FetchedEntry>;
    readonly workerId: string;
    private readonly catchUp: () => Promise<unknown>;
    /** Section entries set aside for room since the last commit, to share with the other workers. */
    private readonly setAsideToShare = new Map<string, FetchedEntry>();
    /** Keys of offers sent to the store whose answer has not come back yet. */
    private readonly sending = new Set<string>();
    private readonly heartbeat: LeaseHeartbeat;
    /** Links admitted since the last flush. */
    private offers: Array<FrontierOffer<FetchedEntry>> = [];
    /** Flushes under way: the crawl is not finished while links are on their way to the store. */
    private flushing = 0;
    /** A URL leased by `isEmpty`, waiting for the `fetchNextRequest` that follows. */
    private ready: Array<FrontierLease<FetchedEntry>> = [];
    private readonly held = new Map<string, HeldLease>();
    /** Hosts whose robots.txt `Crawl-delay` was given to the store. */
    private readonly delaysSent = new Set<string>();
    private lastStatus: FrontierStatus | null = null;
    /** The scores of the crawl's queued links, best first, as last read: the links the recall estimate counts as left. */
    private storeQueued: number[] = [];
    private stopReasonSeen: string | null = null;
    private taken = 0;
    /**
     * Leases made for Crawlee's slots, whether taken yet or not (a spelling dropped for its canonical one does not
     * count): the exploration turn goes by these, since two slots filled at once each saw the same pages taken and
     * both explored.
     */
    private leased = 0;
    /** The link model or the traps moved since the queue's scores were last recomputed. */
    private rescoreWanted = false;
    /** Pages handled here when the store's queue was last re-scored; -1 before. */
    private rescoredAt = -1;
    private rescoring: Promise<void> | null = null;
    /** Requests that failed for good, until the failed-request handler has logged why ({@link settleFailed}). */
    private readonly failing = new Map<string, { held: HeldLease; since: number }>();
    /** The lease being made, if any: the next waits for it ({@link leaseOne}). */
    private leasing: Promise<unknown> = Promise.resolve();
    /** Keys leased as exploration picks and not yet handed to Crawlee. */
    private readonly explorationKeys = new Set<string>();
    /** An exploration pick's canonical spelling, queued in place of the spelling leased: the next lease's pick. */
    private explorationFollowUp: string | null = null;
    /** Taken URLs whose fetch counted towards their section ({@link noteSectionFetch}). */
    private readonly sectionFetchesCounted = new Set<string>();
    /** This worker's own skip counts, and what of them the log has (see {@link skipDelta}). */
    private readonly ownSkips = new Map<string, number>();
    private readonly loggedSkips = new Map<string, number>();

    constructor(options: SharedRequestManagerOptions) {
        super(options);
        this.store = options.store;
        this.workerId = options.workerId;
        this.catchUp = options.catchUp ?? (() => Promise.resolve());
        this.heartbeat = new LeaseHeartbeat(this.store, {
            onLost: (lost) => {
                for (const held of this.held.values()) if (held.lease.key === lost.key && held.lease.token === lost.token) held.lost = true;
                crawleeLog.warning(`crawlee-focus: the lease of ${lost.key} was lost (this worker was too slow); another worker fetches it.`);
            },
            onError: (error) => crawleeLog.warning(`crawlee-focus: lease heartbeat failed (${(error as Error).message}); retrying.`),
        });
    }

    override get isShared(): boolean {
        return true;
    }

    override get sharedStopReason(): string | null {
        return this.stopReasonSeen;
    }

    // ---------------------------------------------------------------- adding

    /** Admission decided to queue the entry: it goes to the store with the next flush. */
    protected override enqueue(entry: FrontierEntry, score: number): boolean {
        this.known.add(entry.uniqueKey);
        this.offers.push(this.offerOf(entry, score));
        return true;
    }

    /** Found again on this worker: offered again, and the store raises its score if it is still queued and this one is higher. */
    protected override raiseIfQueued(uniqueKey: string, url: string, how: Discovery): void {
        // A page taken already, under this key or under the one it had before a rewrite rule: nothing to raise. Offered,
        // the rewritten key is new to the store, which would queue the page again (fetched twice in a shared crawl).
        if (how.forefront || this.handled.has(uniqueKey) || this.takenPageKeys.has(uniqueKey) || !this.focus) return;
        const scored = how.scoreWith(url);
        if (!scored) return;
        const shape = shapeKey(url);
        const entry: FrontierEntry = { url, uniqueKey, depth: how.depth, shape, parentUrl: how.parentUrl, anchorText: how.anchorText, signal: scored.signal, userData: how.userData };
        this.offers.push(this.offerOf(entry, this.ranking.adjust(scored.score, shape, url)));
    }

    private offerOf(entry: FrontierEntry, score: number): FrontierOffer<FetchedEntry> {
        // Breadth-first crawls have no link score: shallower pages first.
        const rank = this.focus ? score : this.ranking.adjust(1 / (1 + entry.depth), entry.shape, entry.url);
        return { key: entry.uniqueKey, url: entry.url, host: politenessHost(entry.url), depth: entry.depth, score: rank, payload: { ...entry, linkScore: this.focus ? score : null } };
    }

    override async addRequest(source: Source, options: RequestQueueOperationOptions = {}): Promise<OperationInfo> {
        const info = await super.addRequest(source, options);
        await this.flushOffers();
        return info;
    }

    override async addRequestsBatched(requests: RequestsLike, options: AddRequestsBatchedOptions = {}): Promise<AddRequestsBatchedResult> {
        const result = await super.addRequestsBatched(requests, options);
        await this.flushOffers();
        return result;
    }

    /**
     * Sends the buffered links to the store, after their hosts' robots.txt has been read (a disallowed URL never reaches
     * the shared frontier, where it would cost budget) and their `Crawl-delay` given to the store.
     */
    override async flushOffers(): Promise<number> {
        if (this.offers.length === 0) return 0;
        const offers = this.offers;
        this.offers = [];
        this.flushing++;
        for (const offer of offers) this.sending.add(offer.key);
        try {
            const allowed = await this.robotsAllowed(offers);
            if (allowed.length === 0) return 0;
            const { outcomes, evicted } = await this.store.enqueue(allowed);
            let queued = 0;
            outcomes.forEach((outcome, i) => {
                const offer = allowed[i]!;
                if (outcome === 'queued') queued++;
                else if (outcome === 'rejected') {
                    this.known.delete(offer.key);
                    this.noteDropped(offer.key, offer.payload);
                    this.shareIfSectionEntry(offer.payload);
                    this.count('frontier-full', offer.url);
                }
            });
            for (const offer of evicted) {
                this.known.delete(offer.key);
                this.noteDropped(offer.key, offer.payload);
                this.shareIfSectionEntry(offer.payload);
                this.count('evicted', offer.url);
            }
            return queued;
        } finally {
            for (const offer of offers) this.sending.delete(offer.key);
            this.flushing--;
        }
    }

    private async robotsAllowed(offers: Array<FrontierOffer<FetchedEntry>>): Promise<Array<FrontierOffer<FetchedEntry>>> {
        const robots = this.robots;
        if (!robots) return offers;
        const allowed: Array<FrontierOffer<FetchedEntry>> = [];
        for (const offer of offers) {
            const policy = await robots.ready(offer.url);
            if (!this.delaysSent.has(offer.host)) {
                this.delaysSent.add(offer.host);
                const delay = robots.crawlDelayMillis(offer.host);
                if (delay > 0) await this.store.setHostDelay(offer.host, delay);
            }
            if (policy.isAllowed(offer.url)) allowed.push(offer);
            else {
                this.known.delete(offer.key);
                this.count('robots-disallowed', offer.url);
            }
        }
        return allowed;
    }

    // ---------------------------------------------------------------- taking

    /**
     * Leases one URL for a free slot of this worker, and keeps it alive until it is handled. Every tenth is an
     * exploration pick, and so is one whenever the best queued link is expected to pay less than exploring, as in one
     * process ({@link explorationPick}). One lease at a time: Crawlee fills its slots concurrently, and two picks made
     * at once chose the same section to explore.
     */
    private leaseOne(): Promise<FrontierLease<FetchedEntry> | undefined> {
        const leased = this.leasing.then(() => this.leaseNext());
        this.leasing = leased.catch(() => undefined);
        return leased;
    }

    private async leaseNext(): Promise<FrontierLease<FetchedEntry> | undefined> {
        for (;;) {
            await this.flushOffers();
            // The best queued score as last read from the store: close enough to ask whether exploring pays more.
            const bestQueued = this.storeQueued[0];
            const followUp = this.explorationFollowUp;
            this.explorationFollowUp = null;
            const explore = followUp !== null || this.isExplorationTurn(this.leased) || (bestQueued !== undefined && this.exploringPaysMore(bestQueued));
            const pick = followUp ?? (explore ? await this.explorationPick() : await this.diversePick());
            const batch = await this.store.lease(this.workerId, 1, pick === null ? [] : [pick]);
            this.noteBatch(batch);
            const lease = batch.leases[0];
            if (!lease) return undefined;
            this.heartbeat.add(lease);
            const explored = explore && lease.key === pick;
            if (explored) this.explorationKeys.add(lease.key);
            if (await this.droppedAsKnownSpelling(lease)) continue;
            this.leased++;
            if (explored && !this.sectionFetchesCounted.has(lease.url)) {
                // The section is opened when it is taken, as in one process, and every worker hears of it now rather
                // than when the page is done: workers that learned of an exploration only from its page explored one
                // section up to five times over (openehr industry partners, 4 workers).
                this.noteSectionFetch(lease.url, true);
                const announcement: ExploringEvent = { kind: 'exploring', worker: this.workerId, url: null, explored: true, takenUrl: lease.url };
                await this.store.announce(lease, [announcement]);
            }
            return lease;
        }
    }

    /**
     * The cluster cap, as in one process (`popDiverse`): when the best queued link's cluster has taken its share of the
     * budget without proving itself, the best link of another cluster near the top goes first. Pages taken count per
     * cluster across workers (each fetch once, from the crawl's log); a pick another worker leases first is passed
     * over by the store. Null for the best link itself, and in a crawl without focus (ordered by depth).
     */
    private async diversePick(): Promise<string | null> {
        if (!this.focus) return null;
        const queued = (await this.store.queuedEntries(DIVERSITY_WINDOW)).sort((a, b) => b.score - a.score);
        const pick = pickDiverse(queued, this.diversityRule());
        return pick === undefined || pick === queued[0] ? null : pick.key;
    }

    /**
     * A link into a section of a start site that no worker's fetch has opened (the sections every worker opened come
     * with the crawl's log), chosen as in one process (`pickExploration`) among the store's best queued links and the
     * links this worker set aside for want of room, or null: the crawl's exploration share. A section's entry is often
     * among the latter (a news index, demoted as news, does not fit a frontier as long as the budget left); picked,
     * it is offered again ahead of every queued link, so that this lease takes it.
     */
    private async explorationPick(): Promise<string | null> {
        await this.catchUp();
        const candidates: Array<ExplorationCandidate<{ key: string; setAside: FrontierEntry | null }>> = [];
        for (const { key, url, payload } of await this.store.queuedEntries(EXPLORATION_WINDOW)) {
            if (this.isExploratory(payload)) candidates.push({ url, score: this.ranking.evidenceRankOf(payload), item: { key, setAside: null } });
        }
        // A link set aside that a page read meanwhile offers again is known only once the store takes the offer: the
        // offer waits for the next flush or for the store's answer, and the store, full, may refuse it again. Counted
        // as known, it hid the news index from this pick, which opened the news section through its industry list
        // instead (openehr industry partners: 47 pages of off-topic posts, recall 0.59 against 0.91).
        const unanswered = new Set([...this.sending, ...this.offers.map((offer) => offer.key)]);
        for (const { payload } of this.reserve.links('no-room')) {
            if ((!this.known.has(payload.uniqueKey) || unanswered.has(payload.uniqueKey)) && this.isExploratory(payload)) {
                candidates.push({ url: payload.url, score: this.ranking.evidenceRankOf(payload), item: { key: payload.uniqueKey, setAside: payload } });
            }
        }
        const picked = pickExploration(candidates);
        if (!picked) return null;
        const { key, setAside } = picked.item;
        if (setAside) {
            this.reserve.delete(key);
            this.known.add(key);
            this.offers.push({ ...this.offerOf(setAside, this.ranking.rankOf(setAside)), score: FOREFRONT_SCORE });
            await this.flushOffers();
        }
        return key;
    }

    /**
     * Rewrite rules learned after a URL was queued apply when it is leased, as in one process. The leased spelling is
     * dropped unfetched (its charge goes back to the budget) and its canonical spelling offered to the store in its
     * place, where it is queued unless some worker knows it already. Only when the frontier has no room for it is the
     * page fetched under this lease, in its canonical spelling.
     */
    private async droppedAsKnownSpelling(lease: FrontierLease<FetchedEntry>): Promise<boolean> {
        this.rekeyTakenPages();
        const entry = lease.payload;
        const canonical = this.trapLearner.rewrite(entry.url);
        const key = this.trapLearner.keyOf(canonical);
        if (key === entry.uniqueKey) {
            if (canonical !== entry.url) lease.payload = { ...entry, url: canonical };
            return false;
        }
        // No rule of this worker touches the URL: the key differs because the worker that queued it knew a rule this
        // one has not replayed yet, and unless this worker knows the page was taken, that key stands. Dropped as
        // another spelling, the page was dropped by each worker in turn and fetched by none (a news listing's second
        // page, 4 workers).
        if (canonical === entry.url && key === dedupKey(entry.url) && !this.handled.has(key) && !this.takenPageKeys.has(key)) return false;
        const replacement: FetchedEntry = { ...entry, url: canonical, uniqueKey: key };
        const [outcome] = this.known.has(key) ? ['duplicate'] : (await this.store.enqueue([{ ...lease, key, url: canonical, payload: replacement }])).outcomes;
        if (outcome === 'rejected') {
            lease.payload = replacement;
            this.known.add(key);
            return false;
        }
        this.known.add(key);
        // The exploration goes on under the page's canonical spelling, queued now or before (if it is still queued).
        if (this.explorationKeys.delete(lease.key)) this.explorationFollowUp = key;
        this.heartbeat.delete(lease);
        this.count('duplicate-spelling', entry.url);
        await this.store.commit(lease, 'dropped', this.withSharedNotes([]));
        return true;
    }

    /**
     * Every page any worker took (from the crawl's log) and this worker's own: a rule learned since keys them anew, so
     * that a spelling of one of them offered or leased later is known, as in one process.
     */
    protected override *takenKeys(): Iterable<string> {
        yield* super.takenKeys();
        yield* this.sectionFetchesCounted;
    }

    protected override count(reason: FrontierSkipReason, url: string): void {
        super.count(reason, url);
        this.ownSkips.set(reason, (this.ownSkips.get(reason) ?? 0) + 1);
    }

    /**
     * A commit's events, with what this worker has to tell the others since its last commit: the links it skipped (by
     * reason), which they add to their counts so that every report counts the whole crawl's skips, and the section
     * entries it set aside for room ({@link shareIfSectionEntry}). A commit that turns out stale loses them.
     */
    private withSharedNotes(events: unknown[]): unknown[] {
        const counts: Record<string, number> = {};
        for (const [reason, count] of this.ownSkips) {
            const delta = count - (this.loggedSkips.get(reason) ?? 0);
            if (delta > 0) counts[reason] = delta;
            this.loggedSkips.set(reason, count);
        }
        const withCounts = Object.keys(counts).length === 0 ? events : [...events, { kind: 'skipped', worker: this.workerId, counts }];
        if (this.setAsideToShare.size === 0) return withCounts;
        const entries = [...this.setAsideToShare.values()];
        this.setAsideToShare.clear();
        return [...withCounts, { kind: 'setAside', worker: this.workerId, entries }];
    }

    /**
     * A link set aside for room into a section no fetch has opened: every worker's exploration may need it (set-aside
     * links stay in the worker that read their page), so it goes with this worker's next commit.
     */
    private shareIfSectionEntry(entry: FetchedEntry): void {
        if (this.focus && this.isExploratory(entry)) this.setAsideToShare.set(entry.uniqueKey, entry);
    }

    /** Section entries another worker set aside for room: this worker's exploration may take them too. */
    holdSetAsideElsewhere(entries: readonly FetchedEntry[]): void {
        for (const entry of entries) if (!this.known.has(entry.uniqueKey)) this.noteDropped(entry.uniqueKey, entry);
    }

    private safeKeyOf(url: string): string | null {
        try {
            return this.trapLearner.keyOf(url);
        } catch {
            return null;
        }
    }

    /**
     * Another worker fetched `url` (taken as `takenUrl`, before redirects; known with the page's first event only), or
     * took `takenUrl` to explore (`url` null, when it was taken): the URL is known, its section had a fetch, and an
     * exploration it made counts for the crawl.
     */
    noteRemoteFetch(url: string | null, takenUrl: string | undefined, explored: boolean): void {
        const key = url === null ? null : this.safeKeyOf(url);
        if (key !== null) {
            this.known.add(key);
            this.takenPageKeys.add(key);
        }
        if (takenUrl !== undefined) this.noteSectionFetch(takenUrl, explored);
    }

    /**
     * Counts a taken URL's fetch towards its section and the exploration share once, however many attempts and workers
     * it took (a retry is leased again, maybe by another worker), so every worker's count ends alike.
     */
    private noteSectionFetch(url: string, explored: boolean): void {
        if (this.sectionFetchesCounted.has(url)) return;
        this.sectionFetchesCounted.add(url);
        // A taken URL came from the frontier, where only absolute URLs go.
        this.noteClusterTaken(url);
        this.sections.noteTaken(url, explored);
    }

    private noteBatch(batch: Pick<LeaseBatch, 'stopReason'>): void {
        if (batch.stopReason !== null && this.stopReasonSeen === null) {
            this.stopReasonSeen = batch.stopReason;
            this.stopped = true;
            crawleeLog.info(`crawlee-focus: the crawl was stopped (${batch.stopReason}); finishing the requests in flight.`);
        }
    }

    override async fetchNextRequest<T extends Dictionary = Dictionary>(): Promise<Request<T> | null> {
        if (this.halted) return null;
        const lease = this.ready.shift() ?? (await this.leaseOne());
        if (!lease) return null;
        const entry: FetchedEntry = lease.payload;
        const request = this.toRequest(entry);
        request.retryCount = lease.attempts;
        const explored = this.explorationKeys.delete(lease.key);
        this.noteSectionFetch(lease.url, explored);
        this.held.set(request.id!, { lease, entry, settled: null, lost: false, events: [], explored });
        this.taken++;
        this.lastActivityAt = Date.now();
        return request as unknown as Request<T>;
    }

    override async isEmpty(): Promise<boolean> {
        if (this.halted) return true;
        if (this.ready.length > 0) return false;
        const lease = await this.leaseOne();
        if (!lease) return true;
        this.ready.push(lease);
        return false;
    }

    override async isFinished(): Promise<boolean> {
        if (this.halted) return this.held.size === 0;
        await this.settleForgottenFailures();
        if (this.held.size > 0 || this.failing.size > 0 || this.ready.length > 0 || this.offers.length > 0 || this.flushing > 0) return false;
        if (this.robots?.hasPendingWork) return false;
        const status = await this.refreshStatus();
        if (status.isFinished && status.finishReason === 'exhausted' && this.reserve.size > 0) {
            // The store ran dry with budget left: this worker's set-aside links are fetched rather than left unfetched.
            await this.promoteReserve(status, Infinity);
            return (await this.refreshStatus()).isFinished;
        }
        return status.isFinished;
    }

    /** Reads the store's counters, and with `withQueue` the queued scores too (not on every `isFinished` poll). */
    private async refreshStatus(withQueue = false): Promise<FrontierStatus> {
        const [status, queued] = await Promise.all([this.store.status(), withQueue ? this.store.queuedScores(QUEUED_SCORES_READ) : null]);
        this.lastStatus = status;
        if (queued) this.storeQueued = queued;
        this.noteBatch(status);
        return status;
    }

    override entryOf(request: Request): FetchedEntry | undefined {
        return this.held.get(request.id!)?.entry;
    }

    // ------------------------------------------------------------- finishing

    /**
     * Logs what the request's page taught the crawl, for the other workers' learners: the event goes into the crawl's
     * log with the page's commit, so it counts once, and not at all if another worker owns the page by then.
     */
    logEvent(request: Request, event: Record<string, unknown>): void {
        const held = this.held.get(request.id!) ?? this.failing.get(request.id!)?.held;
        // The URL as taken, and whether it was an exploration, are logged once, with the page's first event.
        if (!held) return;
        held.events.push(held.events.length > 0 ? event : { ...event, takenUrl: held.lease.url, ...(held.explored ? { explored: true as const } : {}) });
    }

    /** The fenced commit of a handled page, before it is delivered; idempotent. */
    override async settle(request: Request, item?: unknown): Promise<'ok' | 'stale'> {
        const held = this.held.get(request.id!);
        if (!held) return 'stale';
        if (held.settled) return held.settled;
        this.heartbeat.delete(held.lease);
        held.settled = await this.store.commit(held.lease, 'done', this.withSharedNotes(held.events), item);
        if (held.lost && held.settled === 'ok') held.settled = 'stale'; // cannot happen with a fenced store; never deliver a lost page
        // The page is owed under the lease's token until it is written: the heartbeat keeps that alive too.
        if (held.settled === 'ok' && item !== undefined) this.heartbeat.add(held.lease);
        return held.settled;
    }

    /** The page's item is in this worker's dataset (or its delivery was declined): the store owes it no more. */
    override async acknowledgeDelivery(request: Request): Promise<void> {
        const lease = this.owedLeaseOf(request);
        if (lease) await this.acknowledgeOwed(lease);
    }

    private owedLeaseOf(request: Request): LeaseRef | undefined {
        const held = this.held.get(request.id!);
        return held?.settled === 'ok' ? held.lease : undefined;
    }

    /**
     * Deliveries other workers owed and did not write before their deadline (killed between commit and write): this
     * worker owes them now. Write each, then {@link acknowledgeOwed}.
     */
    async claimOwedDeliveries(max: number): Promise<OwedDelivery[]> {
        const claimed = await this.store.claimDeliveries(max);
        for (const owed of claimed) this.heartbeat.add(owed);
        return claimed;
    }

    async acknowledgeOwed(ref: LeaseRef): Promise<void> {
        this.heartbeat.delete(ref);
        if ((await this.store.acknowledgeDelivery(ref)) === 'stale') {
            crawleeLog.warning(`crawlee-focus: the delivery of ${ref.key} was claimed by another worker before this one acknowledged it; it may be in two datasets.`);
        }
    }

    /** Deliveries owed in the whole crawl, as the store counts them now. */
    async owedDeliveries(): Promise<number> {
        return (await this.store.status()).owed;
    }

    override async markRequestHandled(request: Request): Promise<OperationInfo> {
        const id = request.id!;
        this.lastActivityAt = Date.now();
        const held = this.held.get(id);
        if (held) {
            this.held.delete(id);
            this.heartbeat.delete(held.lease);
            // Not settled by the page hook: Crawlee gave up on it (retries used up, or not retryable). Crawlee calls the
            // failed-request handler next, which logs the failure: the commit waits for it (see settleFailed).
            if (held.settled === null && request.errorMessages.length > 0) this.failing.set(id, { held, since: Date.now() });
            else if (held.settled === null) await this.store.commit(held.lease, 'done', this.withSharedNotes(held.events));
        }
        await this.settleForgottenFailures();
        const uniqueKey = held?.entry.uniqueKey ?? request.uniqueKey;
        const wasAlreadyHandled = this.handled.has(uniqueKey);
        this.handled.add(uniqueKey);
        this.known.add(uniqueKey);
        request.handledAt ??= new Date().toISOString();
        // Now and then, the crawl's counters (for the queue size, and the cap on what `queuedScores` yields).
        if (this.handled.size % STATUS_EVERY_PAGES === 0) void this.refreshStatus(true).catch(() => undefined);
        this.rescoreIfDue();
        return { requestId: id, uniqueKey, wasAlreadyPresent: true, wasAlreadyHandled, forefront: false } as OperationInfo;
    }

    /**
     * Commits a request that failed for good, with the failure the failed-request handler logged: `failed`, or
     * `dropped` (its charge back to the budget) when no attempt of it was ever sent.
     */
    async settleFailed(request: Request, sent: boolean): Promise<void> {
        const failing = this.failing.get(request.id!);
        if (!failing) return;
        this.failing.delete(request.id!);
        await this.store.commit(failing.held.lease, sent ? 'failed' : 'dropped', this.withSharedNotes(failing.held.events));
    }

    /** Failed requests whose failed-request handler never settled them (a crawler built without it): committed as failed. */
    private async settleForgottenFailures(now = Date.now()): Promise<void> {
        for (const [id, { held, since }] of this.failing) {
            if (now - since < FAILED_SETTLE_GRACE_MILLIS) continue;
            this.failing.delete(id);
            await this.store.commit(held.lease, 'failed', this.withSharedNotes(held.events));
        }
    }

    /** A retry goes back to the store (served before fresh URLs, by any worker), its charge kept. */
    override async reclaimRequest(request: Request, options: RequestQueueOperationOptions = {}): Promise<OperationInfo | null> {
        const id = request.id!;
        this.lastActivityAt = Date.now();
        const held = this.held.get(id);
        if (!held) return null;
        this.held.delete(id);
        this.heartbeat.delete(held.lease);
        if (held.settled !== null) return null; // committed already (the user's handler failed after the page hook)
        await this.store.retry(held.lease);
        return { requestId: id, uniqueKey: request.uniqueKey, wasAlreadyPresent: true, wasAlreadyHandled: false, forefront: !!options.forefront } as OperationInfo;
    }

    /** A `Retry-After` keeps the host idle for every worker; the store measures the wait on its own clock. */
    override backOffHost(url: string, untilMillis: number): void {
        super.backOffHost(url, untilMillis);
        void this.store.backOffHost(politenessHost(url), Math.max(0, untilMillis - Date.now())).catch((error: Error) =>
            crawleeLog.warning(`crawlee-focus: could not back off ${politenessHost(url)} in the shared frontier (${error.message}).`),
        );
    }

    /** Stops the whole crawl: every worker's next lease reports `reason` (the first reason given stands). */
    override stop(reason = 'cancelled'): void {
        super.stop(reason);
        this.stopReasonSeen ??= reason;
        void this.store.stop(reason).then(
            (inForce) => (this.stopReasonSeen = inForce),
            (error: Error) => crawleeLog.warning(`crawlee-focus: could not stop the shared crawl (${error.message}); other workers go on.`),
        );
    }

    // ------------------------------------------------------------ re-scoring

    /**
     * The link model, the term weights or the traps moved: the store's queue is re-scored, and this worker's set-aside
     * links compete again (see {@link rescoreIfDue}). Not the in-process re-score: its queue is empty here, and its
     * promotion offered the whole reserve to the store at every change (thousands of offers turned away per crawl).
     */
    override rescore(): void {
        if (!this.focus) return;
        this.rescoreWanted = true;
        this.rescoreIfDue();
    }

    /**
     * Re-scores the best queued URLs of the whole crawl under this worker's learners, which hold the crawl's model
     * (see `SharedLearning`): as the in-process queue does on every change, but at most once per
     * {@link RESCORE_EVERY_PAGES} pages handled here, and only the top {@link RESCORE_TOP} of each queue, since every
     * worker pays a round trip and the payloads' transfer for it. The recall estimate then reads the new scores.
     */
    private rescoreIfDue(): void {
        if (!this.rescoreWanted || this.rescoring || this.halted) return;
        if (this.rescoredAt >= 0 && this.handled.size - this.rescoredAt < RESCORE_EVERY_PAGES) return;
        this.rescoreWanted = false;
        this.rescoredAt = this.handled.size;
        this.rescoring = this.rescoreStore()
            .catch((error: Error) => crawleeLog.warning(`crawlee-focus: could not re-score the shared frontier (${error.message}); its scores stay as they were.`))
            .finally(() => (this.rescoring = null));
    }

    private async rescoreStore(): Promise<void> {
        const entries = await this.store.queuedEntries(RESCORE_TOP);
        const changed: Array<{ key: string; score: number }> = [];
        for (const { key, score, payload } of entries) {
            const now = this.ranking.rankOf(payload);
            if (Math.abs(now - score) > RESCORE_EPSILON * Math.max(1, score)) changed.push({ key, score: now });
        }
        if (changed.length > 0) await this.store.rescore(changed);
        await this.promoteReserve(await this.refreshStatus(true));
    }

    /**
     * Links this worker set aside for want of room compete again after a re-score, as in one process
     * (`promoteFromReserve`): those that fill the store's free room, and those that now outscore its worst queued link,
     * are offered again. The store keeps the better ones; what it turns away or pushes out comes back to the reserve.
     * Without this a shared crawl kept the links of its first, naive scores: 0.60 against one process's 0.91 on
     * openehr industry partners at 100 pages (`bench:focus --workers`).
     */
    private async promoteReserve(status: FrontierStatus, worstQueued = this.storeQueued.at(-1) ?? Infinity): Promise<void> {
        if (this.stopped || this.halted || this.reserve.size === 0) return;
        const free = Math.max(0, status.budget - status.charged - status.fresh);
        // Beyond the free room, each link that beats the worst queued one pushes one out: no more of them than are queued.
        const limit = Math.min(PROMOTE_MAX, free + status.fresh);
        let offered = 0;
        for (const { entry, score } of this.reserveRanked()) {
            // Best first: once a link neither fills free room nor beats the worst queued, none after it will.
            if (offered >= limit || (offered >= free && !(score > worstQueued))) break;
            this.reserve.delete(entry.uniqueKey);
            this.enqueue(entry, score);
            offered++;
        }
        this.refilledCount += await this.flushOffers();
    }

    /** Stops the heartbeat and closes the store's connection; the shared state stays in the store. */
    override async close(): Promise<void> {
        await this.rescoring;
        await this.settleForgottenFailures(Infinity);
        // A URL leased for a slot Crawlee never filled (it was stopping): given back now, so that the other workers
        // need not wait for the lease to expire. It keeps its charge and is served first.
        for (const lease of this.ready.splice(0)) await this.store.retry(lease).catch(() => undefined);
        this.heartbeat.stop();
        await this.store.close();
    }

    /** The store's counters and queued scores, read now. */
    sharedStatus(): Promise<FrontierStatus> {
        return this.refreshStatus(true);
    }

    // --------------------------------------------------------------- stalls

    /** Only this worker's leases can stall here: a dead worker's come back when they expire. */
    override stallState(now = Date.now()): StallState {
        return { pending: !this.halted && this.held.size > 0, idleMillis: now - this.lastActivityAt };
    }

    /** Nothing to reclaim in process: a stuck lease expires in the store and is handed out again. */
    override reclaimStalled(): number {
        return 0;
    }

    override get finishReason(): 'stalled' | 'cancelled' | 'limit_reached' | 'exhausted' | null {
        if (this.halted) return 'stalled';
        const status = this.lastStatus;
        if (this.held.size > 0 || !status?.isFinished) return null;
        return status.finishReason === 'stopped' ? 'cancelled' : status.finishReason;
    }

    // --------------------------------------------------------------- reports

    /** Pages this worker took (the crawl's budget is charged in the store; see {@link crawlPagesFetched}). */
    override get pagesScheduled(): number {
        return this.taken;
    }

    /** Pages the whole crawl has charged to its budget, as last read from the store. */
    get crawlPagesFetched(): number {
        return Math.max(this.lastStatus?.charged ?? 0, this.taken);
    }

    override get inFlightCount(): number {
        return this.held.size;
    }

    /** The crawl's queued links, as last read from the store (every {@link STATUS_EVERY_PAGES} pages). */
    override queuedScores(): Iterable<number> {
        return this.storeQueued;
    }

    override frontierSize(): number {
        return this.lastStatus?.queued ?? 0;
    }

    override getTotalCount(): number {
        return this.handled.size + this.held.size + this.frontierSize();
    }

    override getPendingCount(): number {
        return this.held.size + this.frontierSize();
    }
}

