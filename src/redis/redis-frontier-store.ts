import { Redis } from 'ioredis';

import { LOG_START, ZERO_COUNTERS, assertSameCrawl, clampScore, deriveStatus, normalizeIdentity, resolveFrontierStoreOptions } from '../frontier/index.js';
import type {
    CommitOutcome,
    CommitResult,
    CrawlIdentity,
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
    LeaseStatus,
    LoggedEvent,
    OwedDelivery,
    ResolvedFrontierStoreOptions,
    RetryResult,
} from '../frontier/index.js';
import { crawlKeys } from './keys.js';
import type { CrawlKeys } from './keys.js';
import { FRONTIER_SCRIPTS, scriptSource } from './scripts.js';
import type { FrontierScriptName } from './scripts.js';

export interface RedisFrontierStoreOptions extends FrontierStoreOptions {
    /** A connection URL (`redis://host:6379/0`), or a client the caller owns and closes. */
    redis: string | Redis;
    /** Names the crawl: every worker of one crawl uses the same id. Letters, digits and `-_.:`; no braces or spaces. */
    crawlId: string;
    /**
     * Queued URLs a lease looks at, best first, for one whose host is free. A larger window finds work behind a busy
     * dominant host, at the price of a longer script.
     * @default 256
     */
    scanWindow?: number;
    /** Expired leases taken back per call at most; `reclaimExpired` loops until none are left. @default 100 */
    reclaimBatch?: number;
    /** Offers sent per script call at most, so that no script blocks the server for long. @default 256 */
    enqueueBatch?: number;
}

/** The part of the options every worker of a crawl must share; the first worker writes it. */
type SharedOptions = ResolvedFrontierStoreOptions;

/** What a script call looks like on the client: ioredis adds one method per `defineCommand`. */
type ScriptCall = (...keysAndArgs: Array<string | number>) => Promise<unknown>;

/** Entry fields stored as JSON next to the key, host and score. */
interface StoredEntry<P> {
    url: string;
    depth: number;
    payload: P;
}

/**
 * The frontier store shared by workers on many machines, in one Redis (7.0 or later, no modules). Every operation is
 * one Lua script (loaded with `defineCommand`, sent as EVALSHA), so it is atomic and one round trip; leases run on the
 * server's clock, so the workers' clocks may differ.
 *
 * Open it with {@link RedisFrontierStore.open}: the first worker of a crawl writes the frontier options, and a later one
 * with other options is refused, since the budget and limits only hold if every worker applies the same.
 */
export class RedisFrontierStore<P = unknown> implements FrontierStore<P> {
    readonly options: ResolvedFrontierStoreOptions;
    readonly crawlId: string;
    readonly redis: Redis;
    private readonly keys: CrawlKeys;
    /** Whether `close` quits the connection (the store opened it from a URL). */
    private ownsConnection: boolean;
    private readonly scanWindow: number;
    private readonly reclaimBatch: number;
    private readonly enqueueBatch: number;

    private constructor(options: RedisFrontierStoreOptions) {
        const { redis, crawlId, scanWindow, reclaimBatch, enqueueBatch, ...storeOptions } = options;
        this.options = resolveFrontierStoreOptions(storeOptions);
        this.crawlId = crawlId;
        this.keys = crawlKeys(crawlId);
        this.ownsConnection = typeof redis === 'string';
        this.redis = typeof redis === 'string' ? new Redis(redis, { lazyConnect: true, maxRetriesPerRequest: 3 }) : redis;
        // A lost connection surfaces as the failed command's error, which says what to do; the client's own error
        // events (one per reconnect attempt) would only print "Unhandled error event" to stderr.
        if (this.ownsConnection) this.redis.on('error', () => {});
        this.scanWindow = positiveInteger('scanWindow', scanWindow ?? 256);
        this.reclaimBatch = positiveInteger('reclaimBatch', reclaimBatch ?? 100);
        this.enqueueBatch = positiveInteger('enqueueBatch', enqueueBatch ?? 256);
        for (const name of Object.keys(FRONTIER_SCRIPTS) as FrontierScriptName[]) {
            // defineCommand is idempotent per client; ioredis sends EVALSHA and falls back to EVAL on NOSCRIPT.
            this.redis.defineCommand(name, { numberOfKeys: this.keys.frontier.length, lua: scriptSource(name) });
        }
    }

    /** Connects, and joins the crawl's frontier options (writes them if first; refuses other options). */
    static async open<P = unknown>(options: RedisFrontierStoreOptions): Promise<RedisFrontierStore<P>> {
        const store = new RedisFrontierStore<P>(options);
        try {
            if (store.ownsConnection) await store.redis.connect();
            await store.joinOptions();
        } catch (error) {
            await store.close();
            throw error;
        }
        return store;
    }

    /**
     * Connects to a crawl that a worker has started, with the options that worker wrote, without joining it: for
     * reading its status (`crawlee-focus status`). Throws if no worker has started a crawl under this id.
     */
    static async attach<P = unknown>(options: Pick<RedisFrontierStoreOptions, 'redis' | 'crawlId'>): Promise<RedisFrontierStore<P>> {
        const probe = new RedisFrontierStore<P>({ redis: options.redis, crawlId: options.crawlId });
        let stored: string | null;
        try {
            if (probe.ownsConnection) await probe.redis.connect();
            stored = await probe.redis.get(probe.keys.options);
        } catch (error) {
            await probe.close();
            throw error;
        }
        if (stored === null) {
            await probe.close();
            throw new Error(`No crawl has been started under the crawl id "${options.crawlId}" in this Redis; check the id and the URL.`);
        }
        const parsed = JSON.parse(stored) as Record<string, number | 'Infinity'>;
        const written = Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, value === 'Infinity' ? Infinity : value])) as FrontierStoreOptions;
        // The probe's connection is reused, so the attached store owns it.
        const store = new RedisFrontierStore<P>({ ...written, redis: probe.redis, crawlId: options.crawlId });
        store.ownsConnection = probe.ownsConnection;
        return store;
    }

    /** The identity the first worker wrote (query, seeds, mode, options hash), or `null` before any claimed it. */
    async identity(): Promise<CrawlIdentity | null> {
        const stored = await this.redis.get(this.keys.identity);
        return stored === null ? null : (JSON.parse(stored) as CrawlIdentity);
    }

    private async joinOptions(): Promise<void> {
        const mine = sharedOptionsJson(this.options);
        // SET NX GET (Redis 7.0): writes if absent, and returns what was there, in one step.
        const stored = (await this.redis.call('SET', this.keys.options, mine, 'NX', 'GET')) as string | null;
        if (stored !== null && stored !== mine) {
            throw new Error(
                `Crawl id "${this.crawlId}" was started with frontier options ${stored}; this worker has ${mine}. ` +
                    'Start every worker of a crawl with the same budget and limits, or give this one a new crawl id.',
            );
        }
    }

    async claimIdentity(identity: CrawlIdentity): Promise<void> {
        const mine = normalizeIdentity(identity);
        const stored = (await this.redis.call('SET', this.keys.identity, JSON.stringify(mine), 'NX', 'GET')) as string | null;
        if (stored !== null) assertSameCrawl(this.crawlId, JSON.parse(stored) as CrawlIdentity, mine);
    }

    async enqueue(offers: ReadonlyArray<FrontierOffer<P>>): Promise<EnqueueResult<P>> {
        const outcomes: EnqueueOutcome[] = [];
        const evicted: Array<FrontierOffer<P>> = [];
        for (let start = 0; start < offers.length; start += this.enqueueBatch) {
            const args: Array<string | number> = [limitArg(this.options.maxQueued), limitArg(this.options.maxPages)];
            for (const offer of offers.slice(start, start + this.enqueueBatch)) {
                const entry: StoredEntry<P> = { url: offer.url, depth: offer.depth, payload: offer.payload };
                args.push(offer.key, String(clampScore(offer.score)), offer.host, JSON.stringify(entry));
            }
            const [batchOutcomes, batchEvicted] = (await this.run('cfEnqueue', args)) as [EnqueueOutcome[], string[]];
            outcomes.push(...batchOutcomes);
            for (let i = 0; i < batchEvicted.length; i += 4) {
                evicted.push(toOffer<P>(batchEvicted[i]!, batchEvicted[i + 1]!, batchEvicted[i + 2]!, batchEvicted[i + 3]!));
            }
        }
        return { outcomes, evicted };
    }

    async lease(workerId: string, max: number, prefer: ReadonlyArray<string> = []): Promise<LeaseBatch<P>> {
        if (!(max >= 1)) throw new RangeError(`lease() needs max ≥ 1, got ${max}`);
        const { leaseMillis, maxPages, maxInFlightPerHost, maxInFlightPerNewHost, minDelayPerHostMillis } = this.options;
        const [status, wait, stopReason, rows] = (await this.run('cfLease', [
            workerId,
            Math.floor(max),
            leaseMillis,
            limitArg(maxPages),
            maxInFlightPerHost,
            minDelayPerHostMillis,
            this.scanWindow,
            this.reclaimBatch,
            maxInFlightPerNewHost,
            ...prefer.slice(0, this.enqueueBatch),
        ])) as [LeaseStatus, string, string, string[][]];
        const leases = rows.map(([key, token, json, host, score, attempts, deadline]): FrontierLease<P> => ({
            ...toOffer<P>(key!, json!, host!, score!),
            token: Number(token),
            attempts: Number(attempts),
            deadline: Number(deadline),
        }));
        return { leases, status, waitMillis: wait === '' ? null : Number(wait), stopReason: stopReason === '' ? null : stopReason };
    }

    async extend(leases: ReadonlyArray<LeaseRef>): Promise<Array<number | null>> {
        const deadlines: Array<number | null> = [];
        for (let start = 0; start < leases.length; start += this.enqueueBatch) {
            const args: Array<string | number> = [this.options.leaseMillis];
            for (const { key, token } of leases.slice(start, start + this.enqueueBatch)) args.push(key, String(token));
            const batch = (await this.run('cfExtend', args)) as string[];
            deadlines.push(...batch.map((deadline) => (deadline === '' ? null : Number(deadline))));
        }
        return deadlines;
    }

    async commit(lease: LeaseRef, outcome: CommitOutcome, events: ReadonlyArray<unknown> = [], item?: unknown): Promise<CommitResult> {
        if (outcome !== 'done' && outcome !== 'failed' && outcome !== 'dropped') throw new TypeError(`commit() outcome must be 'done', 'failed' or 'dropped', got ${String(outcome)}`);
        const itemJson = item === undefined ? '' : JSON.stringify(item);
        return (await this.run('cfCommit', [lease.key, String(lease.token), outcome, this.options.leaseMillis, itemJson, ...events.map((event) => JSON.stringify(event))])) as CommitResult;
    }

    async announce(lease: LeaseRef, events: ReadonlyArray<unknown>): Promise<CommitResult> {
        return (await this.run('cfAnnounce', [lease.key, String(lease.token), ...events.map((event) => JSON.stringify(event))])) as CommitResult;
    }

    async acknowledgeDelivery(ref: LeaseRef): Promise<CommitResult> {
        return (await this.run('cfAcknowledge', [ref.key, String(ref.token)])) as CommitResult;
    }

    async claimDeliveries(max: number): Promise<OwedDelivery[]> {
        if (max <= 0) return [];
        const flat = (await this.run('cfClaimDeliveries', [Math.floor(max), this.options.leaseMillis])) as string[];
        const claimed: OwedDelivery[] = [];
        for (let i = 0; i < flat.length; i += 3) claimed.push({ key: flat[i]!, token: Number(flat[i + 1]), item: JSON.parse(flat[i + 2]!) as unknown });
        return claimed;
    }

    async readEvents(after: string, max: number): Promise<LoggedEvent[]> {
        // '(' excludes the id itself (Redis ≥ 6.2); the log's ids are the stream's, so any id read before is valid.
        const start = after === LOG_START ? '-' : `(${after}`;
        const entries = await this.redis.xrange(this.keys.named.events, start, '+', 'COUNT', max);
        return entries.map(([id, fields]) => ({ id, event: JSON.parse(fields[1]!) as unknown }));
    }

    async queuedScores(max: number): Promise<number[]> {
        if (max <= 0) return [];
        const replies = await this.redis
            .pipeline()
            .zrevrange(this.keys.named.requeued, 0, max - 1, 'WITHSCORES')
            .zrevrange(this.keys.named.fresh, 0, max - 1, 'WITHSCORES')
            .exec();
        const scores: number[] = [];
        for (const [error, reply] of replies ?? []) {
            if (error) throw error;
            const flat = reply as string[];
            for (let i = 1; i < flat.length; i += 2) scores.push(Number(flat[i]));
        }
        return scores.sort((a, b) => b - a).slice(0, max);
    }

    async queuedEntries(max: number): Promise<Array<FrontierOffer<P>>> {
        if (max <= 0) return [];
        const flat = (await this.run('cfQueued', [max])) as string[];
        const entries: Array<FrontierOffer<P>> = [];
        for (let i = 0; i < flat.length; i += 4) {
            if (flat[i + 2] !== 'null') entries.push(toOffer<P>(flat[i]!, flat[i + 2]!, flat[i + 3]!, flat[i + 1]!));
        }
        return entries;
    }

    async publishReport(report: unknown): Promise<unknown> {
        const json = JSON.stringify(report);
        // NX with GET (Redis ≥ 7.0): sets only if unset, and returns what was there, so the first report stands.
        const earlier = await this.redis.set(this.keys.report, json, 'NX', 'GET');
        return JSON.parse(earlier ?? json) as unknown;
    }

    async publishedReport(): Promise<unknown> {
        const json = await this.redis.get(this.keys.report);
        return json === null ? null : (JSON.parse(json) as unknown);
    }

    async retry(lease: LeaseRef): Promise<RetryResult> {
        return (await this.run('cfRetry', [lease.key, String(lease.token), this.options.maxAttempts])) as RetryResult;
    }

    async reclaimExpired(): Promise<number> {
        let total = 0;
        for (;;) {
            const reclaimed = Number(await this.run('cfReclaim', [this.reclaimBatch]));
            total += reclaimed;
            if (reclaimed < this.reclaimBatch) return total;
        }
    }

    async backOffHost(host: string, delayMillis: number): Promise<void> {
        await this.run('cfBackOff', [host, Math.max(0, Math.ceil(delayMillis))]);
    }

    async setHostDelay(host: string, delayMillis: number): Promise<void> {
        const key = this.keys.named.hostDelay;
        if (delayMillis > 0) await this.redis.hset(key, host, Math.ceil(delayMillis));
        else await this.redis.hdel(key, host);
    }

    async rescore(scores: ReadonlyArray<{ key: string; score: number }>): Promise<number> {
        let changed = 0;
        for (let start = 0; start < scores.length; start += this.enqueueBatch) {
            const args = scores.slice(start, start + this.enqueueBatch).flatMap(({ key, score }) => [key, String(clampScore(score))]);
            changed += Number(await this.run('cfRescore', args));
        }
        return changed;
    }

    async stop(reason: string): Promise<string> {
        if (!reason) throw new TypeError('stop() needs a reason, e.g. "saturated"');
        return (await this.run('cfStop', [reason])) as string;
    }

    async status(): Promise<FrontierStatus> {
        const [fresh, requeued, leased, counterList, stopReason, owed] = (await this.run('cfStatus', [])) as [number, number, number, string[], string, number];
        const counters: FrontierCounters = { ...ZERO_COUNTERS };
        for (let i = 0; i < counterList.length; i += 2) {
            const name = counterList[i] as keyof FrontierCounters;
            if (name in counters) counters[name] = Number(counterList[i + 1]);
        }
        return deriveStatus({ ...counters, fresh, requeued, leased, owed, stopReason: stopReason === '' ? null : stopReason }, this.options.maxPages);
    }

    /** Closes the connection if the store opened it; the crawl's keys stay in Redis. */
    async close(): Promise<void> {
        if (!this.ownsConnection) return;
        if (this.redis.status === 'ready') await this.redis.quit();
        else this.redis.disconnect();
    }

    /** Deletes every key of a crawl (SCAN, not KEYS, so the server is not blocked). Returns how many went. */
    static async deleteCrawl(redis: Redis, crawlId: string): Promise<number> {
        let deleted = 0;
        let cursor = '0';
        do {
            const [next, keys] = await redis.scan(cursor, 'MATCH', crawlKeys(crawlId).pattern, 'COUNT', 500);
            if (keys.length > 0) deleted += await redis.unlink(...keys);
            cursor = next;
        } while (cursor !== '0');
        return deleted;
    }

    private run(name: FrontierScriptName, args: Array<string | number>): Promise<unknown> {
        const call = (this.redis as unknown as Record<FrontierScriptName, ScriptCall>)[name];
        return call.call(this.redis, ...this.keys.frontier, ...args);
    }
}

/** Redis scripts take limits as numbers, none as -1. */
function limitArg(value: number): number {
    return Number.isFinite(value) ? value : -1;
}

function toOffer<P>(key: string, json: string, host: string, score: string): FrontierOffer<P> {
    const entry = JSON.parse(json) as StoredEntry<P>;
    return { key, url: entry.url, host, depth: entry.depth, score: Number(score), payload: entry.payload };
}

/** The options as one canonical string (fixed key order; `Infinity` spelled out, which JSON cannot). */
function sharedOptionsJson(options: SharedOptions): string {
    const names = Object.keys(options).sort() as Array<keyof SharedOptions>;
    return JSON.stringify(Object.fromEntries(names.map((name) => [name, Number.isFinite(options[name]) ? options[name] : 'Infinity'])));
}

function positiveInteger(name: string, value: number): number {
    if (!(value >= 1) || !Number.isInteger(value)) throw new RangeError(`${name} must be an integer ≥ 1, got ${value}`);
    return value;
}
