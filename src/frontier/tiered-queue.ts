import { hostOf, shapeKey } from '../url/index.js';
import { Deque } from './deque.js';
import type { DemotionSource } from './trap-learner.js';

/** A queued URL with its caller-defined payload (which must survive JSON). */
export interface TieredItem<T> {
    url: string;
    depth: number;
    payload: T;
}

interface TieredEntry<T> extends TieredItem<T> {
    /** Template key, kept so demotion checks do not recompute the URL shape. */
    shapeKey: string;
}

export interface TieredPopOptions {
    /**
     * Whether a demoted URL may be returned once no normal URL can be. Pass false while normal
     * pages are still in flight or waiting for retry: they may discover normal links, and spending
     * the limit on demoted URLs meanwhile would be wasteful.
     */
    allowLow: boolean;
    /** True for a host (as given by `hostOf`) whose in-flight requests are at their limit; it is skipped this time. */
    busy: (host: string) => boolean;
}

export interface TieredQueueJSON<T> {
    /** Demotion generation at the last sweep of the normal tier. */
    sortedAt: number;
    /** Normal tier: per-host FIFO queues in ring order. */
    hosts: { host: string; entries: TieredEntry<T>[] }[];
    low: TieredEntry<T>[];
}

/**
 * Breadth-first frontier with two tiers (pagesift `Tiered`). Normal URLs wait in per-host FIFO
 * queues (Heritrix per-host work queues) served round-robin, skipping hosts at their concurrency
 * limit (Scrapy's DownloaderAwarePriorityQueue), so one long host never blocks the others. URLs of
 * templates the {@link DemotionSource} demotes wait in the low tier, after all normal work.
 * The caller bounds the total size (see {@link evictLow}).
 */
export class TieredQueue<T> implements Iterable<TieredItem<T>> {
    private readonly normal = new Map<string, Deque<TieredEntry<T>>>();
    /** Hosts with queued normal URLs, in serving order. */
    private readonly ring = new Deque<string>();
    private normalSize = 0;
    private readonly low = new Deque<TieredEntry<T>>();
    private sortedAt: number;

    constructor(private readonly demotion: DemotionSource) {
        this.sortedAt = demotion.generation;
    }

    get size(): number {
        return this.normalSize + this.low.size;
    }

    push(url: string, depth: number, payload: T): void {
        this.enqueue({ url, depth, payload, shapeKey: shapeKey(url) });
    }

    /**
     * The next URL to fetch, `fromLow` telling whether it was demoted. Each host in the ring is
     * visited once; entries whose template has been demoted since they were queued move to the low
     * tier on the way.
     */
    pop({ allowLow, busy }: TieredPopOptions): (TieredItem<T> & { fromLow: boolean }) | undefined {
        for (let visits = this.ring.size; visits > 0; visits -= 1) {
            const host = this.ring.shift() as string;
            if (busy(host)) {
                this.ring.push(host);
                continue;
            }
            const queue = this.normal.get(host) as Deque<TieredEntry<T>>;
            let found: TieredEntry<T> | undefined;
            for (let entry = queue.shift(); entry; entry = queue.shift()) {
                this.normalSize -= 1;
                if (!this.demotion.isDemoted(entry.shapeKey, entry.url)) {
                    found = entry;
                    break;
                }
                this.low.push(entry);
            }
            if (queue.size === 0) this.normal.delete(host);
            else this.ring.push(host);
            if (found) return { url: found.url, depth: found.depth, payload: found.payload, fromLow: false };
        }
        const first = this.low.peekFront();
        if (!allowLow || !first || busy(hostOf(first.url))) return undefined;
        this.low.shift();
        return { url: first.url, depth: first.depth, payload: first.payload, fromLow: true };
    }

    /**
     * Makes room for a normal URL when the queue is full: removes and returns the last demoted
     * entry (the caller forgets it in its dedup set so it can be rediscovered), or undefined if
     * there is none, in which case the new URL should not be queued. If the demotion generation
     * changed since the last call, normal entries of newly demoted templates move to the low tier
     * first.
     */
    evictLow(): TieredItem<T> | undefined {
        if (this.sortedAt !== this.demotion.generation) {
            this.sortedAt = this.demotion.generation;
            this.sweepDemoted();
        }
        const entry = this.low.pop();
        return entry && { url: entry.url, depth: entry.depth, payload: entry.payload };
    }

    /** Normal entries in ring order, then demoted ones. */
    *[Symbol.iterator](): Iterator<TieredItem<T>> {
        for (const host of this.ring) {
            for (const { url, depth, payload } of this.normal.get(host) ?? []) yield { url, depth, payload };
        }
        for (const { url, depth, payload } of this.low) yield { url, depth, payload };
    }

    toJSON(): TieredQueueJSON<T> {
        return {
            sortedAt: this.sortedAt,
            hosts: [...this.ring].map((host) => ({ host, entries: [...(this.normal.get(host) ?? [])] })),
            low: [...this.low],
        };
    }

    static fromJSON<T>(json: TieredQueueJSON<T>, demotion: DemotionSource): TieredQueue<T> {
        const queue = new TieredQueue<T>(demotion);
        for (const { host, entries } of json.hosts) {
            if (entries.length === 0) continue;
            queue.normal.set(host, new Deque(entries));
            queue.ring.push(host);
            queue.normalSize += entries.length;
        }
        for (const entry of json.low) queue.low.push(entry);
        queue.sortedAt = json.sortedAt;
        return queue;
    }

    private enqueue(entry: TieredEntry<T>): void {
        if (this.demotion.isDemoted(entry.shapeKey, entry.url)) {
            this.low.push(entry);
            return;
        }
        const host = hostOf(entry.url);
        let queue = this.normal.get(host);
        if (!queue) {
            queue = new Deque();
            this.normal.set(host, queue);
            this.ring.push(host);
        }
        queue.push(entry);
        this.normalSize += 1;
    }

    /** Moves every normal entry whose template is now demoted to the end of the low tier. */
    private sweepDemoted(): void {
        for (const host of this.ring) {
            const queue = this.normal.get(host) as Deque<TieredEntry<T>>;
            const demoted = queue.partition((entry) => !this.demotion.isDemoted(entry.shapeKey, entry.url));
            for (const entry of demoted) this.low.push(entry);
            this.normalSize -= demoted.length;
            if (queue.size === 0) this.normal.delete(host);
        }
        this.ring.partition((host) => this.normal.has(host));
    }
}
