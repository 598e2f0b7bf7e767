/**
 * The queue of a crawl run in one process: best-first (a focused crawl) or tiered breadth-first, and polite. It hands
 * out only links whose host may take a request now; a link popped while its host was busy waits in a small parking
 * lot, best first, and counts as queued.
 */
import { hostOrNull } from '../url/index.js';
import { BestFirstQueue } from './best-first-queue.js';
import type { BestFirstQueueJSON, DiversityRule } from './best-first-queue.js';
import { TieredQueue } from './tiered-queue.js';
import type { TieredQueueJSON } from './tiered-queue.js';
import type { DemotionSource } from './trap-learner.js';

/** What the queue needs of an entry; the rest is the caller's (plain JSON, so the queue can be snapshotted). */
export interface PoliteQueueEntry {
    url: string;
    uniqueKey: string;
    depth: number;
}

/** A queued link and its rank. */
export interface RankedEntry<E> {
    entry: E;
    score: number;
}

/** Outcome of {@link PoliteQueue.offer}: queued, turned away, or queued by pushing out `evicted`. */
export type PoliteOffer<E> = { kind: 'queued' } | { kind: 'rejected' } | { kind: 'evicted'; entry: E };

/** What decides which link may go out now. */
export interface PoliteGate {
    /** Whether the host may not take a request now. Given a URL, the caller may start what the host waits for (its robots.txt). */
    isBusy: (host: string, url?: string) => boolean;
    /** How the best-first queue spreads the budget over clusters. */
    diversity: DiversityRule;
    /** Breadth-first: whether demoted URLs may go out (nothing in flight could still discover normal links). */
    allowLow: boolean;
}

/** A snapshot: the queue's own JSON, and the parked links. */
export interface PoliteQueueJSON<E> {
    queue: unknown;
    parked: Array<RankedEntry<E>>;
}

/** Entries popped per hand-out while looking for a host that is not busy; bounds the parking lot. */
const MAX_BUSY_POPS = 16;

/** The host a queued URL is polite to (`www.` and the bare host are one server, as in the tiered queue). */
export function politenessHost(url: string): string {
    return hostOrNull(url) ?? '';
}

export class PoliteQueue<E extends PoliteQueueEntry> {
    private parked: Array<RankedEntry<E>> = [];
    /** Queued (not parked) entries per host, so that a queue of busy hosts is known without popping. */
    private readonly queuedPerHost = new Map<string, number>();

    private constructor(
        private readonly bestFirst: BestFirstQueue<E> | null,
        private readonly tiered: TieredQueue<E> | null,
    ) {
        for (const { url } of this.queuedUrls()) this.changeQueued(politenessHost(url), +1);
    }

    /** A best-first queue: links ranked by score, with the cluster cap. */
    static bestFirst<E extends PoliteQueueEntry>(): PoliteQueue<E> {
        return new PoliteQueue<E>(new BestFirstQueue<E>(), null);
    }

    /** A breadth-first queue: per-host round robin, with URLs of demoted templates last. */
    static breadthFirst<E extends PoliteQueueEntry>(demotion: DemotionSource): PoliteQueue<E> {
        return new PoliteQueue<E>(null, new TieredQueue<E>(demotion));
    }

    /** Restores a queue saved with {@link toJSON}; `demotion` must be given for a breadth-first one. */
    static fromJSON<E extends PoliteQueueEntry>(json: PoliteQueueJSON<E>, demotion: DemotionSource | null): PoliteQueue<E> {
        const queue = demotion
            ? new PoliteQueue<E>(null, TieredQueue.fromJSON(json.queue as TieredQueueJSON<E>, demotion))
            : new PoliteQueue<E>(BestFirstQueue.fromJSON(json.queue as BestFirstQueueJSON<E>), null);
        queue.parked = json.parked;
        return queue;
    }

    get isBestFirst(): boolean {
        return this.bestFirst !== null;
    }

    /** Queued links, parked ones included. */
    get size(): number {
        return (this.bestFirst?.size ?? this.tiered!.size) + this.parked.length;
    }

    get parkedCount(): number {
        return this.parked.length;
    }

    contains(key: string): boolean {
        return this.bestFirst?.contains(key) ?? false;
    }

    /**
     * Queues a new entry if there is `room`, pushing out a worse one if need be (the tiered queue: a demoted one).
     * `score` ranks it in the best-first queue; the tiered queue ranks by itself.
     */
    offer(entry: E, score: number, room: number): PoliteOffer<E> {
        let evicted: E | undefined;
        if (this.bestFirst) {
            const offer = this.bestFirst.offer(entry.uniqueKey, entry.url, entry.depth, score, entry, Math.max(0, room));
            if (offer.kind === 'rejected') return { kind: 'rejected' };
            if (offer.kind === 'evicted') evicted = offer.signal as E;
        } else {
            const tiered = this.tiered!;
            if (tiered.size >= room) {
                const low = tiered.evictLow();
                if (!low) return { kind: 'rejected' };
                evicted = low.payload;
            }
            tiered.push(entry.url, entry.depth, entry);
        }
        this.changeQueued(politenessHost(entry.url), +1);
        if (!evicted) return { kind: 'queued' };
        this.changeQueued(politenessHost(evicted.url), -1);
        return { kind: 'evicted', entry: evicted };
    }

    /** A queued entry found again with a higher score moves up, with the entry that earned it (best-first only). */
    raise(entry: E, score: number): void {
        if (this.bestFirst?.contains(entry.uniqueKey)) this.bestFirst.offer(entry.uniqueKey, entry.url, entry.depth, score, entry, Infinity);
    }

    /** The best-first queue's links, best first (not the parked ones); none in a breadth-first queue. */
    *ranked(): Iterable<RankedEntry<E>> {
        for (const item of this.bestFirst ?? []) yield { entry: item.signal, score: item.score };
    }

    /** Takes a queued (not parked) entry out of the best-first queue, wherever it ranks. */
    remove(entry: E): void {
        if (this.bestFirst?.delete(entry.uniqueKey)) this.changeQueued(politenessHost(entry.url), -1);
    }

    /**
     * The link that may go out now, left in the parking lot until the caller {@link unpark}s it: the best parked link
     * whose host is free, unless the queue holds a better one of a free host; `undefined` when every queued host is
     * busy. Asking twice without a hand-out between gives the same link only when the first one tops the queue: a link
     * the cluster cap chose from below the top (`popDiverse`) stays parked, and the next ask takes the cap's next
     * choice. So every look (Crawlee's `isEmpty`, the wait for a slower page) moves one capped choice to the parking
     * lot, where it waits until it tops the queue. Making the ask repeatable did not change the one-process recall on
     * the scaling bench (bench/results/README.md, thirty-fifth session).
     */
    next(gate: PoliteGate): RankedEntry<E> | undefined {
        const parked = this.parked.find((p) => !gate.isBusy(politenessHost(p.entry.url), p.entry.url));
        const queueTop = this.bestFirst?.peekScore();
        if (parked && (queueTop === undefined || parked.score >= queueTop)) return parked;
        // A failing parked link (score 0) waits while a better queued link waits for its busy host, as in `popNonBusy`.
        const fallback = parked && parked.score <= 0 && queueTop !== undefined && queueTop > 0 ? undefined : parked;
        if (![...this.queuedPerHost.keys()].some((host) => !gate.isBusy(host))) return fallback;
        const popped = this.popNonBusy(gate);
        if (!popped) return fallback;
        this.parked.push(popped);
        this.parked.sort((a, b) => b.score - a.score);
        return popped;
    }

    /** Removes a link {@link next} returned: it goes out, or is dropped. */
    unpark(item: RankedEntry<E>): void {
        const index = this.parked.indexOf(item);
        if (index >= 0) this.parked.splice(index, 1);
    }

    /** The parked entries (their hosts were busy when they were popped). */
    parkedEntries(): E[] {
        return this.parked.map(({ entry }) => entry);
    }

    /**
     * Recomputes every score with `score`; an entry it gives no score (`undefined`: nothing to score it by) ranks 0 in
     * the queue and keeps its score when parked, as do parked scores of at least `keepAbove` (requests added with
     * `forefront`). Returns the parked entries that now score 0 (failing), removed: they give their room back.
     */
    rescore(score: (entry: E) => number | undefined, keepAbove: number): E[] {
        if (!this.bestFirst) return [];
        this.bestFirst.rescore((entry) => score(entry) ?? 0);
        // Parked entries are ranked against the queue top by their score: it must follow too, or a host that started
        // failing (or a template demoted meanwhile) is served at its old score.
        for (const parked of this.parked) {
            const now = parked.score < keepAbove ? score(parked.entry) : undefined;
            if (now !== undefined) parked.score = now;
        }
        this.parked.sort((a, b) => b.score - a.score);
        const failing = this.parked.filter((parked) => parked.score <= 0);
        if (failing.length > 0) this.parked = this.parked.filter((parked) => parked.score > 0);
        return failing.map(({ entry }) => entry);
    }

    /** Scores of the queued links, parked ones included (a breadth-first queue: only the parked ones, 0). */
    *scores(): Iterable<number> {
        for (const { score } of this.ranked()) yield score;
        for (const { score } of this.parked) yield score;
    }

    /** Every queued URL, parked ones included. */
    *urls(): Iterable<string> {
        for (const { url } of this.queuedUrls()) yield url;
        for (const { entry } of this.parked) yield entry.url;
    }

    toJSON(): PoliteQueueJSON<E> {
        return { queue: (this.bestFirst ?? this.tiered!).toJSON(), parked: this.parked };
    }

    private *queuedUrls(): Iterable<{ url: string }> {
        yield* this.bestFirst ?? this.tiered!;
    }

    private popNonBusy(gate: PoliteGate): RankedEntry<E> | undefined {
        if (this.tiered) {
            const popped = this.tiered.pop({ allowLow: gate.allowLow, busy: (host) => gate.isBusy(host) });
            if (!popped) return undefined;
            this.changeQueued(politenessHost(popped.url), -1);
            return { entry: popped.payload, score: 0 };
        }
        const queue = this.bestFirst!;
        // Entries of busy hosts go back into the queue: parked, they would keep their score through every re-score,
        // and take the frontier's room from better links found later (on a site of one host, with links to a few
        // others, every poll parked up to MAX_BUSY_POPS of them, and the crawl became a fixed list after ~10 pages).
        const busy: Array<{ key: string; url: string; depth: number; score: number; signal: E }> = [];
        let found: RankedEntry<E> | undefined;
        for (let i = 0; i < MAX_BUSY_POPS && queue.size > 0; i++) {
            const popped = queue.popDiverse(gate.diversity);
            if (!popped) break;
            const host = politenessHost(popped.url);
            this.changeQueued(host, -1);
            // A failing link (score 0) waits behind better links whose hosts are busy: it is the last resort, not a filler.
            if (popped.score <= 0 && busy.length > 0) {
                busy.push(popped);
                break;
            }
            if (!gate.isBusy(host, popped.url)) {
                found = { entry: popped.signal, score: popped.score };
                break;
            }
            busy.push(popped);
        }
        for (const item of busy) {
            queue.offer(item.key, item.url, item.depth, item.score, item.signal, Infinity);
            this.changeQueued(politenessHost(item.url), +1);
        }
        return found;
    }

    private changeQueued(host: string, delta: number): void {
        const count = (this.queuedPerHost.get(host) ?? 0) + delta;
        if (count > 0) this.queuedPerHost.set(host, count);
        else this.queuedPerHost.delete(host);
    }
}
