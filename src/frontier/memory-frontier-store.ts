import { BestFirstQueue } from './best-first-queue.js';
import type { BestFirstQueueJSON, QueueItem } from './best-first-queue.js';
import { assertSameCrawl, normalizeIdentity } from './crawl-identity.js';
import { HostSchedule } from './host-schedule.js';
import type { CrawlIdentity } from './crawl-identity.js';
import { ZERO_COUNTERS, clampScore, deriveStatus, resolveFrontierStoreOptions } from './frontier-store.js';
import type {
    CommitOutcome,
    CommitResult,
    EnqueueOutcome,
    EnqueueResult,
    FrontierCounters,
    FrontierLease,
    FrontierOffer,
    FrontierStatus,
    FrontierStore,
    FrontierStoreOptions,
    LeaseBatch,
    LeaseRef,
    LoggedEvent,
    OwedDelivery,
    ResolvedFrontierStoreOptions,
    RetryResult,
} from './frontier-store.js';

export interface MemoryFrontierStoreOptions extends FrontierStoreOptions {
    /** Named in identity errors. @default 'in-process' */
    crawlId?: string;
    /** The clock leases and host delays run on, in ms. @default Date.now */
    now?: () => number;
}

export type UrlState = 'fresh' | 'requeued' | 'leased' | 'done' | 'failed' | 'dropped';

/**
 * A snapshot of {@link InProcessFrontier} (`toJSON`), for a crawl that must survive its process. Plain JSON. Leases
 * out at the snapshot are saved as `leased`: their holders die with the process, so a restored frontier queues them
 * again, charged, as it does a lease that expired.
 */
export interface InProcessFrontierJSON<P = unknown> {
    version: 1;
    crawlId: string;
    states: Array<[key: string, state: UrlState]>;
    fresh: BestFirstQueueJSON<FrontierOffer<P>>;
    requeued: BestFirstQueueJSON<FrontierOffer<P>>;
    leased: Array<{ offer: FrontierOffer<P>; score: number }>;
    attempts: Array<[key: string, attempts: number]>;
    answeredHosts: string[];
    hostDelay: Array<[host: string, delayMillis: number]>;
    leasedAgain: string[];
    /** Items committed and not yet acknowledged: claimable at once after a restore. */
    owed: Array<[key: string, item: unknown]>;
    events: unknown[];
    report: unknown;
    counters: FrontierCounters;
    lastToken: number;
    stopReason: string | null;
    identity: CrawlIdentity | null;
}

interface HeldLease<P> {
    offer: FrontierOffer<P>;
    score: number;
    token: number;
    workerId: string;
    deadline: number;
}

/**
 * The frontier store of one process, synchronous: the request manager can call it directly, and
 * {@link MemoryFrontierStore} puts the shared asynchronous interface in front of it.
 *
 * Fresh and requeued URLs wait in two {@link BestFirstQueue}s: requeued ones are charged already, so they are never
 * evicted and are served first. Ties in score go by discovery order (the Redis store breaks them by key instead).
 * Payloads are kept by reference: treat them as immutable once offered.
 */
export class InProcessFrontier<P = unknown> {
    readonly options: ResolvedFrontierStoreOptions;
    readonly crawlId: string;
    private readonly now: () => number;
    private readonly states = new Map<string, UrlState>();
    private fresh = new BestFirstQueue<FrontierOffer<P>>();
    private requeued = new BestFirstQueue<FrontierOffer<P>>();
    private readonly leases = new Map<string, HeldLease<P>>();
    /** Failed attempts of URLs not yet done or failed. */
    private readonly attempts = new Map<string, number>();
    private readonly hosts: HostSchedule;
    private readonly hostDelay = new Map<string, number>();
    /** URLs queued again after a lease (a retry, a reclaim): a later holder may not give their charge back. */
    private readonly leasedAgain = new Set<string>();
    /** Pages committed with an item, by key, until their delivery is acknowledged. */
    private readonly owed = new Map<string, { token: number; item: unknown; deadline: number }>();
    /** The event log; an event's id is its position, from 1. */
    private events: unknown[] = [];
    private report: unknown = null;
    private counters: FrontierCounters = { ...ZERO_COUNTERS };
    private lastToken = 0;
    private stopReason: string | null = null;
    private identity: CrawlIdentity | null = null;

    constructor(options: MemoryFrontierStoreOptions = {}) {
        const { crawlId, now, ...storeOptions } = options;
        this.options = resolveFrontierStoreOptions(storeOptions);
        this.crawlId = crawlId ?? 'in-process';
        this.now = now ?? Date.now;
        this.hosts = new HostSchedule(this.options.maxInFlightPerHost, this.options.maxInFlightPerNewHost);
    }

    /**
     * The whole frontier as plain JSON. Host back-offs and delays in progress are not kept (they run on a clock that
     * restarts with the process); `Crawl-delay`s given by `setHostDelay` are.
     */
    toJSON(): InProcessFrontierJSON<P> {
        return copyJson({
            version: 1 as const,
            crawlId: this.crawlId,
            states: [...this.states],
            fresh: this.fresh.toJSON(),
            requeued: this.requeued.toJSON(),
            leased: [...this.leases.values()].map(({ offer, score }) => ({ offer, score })),
            attempts: [...this.attempts],
            answeredHosts: this.hosts.answeredHosts(),
            hostDelay: [...this.hostDelay],
            leasedAgain: [...this.leasedAgain],
            owed: [...this.owed].map(([key, { item }]): [string, unknown] => [key, item]),
            events: this.events,
            report: this.report,
            counters: this.counters,
            lastToken: this.lastToken,
            stopReason: this.stopReason,
            identity: this.identity,
        });
    }

    /**
     * Restores a frontier saved with {@link toJSON}, under the given options (the crawl identity, if one was claimed,
     * refuses a worker of another crawl as before). Its leases come back queued, charged, served first; deliveries it
     * owed are claimable at once; lease tokens keep counting up, so a lease of the old process stays fenced out.
     */
    static fromJSON<P>(json: InProcessFrontierJSON<P>, options: MemoryFrontierStoreOptions = {}): InProcessFrontier<P> {
        if (json?.version !== 1) throw new TypeError('Unknown frontier snapshot (expected version 1); start the crawl afresh.');
        const frontier = new InProcessFrontier<P>({ crawlId: json.crawlId, ...options });
        for (const [key, state] of json.states) frontier.states.set(key, state);
        frontier.fresh = BestFirstQueue.fromJSON(json.fresh);
        frontier.requeued = BestFirstQueue.fromJSON(json.requeued);
        for (const [key, attempts] of json.attempts) frontier.attempts.set(key, attempts);
        for (const host of json.answeredHosts) frontier.hosts.answered(host);
        for (const [host, delay] of json.hostDelay) frontier.hostDelay.set(host, delay);
        for (const key of json.leasedAgain) frontier.leasedAgain.add(key);
        for (const [key, item] of json.owed) frontier.owed.set(key, { token: 0, item, deadline: 0 });
        frontier.events = json.events;
        frontier.report = json.report;
        frontier.counters = { ...ZERO_COUNTERS, ...json.counters };
        frontier.lastToken = json.lastToken;
        frontier.stopReason = json.stopReason;
        frontier.identity = json.identity;
        for (const { offer, score } of json.leased) frontier.requeue({ offer, score, token: 0, workerId: '', deadline: 0 });
        frontier.counters.reclaimed += json.leased.length;
        return frontier;
    }

    claimIdentity(identity: CrawlIdentity): void {
        if (this.identity) assertSameCrawl(this.crawlId, this.identity, identity);
        else this.identity = normalizeIdentity(identity);
    }

    enqueue(offers: ReadonlyArray<FrontierOffer<P>>): EnqueueResult<P> {
        const outcomes: EnqueueOutcome[] = [];
        const evicted: Array<FrontierOffer<P>> = [];
        for (const raw of offers) {
            const offer = { ...raw, score: clampScore(raw.score) };
            const outcome = this.offerOne(offer, evicted);
            if (outcome === 'duplicate') this.counters.duplicates++;
            else if (outcome === 'rescored') this.counters.rescored++;
            else if (outcome === 'rejected') this.counters.rejected++;
            outcomes.push(outcome);
        }
        return { outcomes, evicted };
    }

    private offerOne(offer: FrontierOffer<P>, evicted: Array<FrontierOffer<P>>): EnqueueOutcome {
        const state = this.states.get(offer.key);
        if (state === 'fresh' || state === 'requeued') {
            const queue = state === 'fresh' ? this.fresh : this.requeued;
            if (!(offer.score > queue.scoreOf(offer.key)!)) return 'duplicate';
            queue.offer(offer.key, offer.url, offer.depth, offer.score, offer, Infinity);
            return 'rescored';
        }
        if (state !== undefined) return 'duplicate'; // leased, done or failed: never resurrected
        const result = this.fresh.offer(offer.key, offer.url, offer.depth, offer.score, offer, this.room());
        if (result.kind === 'rejected') return 'rejected';
        if (result.kind === 'evicted') {
            this.states.delete(result.key);
            this.counters.evicted++;
            evicted.push(result.signal as FrontierOffer<P>);
        }
        this.states.set(offer.key, 'fresh');
        return 'queued';
    }

    /** Fresh URLs the frontier may hold now: its bound, and no more than the budget left could fetch. */
    private room(): number {
        return Math.max(0, Math.min(this.options.maxQueued, this.options.maxPages - this.counters.charged));
    }

    lease(workerId: string, max: number, prefer: ReadonlyArray<string> = []): LeaseBatch<P> {
        if (!(max >= 1)) throw new RangeError(`lease() needs max ≥ 1, got ${max}`);
        const now = this.now();
        this.reclaimExpired(now);
        const leases: Array<FrontierLease<P>> = [];
        let earliestWait = Infinity;
        const hostIsFree = (item: QueueItem<FrontierOffer<P>>): boolean => {
            const host = item.signal.host;
            if (this.hosts.isFull(host)) return false;
            const next = this.hosts.allowedAt(host);
            if (next > now) {
                earliestWait = Math.min(earliestWait, next);
                return false;
            }
            return true;
        };
        while (leases.length < max) {
            const item = this.requeued.popBest(hostIsFree);
            if (!item) break;
            leases.push(this.handOut(item, workerId, now));
        }
        for (const key of prefer) {
            if (leases.length >= max || !this.freshIsOpen()) break;
            const item = this.fresh.contains(key) ? this.fresh.popBest((candidate) => candidate.key === key && hostIsFree(candidate)) : undefined;
            if (!item) continue;
            this.counters.charged++;
            leases.push(this.handOut(item, workerId, now));
        }
        while (leases.length < max && this.freshIsOpen()) {
            const item = this.fresh.popBest(hostIsFree);
            if (!item) break;
            this.counters.charged++; // charged once, here, in the step that hands it out
            leases.push(this.handOut(item, workerId, now));
        }
        const status = this.statusNow();
        const hasWork = status.requeued > 0 || (status.fresh > 0 && this.freshIsOpen());
        return {
            leases,
            status: leases.length > 0 ? 'leased' : hasWork ? 'busy' : status.leased > 0 ? 'empty' : 'finished',
            waitMillis: leases.length === 0 && hasWork && earliestWait < Infinity ? earliestWait - now : null,
            stopReason: this.stopReason,
        };
    }

    private freshIsOpen(): boolean {
        return this.stopReason === null && this.counters.charged < this.options.maxPages;
    }

    private handOut(item: QueueItem<FrontierOffer<P>>, workerId: string, now: number): FrontierLease<P> {
        const offer = item.signal;
        const token = ++this.lastToken;
        const deadline = now + this.options.leaseMillis;
        this.states.set(offer.key, 'leased');
        this.leases.set(offer.key, { offer, score: item.score, token, workerId, deadline });
        this.hosts.start(offer.host, now, Math.max(this.options.minDelayPerHostMillis, this.hostDelay.get(offer.host) ?? 0));
        return { ...offer, score: item.score, token, attempts: this.attempts.get(offer.key) ?? 0, deadline };
    }

    extend(refs: ReadonlyArray<LeaseRef>): Array<number | null> {
        const deadline = this.now() + this.options.leaseMillis;
        return refs.map((ref) => {
            const held = this.heldBy(ref) ?? this.owedBy(ref);
            if (!held) return null;
            held.deadline = deadline;
            return deadline;
        });
    }

    commit(ref: LeaseRef, outcome: CommitOutcome, events: ReadonlyArray<unknown> = [], item?: unknown): CommitResult {
        const held = this.heldBy(ref);
        if (!held) {
            this.counters.stale++;
            return 'stale';
        }
        this.release(held);
        if (outcome !== 'dropped') this.hosts.answered(held.offer.host);
        this.finish(ref.key, outcome);
        this.log(events);
        if (outcome === 'done' && item !== undefined) this.owed.set(ref.key, { token: ref.token, item: copyJson(item), deadline: this.now() + this.options.leaseMillis });
        return 'ok';
    }

    announce(ref: LeaseRef, events: ReadonlyArray<unknown>): CommitResult {
        if (!this.heldBy(ref)) return 'stale';
        this.log(events);
        return 'ok';
    }

    /** Copied through JSON, as the Redis store stores them: a replayed event never aliases its logger's objects. */
    private log(events: ReadonlyArray<unknown>): void {
        for (const event of events) this.events.push(copyJson(event));
    }

    acknowledgeDelivery(ref: LeaseRef): CommitResult {
        if (!this.owedBy(ref)) return 'stale';
        this.owed.delete(ref.key);
        return 'ok';
    }

    claimDeliveries(max: number): OwedDelivery[] {
        const now = this.now();
        const claimed: OwedDelivery[] = [];
        for (const [key, owed] of this.owed) {
            if (claimed.length >= max) break;
            if (owed.deadline > now) continue;
            owed.token = ++this.lastToken;
            owed.deadline = now + this.options.leaseMillis;
            claimed.push({ key, token: owed.token, item: copyJson(owed.item) });
        }
        this.counters.redelivered += claimed.length;
        return claimed;
    }

    readEvents(after: string, max: number): LoggedEvent[] {
        const start = Number(after);
        if (!Number.isInteger(start) || start < 0) throw new TypeError(`readEvents() takes an id it returned (or LOG_START), got ${JSON.stringify(after)}`);
        return this.events.slice(start, start + max).map((event, i) => ({ id: String(start + i + 1), event }));
    }

    queuedScores(max: number): number[] {
        const scores = [...this.requeued, ...this.fresh].map((item) => item.score);
        return scores.sort((a, b) => b - a).slice(0, max);
    }

    queuedEntries(max: number): Array<FrontierOffer<P>> {
        const best = (queue: BestFirstQueue<FrontierOffer<P>>) => [...queue].sort((a, b) => b.score - a.score).slice(0, max).map((item) => ({ ...item.signal, score: item.score }));
        return [...best(this.requeued), ...best(this.fresh)];
    }

    publishReport(report: unknown): unknown {
        this.report ??= report;
        return this.report;
    }

    publishedReport(): unknown {
        return this.report;
    }

    retry(ref: LeaseRef): RetryResult {
        const held = this.heldBy(ref);
        if (!held) {
            this.counters.stale++;
            return 'stale';
        }
        this.release(held);
        const attempts = (this.attempts.get(ref.key) ?? 0) + 1;
        if (attempts >= this.options.maxAttempts) {
            this.hosts.answered(held.offer.host);
            this.finish(ref.key, 'failed');
            return 'failed';
        }
        this.attempts.set(ref.key, attempts);
        this.requeue(held);
        this.counters.retried++;
        return 'queued';
    }

    reclaimExpired(now = this.now()): number {
        let reclaimed = 0;
        for (const held of [...this.leases.values()]) {
            if (held.deadline > now) continue;
            this.release(held);
            this.requeue(held);
            reclaimed++;
        }
        this.counters.reclaimed += reclaimed;
        return reclaimed;
    }

    backOffHost(host: string, delayMillis: number): void {
        this.hosts.holdUntil(host, this.now() + Math.max(0, delayMillis));
    }

    setHostDelay(host: string, delayMillis: number): void {
        if (delayMillis > 0) this.hostDelay.set(host, delayMillis);
        else this.hostDelay.delete(host);
    }

    rescore(scores: ReadonlyArray<{ key: string; score: number }>): number {
        let changed = 0;
        for (const { key, score } of scores) {
            const state = this.states.get(key);
            const queue = state === 'fresh' ? this.fresh : state === 'requeued' ? this.requeued : null;
            if (queue?.setScore(key, score)) changed++;
        }
        return changed;
    }

    stop(reason: string): string {
        this.stopReason ??= reason;
        return this.stopReason;
    }

    status(): FrontierStatus {
        return this.statusNow();
    }

    private statusNow(): FrontierStatus {
        return deriveStatus(
            { ...this.counters, fresh: this.fresh.size, requeued: this.requeued.size, leased: this.leases.size, owed: this.owed.size, stopReason: this.stopReason },
            this.options.maxPages,
        );
    }

    private heldBy(ref: LeaseRef): HeldLease<P> | undefined {
        const held = this.leases.get(ref.key);
        return held && held.token === ref.token ? held : undefined;
    }

    private owedBy(ref: LeaseRef): { token: number; item: unknown; deadline: number } | undefined {
        const owed = this.owed.get(ref.key);
        return owed && owed.token === ref.token ? owed : undefined;
    }

    private release(held: HeldLease<P>): void {
        this.leases.delete(held.offer.key);
        this.hosts.finish(held.offer.host);
    }

    /** Back in the queue with its charge: served before fresh URLs, never evicted. */
    private requeue(held: HeldLease<P>): void {
        const { offer } = held;
        this.leasedAgain.add(offer.key);
        this.requeued.offer(offer.key, offer.url, offer.depth, held.score, offer, Infinity);
        this.states.set(offer.key, 'requeued');
    }

    private finish(key: string, outcome: CommitOutcome): void {
        if (outcome === 'dropped' && !this.leasedAgain.has(key)) this.counters.charged--;
        this.leasedAgain.delete(key);
        this.states.set(key, outcome);
        this.attempts.delete(key);
        this.counters[outcome]++;
    }
}

/** {@link InProcessFrontier} behind the shared asynchronous {@link FrontierStore} interface. */
export class MemoryFrontierStore<P = unknown> implements FrontierStore<P> {
    readonly frontier: InProcessFrontier<P>;

    /** @param options Its options, or a frontier to put behind the interface (one restored from a snapshot). */
    constructor(options: MemoryFrontierStoreOptions | InProcessFrontier<P> = {}) {
        this.frontier = options instanceof InProcessFrontier ? options : new InProcessFrontier<P>(options);
    }

    /** See {@link InProcessFrontier.toJSON}. */
    toJSON(): InProcessFrontierJSON<P> {
        return this.frontier.toJSON();
    }

    /** See {@link InProcessFrontier.fromJSON}. */
    static fromJSON<P>(json: InProcessFrontierJSON<P>, options: MemoryFrontierStoreOptions = {}): MemoryFrontierStore<P> {
        return new MemoryFrontierStore<P>(InProcessFrontier.fromJSON(json, options));
    }

    get options(): ResolvedFrontierStoreOptions {
        return this.frontier.options;
    }

    async claimIdentity(identity: CrawlIdentity): Promise<void> {
        this.frontier.claimIdentity(identity);
    }

    async enqueue(offers: ReadonlyArray<FrontierOffer<P>>): Promise<EnqueueResult<P>> {
        return this.frontier.enqueue(offers);
    }

    async lease(workerId: string, max: number, prefer?: ReadonlyArray<string>): Promise<LeaseBatch<P>> {
        return this.frontier.lease(workerId, max, prefer);
    }

    async extend(leases: ReadonlyArray<LeaseRef>): Promise<Array<number | null>> {
        return this.frontier.extend(leases);
    }

    async commit(lease: LeaseRef, outcome: CommitOutcome, events?: ReadonlyArray<unknown>, item?: unknown): Promise<CommitResult> {
        return this.frontier.commit(lease, outcome, events, item);
    }

    async announce(lease: LeaseRef, events: ReadonlyArray<unknown>): Promise<CommitResult> {
        return this.frontier.announce(lease, events);
    }

    async acknowledgeDelivery(ref: LeaseRef): Promise<CommitResult> {
        return this.frontier.acknowledgeDelivery(ref);
    }

    async claimDeliveries(max: number): Promise<OwedDelivery[]> {
        return this.frontier.claimDeliveries(max);
    }

    async readEvents(after: string, max: number): Promise<LoggedEvent[]> {
        return this.frontier.readEvents(after, max);
    }

    async queuedScores(max: number): Promise<number[]> {
        return this.frontier.queuedScores(max);
    }

    async queuedEntries(max: number): Promise<Array<FrontierOffer<P>>> {
        return this.frontier.queuedEntries(max);
    }

    async publishReport(report: unknown): Promise<unknown> {
        return this.frontier.publishReport(report);
    }

    async publishedReport(): Promise<unknown> {
        return this.frontier.publishedReport();
    }

    async retry(lease: LeaseRef): Promise<RetryResult> {
        return this.frontier.retry(lease);
    }

    async reclaimExpired(): Promise<number> {
        return this.frontier.reclaimExpired();
    }

    async backOffHost(host: string, delayMillis: number): Promise<void> {
        this.frontier.backOffHost(host, delayMillis);
    }

    async setHostDelay(host: string, delayMillis: number): Promise<void> {
        this.frontier.setHostDelay(host, delayMillis);
    }

    async rescore(scores: ReadonlyArray<{ key: string; score: number }>): Promise<number> {
        return this.frontier.rescore(scores);
    }

    async stop(reason: string): Promise<string> {
        return this.frontier.stop(reason);
    }

    async status(): Promise<FrontierStatus> {
        return this.frontier.status();
    }

    async close(): Promise<void> {}
}

/** A JSON value copied, as the Redis store keeps it: what a reader gets never aliases what the writer still holds. */
function copyJson<T>(value: T): T {
    return JSON.parse(JSON.stringify(value)) as T;
}
