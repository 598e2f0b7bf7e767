import type { CrawlIdentity, CrawlIdentityMismatchError } from './crawl-identity.js';

/**
 * The frontier and crawl state that every worker of one crawl shares: queued URLs with their scores, the dedup set,
 * the page budget, per-host politeness, leases of the URLs being fetched, and the stop decision.
 *
 * Pure types and checks only. Implementations: {@link MemoryFrontierStore} (one process) and `RedisFrontierStore`
 * in `src/redis` (many processes on many machines). Both pass one contract suite (test/frontier/frontier-store.contract.ts).
 *
 * A URL moves through these states, and never backwards past `leased`:
 * ```
 *   enqueue ──► queued ──lease──► leased ──commit──► done | failed
 *                 │ ▲                │ ▲                 │
 *          evicted│ └──retry/reclaim─┘ └─extend          └─(with an item) owed ──acknowledge──► delivered
 *                 ▼                       (heartbeat)                      ▲  │
 *             forgotten (may be enqueued again)                     claim └──┘ (its deliverer's deadline passed)
 * ```
 * A URL is charged to the page budget when it is first leased; a URL queued again after a retry or an expired lease
 * keeps its charge, so the distinct URLs charged never exceed the budget whatever workers die.
 *
 * A page committed `done` with its dataset item is owed until its worker acknowledges that the item is written. A
 * worker killed between the two leaves the item in the store, and another worker claims and delivers it once the
 * deadline passed: a page is never done and delivered nowhere.
 */

/** A URL offered to the frontier. */
export interface FrontierOffer<P = unknown> {
    /** Dedup key: one page, one key, whatever the spelling (`dedupKey(url)`). */
    key: string;
    url: string;
    /** Politeness key: in-flight limits and delays apply per host (`hostOf(url)`). */
    host: string;
    depth: number;
    /** Priority, higher first. Negative, NaN and infinite scores are clamped like the best-first queue's ({@link clampScore}). */
    score: number;
    /** What the caller needs back when the URL is leased (signal, parent, user data). Must survive `JSON.stringify`. */
    payload: P;
}

/** What {@link FrontierStore.enqueue} did with one offer. */
export type EnqueueOutcome =
    /** A new URL, now queued. */
    | 'queued'
    /** Already queued with a lower score: the score and payload were replaced by this offer's. */
    | 'rescored'
    /** Known already (queued at least as high, leased, done or failed); nothing changed. */
    | 'duplicate'
    /** A new URL, but the frontier is full and every queued URL scores at least as high; not stored. */
    | 'rejected';

export interface EnqueueResult<P = unknown> {
    /** One outcome per offer, in order. */
    outcomes: EnqueueOutcome[];
    /** URLs pushed out of the full frontier to make room; they are forgotten, so they may be offered again later. */
    evicted: Array<FrontierOffer<P>>;
}

/** A URL handed to one worker until its deadline. */
export interface FrontierLease<P = unknown> extends FrontierOffer<P> {
    /** Fence token, unique across the crawl; only the holder of the current token may extend, commit or retry. */
    token: number;
    /** Failed attempts so far (see {@link FrontierStore.retry}). */
    attempts: number;
    /** When the lease expires, in the store's clock (ms since the epoch); extend it before then. */
    deadline: number;
}

/** Enough of a lease to prove who holds it. */
export type LeaseRef = Pick<FrontierLease, 'key' | 'token'>;

/** Why {@link FrontierStore.lease} returned no (more) URLs. */
export type LeaseStatus =
    /** At least one URL was leased. */
    | 'leased'
    /** URLs are queued, but their hosts are at their in-flight limit or must wait; ask again after `waitMillis`. */
    | 'busy'
    /** Nothing may be handed out now, but leases are out: their pages may still queue links, or be retried. */
    | 'empty'
    /** Nothing queued that may be handed out and nothing leased: the crawl is over. */
    | 'finished';

export interface LeaseBatch<P = unknown> {
    leases: Array<FrontierLease<P>>;
    status: LeaseStatus;
    /** With `busy`: when the earliest waiting host may be asked again, if a delay (not an in-flight limit) holds it. */
    waitMillis: number | null;
    /** The crawl's stop reason, once any worker has stopped it; every worker sees the same one. */
    stopReason: string | null;
}

/**
 * How a lease ended: the page was fetched (`done`), failed for good (`failed`), or was not fetched after all
 * (`dropped`: found, once leased, to be another spelling of a known page). A dropped URL stays known, and its charge
 * goes back to the budget if this was its first lease (an earlier holder may have fetched it).
 */
export type CommitOutcome = 'done' | 'failed' | 'dropped';

/**
 * One entry of the crawl's event log: what one handled page taught the crawl (its text statistics, relevance,
 * failure), appended by the fenced {@link FrontierStore.commit} of its lease, so each page is logged exactly once.
 * Every worker replays the log into its own learners, so all of them learn from every page of the crawl.
 */
export interface LoggedEvent {
    /** Position in the log; pass the last one read to {@link FrontierStore.readEvents} for what follows. */
    id: string;
    /** The event as committed (any JSON value). */
    event: unknown;
}

/** Reads the log from its start. */
export const LOG_START = '0';

/** A page committed `done` with the dataset item it is delivered as, owed until its deliverer acknowledges it. */
export interface OwedDelivery {
    key: string;
    /** The fence of the worker that owes it now: the committed lease's token, or a new one after a claim. */
    token: number;
    /** The item, as committed (any JSON value). */
    item: unknown;
}

/** `stale`: the lease was reclaimed and handed out again (or already committed); nothing changed. */
export type CommitResult = 'ok' | 'stale';

/** `queued`: back in the queue for another attempt; `failed`: it had used its last attempt. */
export type RetryResult = 'queued' | 'failed' | 'stale';

/** Why a crawl ended; `null` while it has not. */
export type FinishReason = 'stopped' | 'limit_reached' | 'exhausted';

/** Counters of one crawl, the same for every worker that reads them. */
export interface FrontierCounters {
    /** Distinct URLs charged to the budget (leased at least once). */
    charged: number;
    done: number;
    failed: number;
    /** Offers of known URLs that changed nothing. */
    duplicates: number;
    /** Offers that raised a queued URL's score. */
    rescored: number;
    /** New URLs not stored because the frontier was full. */
    rejected: number;
    /** Queued URLs pushed out by better ones. */
    evicted: number;
    /** Expired leases taken back and queued again (their pages may be fetched twice). */
    reclaimed: number;
    /** Retries queued by {@link FrontierStore.retry}. */
    retried: number;
    /** Commits and retries from a worker whose lease had been reclaimed: pages that were fetched twice. */
    stale: number;
    /** Leases ended without a fetch (`commit(…, 'dropped')`). */
    dropped: number;
    /** Owed deliveries claimed by another worker after their deliverer's deadline passed (it died after its commit). */
    redelivered: number;
}

export interface FrontierStatus extends FrontierCounters {
    /** URLs waiting to be leased: `fresh` (never leased) plus `requeued` (charged: retried or reclaimed). */
    queued: number;
    fresh: number;
    requeued: number;
    leased: number;
    /** Pages committed with an item whose delivery is not acknowledged yet ({@link OwedDelivery}). */
    owed: number;
    /** The page budget, `Infinity` without one. */
    budget: number;
    stopReason: string | null;
    /** Nothing queued that may be handed out (leases may still be out). */
    isEmpty: boolean;
    /** Empty, and no lease out: no URL is left to fetch. Owed deliveries may still be out ({@link owed}). */
    isFinished: boolean;
    finishReason: FinishReason | null;
}

export interface FrontierStoreOptions {
    /**
     * Pages to fetch at most: distinct URLs charged when first leased. Retries and reclaimed leases are free.
     * @default Infinity
     */
    maxPages?: number;
    /**
     * URLs never leased that the frontier holds at most; beyond it the worst is evicted for a better one. The room is
     * also bounded by the budget left (`maxPages - charged`), as the in-process queue is.
     * @default 100_000
     */
    maxQueued?: number;
    /** How long a lease lasts without a heartbeat ({@link FrontierStore.extend}), in ms. @default 60_000 */
    leaseMillis?: number;
    /** Leases out per host at most, across all workers. @default 4 */
    maxInFlightPerHost?: number;
    /**
     * Leases out at most for a host none of whose leases has ended done or failed yet: a host that is down, or missing
     * from a capture, then fails one page of the budget before every worker knows it, not a burst. @default 1
     */
    maxInFlightPerNewHost?: number;
    /** Minimum time between two leases of the same host, in ms; `setHostDelay` raises it per host. @default 0 */
    minDelayPerHostMillis?: number;
    /** Fetch attempts of a URL at most; the retry after the last one marks it failed. @default 3 */
    maxAttempts?: number;
}

export type ResolvedFrontierStoreOptions = Required<FrontierStoreOptions>;

export const DEFAULT_FRONTIER_STORE_OPTIONS: ResolvedFrontierStoreOptions = Object.freeze({
    maxPages: Infinity,
    maxQueued: 100_000,
    leaseMillis: 60_000,
    maxInFlightPerHost: 4,
    maxInFlightPerNewHost: 1,
    minDelayPerHostMillis: 0,
    maxAttempts: 3,
});

/** Checks the options once, at the boundary, and fills in the defaults. */
export function resolveFrontierStoreOptions(options: FrontierStoreOptions = {}): ResolvedFrontierStoreOptions {
    const resolved = { ...DEFAULT_FRONTIER_STORE_OPTIONS };
    // Only the known options: every worker's resolved options are compared, so strays must not creep in.
    for (const name of Object.keys(DEFAULT_FRONTIER_STORE_OPTIONS) as Array<keyof FrontierStoreOptions>) {
        const value = options[name];
        if (value !== undefined) resolved[name] = value;
    }
    const positive: Array<keyof FrontierStoreOptions> = ['leaseMillis', 'maxInFlightPerHost', 'maxInFlightPerNewHost', 'maxAttempts'];
    for (const name of positive) {
        if (!(resolved[name] >= 1) || !Number.isInteger(resolved[name])) throw new RangeError(`${name} must be an integer ≥ 1, got ${resolved[name]}`);
    }
    for (const name of ['maxPages', 'maxQueued', 'minDelayPerHostMillis'] as const) {
        const value = resolved[name];
        if (!(value >= 0) || (value !== Infinity && !Number.isInteger(value))) throw new RangeError(`${name} must be an integer ≥ 0 or Infinity, got ${value}`);
    }
    if (resolved.minDelayPerHostMillis === Infinity) throw new RangeError('minDelayPerHostMillis must be finite');
    return resolved;
}

/** Scores are non-negative and finite, as in the best-first queue: NaN counts as 0, infinity as the largest number. */
export function clampScore(score: number): number {
    return score > 0 ? Math.min(score, Number.MAX_VALUE) : 0;
}

/**
 * The shared frontier. Every method is atomic: concurrent calls from any number of workers leave the store as some
 * serial order of them would. Times are the store's own clock (the Redis server's `TIME`), never the caller's.
 */
export interface FrontierStore<P = unknown> {
    /** The options in force (the same for every worker of a crawl). */
    readonly options: ResolvedFrontierStoreOptions;

    /**
     * Joins the crawl: the first worker records its identity, a later one must bring the same, or it is refused
     * with a {@link CrawlIdentityMismatchError} that says what differs.
     */
    claimIdentity(identity: CrawlIdentity): Promise<void>;

    /**
     * Offers URLs. A new URL is queued if there is room, evicting the worst queued one if it scores better; a URL
     * still queued is re-scored when the new score is higher; a URL leased, done or failed is never queued again.
     */
    enqueue(offers: ReadonlyArray<FrontierOffer<P>>): Promise<EnqueueResult<P>>;

    /**
     * Leases up to `max` URLs to `workerId`, best first: retries and reclaimed URLs before fresh ones. Honours each
     * host's in-flight limit and next allowed time, charges fresh URLs to the budget (never beyond it), and takes
     * back expired leases first. After a stop, only URLs already charged are handed out.
     *
     * Fresh URLs named in `prefer` go before the other fresh ones (still after requeued ones), if they are still fresh
     * and their host is free: the caller's own pick, such as a link into a section the crawl has not explored.
     */
    lease(workerId: string, max: number, prefer?: ReadonlyArray<string>): Promise<LeaseBatch<P>>;

    /**
     * Heartbeat: pushes each lease's deadline to now + `leaseMillis`, in one step for all of a worker's leases, and
     * the deadline of each delivery it owes under the same token. Returns the new deadlines, `null` for a lease that
     * was lost (reclaimed and handed out again, or committed without an item) or a delivery claimed by another worker.
     */
    extend(leases: ReadonlyArray<LeaseRef>): Promise<Array<number | null>>;

    /**
     * Ends a lease with its outcome, and appends `events` (JSON values) to the crawl's event log in the same step.
     * Counts once per URL: a fenced-out worker gets `stale`, changes nothing and logs nothing.
     *
     * With `item` (a `done` page to deliver), the page is also owed under the lease's token until
     * {@link acknowledgeDelivery}, with a deadline of now + `leaseMillis` that the heartbeat extends.
     */
    commit(lease: LeaseRef, outcome: CommitOutcome, events?: ReadonlyArray<unknown>, item?: unknown): Promise<CommitResult>;

    /**
     * Appends `events` to the crawl's event log while the lease is held, without ending it: what a worker starts on (an
     * exploration pick) is known to every worker before the page is done. `stale` if the lease is no longer the
     * caller's; nothing is logged then.
     */
    announce(lease: LeaseRef, events: ReadonlyArray<unknown>): Promise<CommitResult>;

    /** The owed page's item is written: it is owed no more. `stale` if another worker claimed it meanwhile. */
    acknowledgeDelivery(ref: LeaseRef): Promise<CommitResult>;

    /**
     * Up to `max` owed deliveries whose deadline passed (their worker died between its commit and its write): each is
     * owed by the caller now, under a new token and deadline, to write and then {@link acknowledgeDelivery}.
     */
    claimDeliveries(max: number): Promise<OwedDelivery[]>;

    /** Up to `max` events logged after the one with id `after` ({@link LOG_START} for all), oldest first. */
    readEvents(after: string, max: number): Promise<LoggedEvent[]>;

    /** The scores of the URLs waiting to be leased (fresh and requeued), best first, at most `max` of them. */
    queuedScores(max: number): Promise<number[]>;

    /**
     * The best `max` URLs of each queue (requeued, then fresh), with their scores and payloads: for re-scoring them
     * with {@link rescore} when the link model moves.
     */
    queuedEntries(max: number): Promise<Array<FrontierOffer<P>>>;

    /**
     * Records the crawl's final report (any JSON value) unless one is recorded already, and returns the one in force:
     * the first worker to finish writes it, and every worker reports that one.
     */
    publishReport(report: unknown): Promise<unknown>;

    /** The report {@link publishReport} recorded, or `null` while the crawl runs. */
    publishedReport(): Promise<unknown>;

    /** Gives a lease back for another attempt (attempts + 1), or marks the URL failed after `maxAttempts`. */
    retry(lease: LeaseRef): Promise<RetryResult>;

    /** Takes back leases past their deadline (a worker died or stalled); `lease` does it too. Returns how many. */
    reclaimExpired(): Promise<number>;

    /** Keeps a host idle for `delayMillis` from now, or longer if it already waits (`Retry-After`, a 429 or 503). */
    backOffHost(host: string, delayMillis: number): Promise<void>;

    /** Sets a host's own minimum delay between leases (robots.txt `Crawl-delay`); the larger of it and the default applies. */
    setHostDelay(host: string, delayMillis: number): Promise<void>;

    /** Re-scores queued URLs up or down (the link model moved, a template was demoted). Unknown or leased keys are ignored. */
    rescore(scores: ReadonlyArray<{ key: string; score: number }>): Promise<number>;

    /** Stops the crawl for every worker. The first reason wins; returns the reason in force. */
    stop(reason: string): Promise<string>;

    status(): Promise<FrontierStatus>;

    /** Releases the store's resources (a connection); the shared state stays. */
    close(): Promise<void>;
}

/** Builds the status's derived fields from counts. Shared so both stores derive them the same way. */
export function deriveStatus(
    counts: FrontierCounters & { fresh: number; requeued: number; leased: number; owed: number; stopReason: string | null },
    budget: number,
): FrontierStatus {
    const budgetSpent = counts.charged >= budget;
    const freshClosed = counts.stopReason !== null || budgetSpent;
    const isEmpty = counts.requeued === 0 && (counts.fresh === 0 || freshClosed);
    const isFinished = isEmpty && counts.leased === 0;
    const finishReason: FinishReason | null = !isFinished ? null : counts.stopReason !== null ? 'stopped' : budgetSpent ? 'limit_reached' : 'exhausted';
    return { ...counts, queued: counts.fresh + counts.requeued, budget, isEmpty, isFinished, finishReason };
}

export const ZERO_COUNTERS: Readonly<FrontierCounters> = Object.freeze({
    charged: 0,
    done: 0,
    failed: 0,
    duplicates: 0,
    rescored: 0,
    rejected: 0,
    evicted: 0,
    reclaimed: 0,
    retried: 0,
    stale: 0,
    dropped: 0,
    redelivered: 0,
});
