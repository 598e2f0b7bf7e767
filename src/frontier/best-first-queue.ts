import { clusterKey } from './cluster-key.js';
import { RankedSlots } from './ranked-slots.js';

/**
 * When the best link's cluster has used its budget, a link of another cluster may go first if its
 * score is at least this share of the best score (pagesift `DIVERSITY_RATIO`).
 */
export const DIVERSITY_RATIO = 0.5;

/** Outcome of {@link BestFirstQueue.offer}. */
export type Offer =
    | { kind: 'queued' }
    /** The key was already queued; its score was raised if the new one is higher. */
    | { kind: 'already-queued' }
    /** The queue is full and every queued link scores at least as high. */
    | { kind: 'rejected' }
    /** Queued by pushing out the worst link; the caller should forget `key` so it can return later. */
    | { kind: 'evicted'; key: string; url: string; signal: unknown };

// Outcomes without data are shared constants: offer is the hot path and should not allocate them.
const QUEUED: Offer = Object.freeze({ kind: 'queued' });
const ALREADY_QUEUED: Offer = Object.freeze({ kind: 'already-queued' });
const REJECTED: Offer = Object.freeze({ kind: 'rejected' });

/** A queued link. */
export interface QueueItem<S> {
    key: string;
    url: string;
    depth: number;
    score: number;
    signal: S;
}

export interface BestFirstQueueJSON<S> {
    /** Discovery sequence the next new entry gets. */
    nextSeq: number;
    /** Entries in priority order. */
    entries: (QueueItem<S> & { seq: number })[];
    /** Signal of the last popped entry not yet taken (zero or one element). */
    taken: S[];
}

/** Scores are non-negative; NaN counts as 0 and infinity as the largest number, so JSON keeps it. */
function clampScore(score: number): number {
    return score > 0 ? Math.min(score, Number.MAX_VALUE) : 0;
}

/** How a best-first frontier spreads the budget over clusters: see {@link BestFirstQueue.popDiverse}. */
export interface DiversityRule {
    /** Pages taken so far in a cluster. */
    scheduled: (cluster: string) => number;
    /** Pages a cluster may take unless it is proven. */
    cap: number;
    /** The cluster's yield is demonstrably better than the rest's. */
    proven: (cluster: string) => boolean;
}

/**
 * The rule of {@link BestFirstQueue.popDiverse} over any best-first collection: `bestNearTop(accept)` gives the best
 * candidate scoring at least {@link DIVERSITY_RATIO} × the top's score that `accept`s, or undefined.
 */
function diverseChoice<C>(top: C, clusterOf: (candidate: C) => string, bestNearTop: (accept: (candidate: C) => boolean) => C | undefined, rule: DiversityRule): C {
    const isProven = memoByCluster(rule.proven);
    const isFull = memoByCluster((cluster) => rule.scheduled(cluster) >= rule.cap && !isProven(cluster));
    if (!isProven(clusterOf(top))) {
        const exploit = bestNearTop((candidate) => isProven(clusterOf(candidate)));
        if (exploit !== undefined) return exploit;
    }
    if (!isFull(clusterOf(top))) return top;
    return bestNearTop((candidate) => !isFull(clusterOf(candidate))) ?? top;
}

/**
 * {@link BestFirstQueue.popDiverse}'s pick among links listed best first (a shared frontier store's best queued
 * links), without removing it; undefined for an empty list.
 */
export function pickDiverse<T extends { url: string; score: number }>(bestFirst: readonly T[], rule: DiversityRule): T | undefined {
    const [top] = bestFirst;
    if (top === undefined) return undefined;
    const floor = top.score * DIVERSITY_RATIO;
    const clusters = new Map<T, string>();
    const clusterOf = (candidate: T): string => {
        let cluster = clusters.get(candidate);
        if (cluster === undefined) clusters.set(candidate, (cluster = clusterKey(candidate.url)));
        return cluster;
    };
    return diverseChoice(top, clusterOf, (accept) => bestFirst.find((candidate) => candidate.score >= floor && accept(candidate)), rule);
}

/** Asks `test` once per cluster: callers' callbacks may be costly, and many entries share a cluster. */
function memoByCluster(test: (cluster: string) => boolean): (cluster: string) => boolean {
    const answers = new Map<string, boolean>();
    return (cluster) => {
        let answer = answers.get(cluster);
        if (answer === undefined) {
            answer = test(cluster);
            answers.set(cluster, answer);
        }
        return answer;
    };
}

/**
 * Bounded best-first frontier (pagesift `BestFirst`). The capacity (`room`) is given at every offer
 * as the number of pages the crawl may still schedule, so memory stays bounded like a breadth-first
 * queue: once full, a new link enters only by beating the worst queued one. Every entry carries
 * the signal its score was computed from, so the queue can be re-scored when the weights move.
 *
 * Entries live in numbered slots ({@link RankedSlots}: a best-first and a worst-first heap over
 * typed arrays), which gives O(log n) pop of the best, eviction of the worst and update by key.
 */
export class BestFirstQueue<S> implements Iterable<QueueItem<S>> {
    private readonly slotOf = new Map<string, number>();
    private readonly ranks = new RankedSlots();
    // Per-slot payload, indexed by slot number.
    private readonly keys: string[] = [];
    private readonly urls: string[] = [];
    private readonly depths: number[] = [];
    private readonly signals: S[] = [];
    /** {@link clusterKey} of each slot's URL, computed when first needed. */
    private readonly clusters: (string | undefined)[] = [];
    private nextSeq = 0;
    /** Signal of the last popped entry until taken; `hasTaken` tells an absent one from an undefined signal. */
    private takenSignal: S | undefined;
    private hasTaken = false;
    /** Reused by {@link bestWhere} to avoid an allocation per search. */
    private readonly searchStack: number[] = [];

    get size(): number {
        return this.slotOf.size;
    }

    contains(key: string): boolean {
        return this.slotOf.has(key);
    }

    /**
     * Offers a link. `room` is how many entries the queue may hold now (the crawl limit minus the
     * pages already scheduled). A key already queued keeps its discovery order; a higher score
     * replaces its score and signal.
     */
    offer(key: string, url: string, depth: number, score: number, signal: S, room: number): Offer {
        const clamped = clampScore(score);
        const existing = this.slotOf.get(key);
        if (existing !== undefined) {
            if (clamped > this.ranks.score[existing]!) {
                this.ranks.setScore(existing, clamped);
                this.signals[existing] = signal;
            }
            return ALREADY_QUEUED;
        }
        let evicted: Offer = QUEUED;
        if (this.slotOf.size >= room) {
            const worst = this.ranks.worst.top();
            if (worst < 0 || this.ranks.score[worst]! >= clamped) return REJECTED;
            evicted = { kind: 'evicted', key: this.keys[worst]!, url: this.urls[worst]!, signal: this.signals[worst] };
            this.remove(worst);
        }
        this.insert(key, url, depth, clamped, signal, this.nextSeq);
        this.nextSeq += 1;
        return evicted;
    }

    /** Removes and returns the best link. */
    pop(): QueueItem<S> | undefined {
        const top = this.ranks.best.top();
        return top < 0 ? undefined : this.take(top);
    }

    /**
     * Removes and returns the best link while spreading the budget over clusters ({@link clusterKey}).
     * A cluster is full when `rule.scheduled(cluster) ≥ rule.cap` and it is not `rule.proven`. Only links scoring at
     * least {@link DIVERSITY_RATIO} × the best score may jump the queue:
     * 1. if the best link's cluster is not proven, the best link of a proven cluster goes first;
     * 2. else the best link, unless its cluster is full;
     * 3. else the best link of a cluster that is not full, or the best link if there is none.
     */
    popDiverse(rule: DiversityRule): QueueItem<S> | undefined {
        const top = this.ranks.best.top();
        if (top < 0) return undefined;
        const floor = this.ranks.score[top]! * DIVERSITY_RATIO;
        const slot = diverseChoice(top, (candidate) => this.clusterOf(candidate), (accept) => {
            const found = this.bestWhere(floor, accept);
            return found >= 0 ? found : undefined;
        }, rule);
        return this.take(slot);
    }

    /**
     * Removes and returns the best link that `accept`s (a frontier store skips links whose host is busy), or
     * `undefined`. Visits only links ranked above the one found.
     */
    popBest(accept: (item: QueueItem<S>) => boolean): QueueItem<S> | undefined {
        const found = this.bestWhere(-Infinity, (slot) => accept(this.item(slot)));
        return found < 0 ? undefined : this.take(found);
    }

    /** The queued score of a key, or `undefined` if it is not queued. */
    scoreOf(key: string): number | undefined {
        const slot = this.slotOf.get(key);
        return slot === undefined ? undefined : this.ranks.score[slot];
    }

    /** Sets a queued key's score, up or down (its signal stays); returns whether the key is queued. */
    setScore(key: string, score: number): boolean {
        const slot = this.slotOf.get(key);
        if (slot === undefined) return false;
        this.ranks.setScore(slot, clampScore(score));
        return true;
    }

    /** Signal of the most recently popped link; returns it once. */
    takeSignal(): S | undefined {
        const signal = this.takenSignal;
        this.takenSignal = undefined;
        this.hasTaken = false;
        return signal;
    }

    peekScore(): number | undefined {
        const top = this.ranks.best.top();
        return top < 0 ? undefined : this.ranks.score[top];
    }

    /** Recomputes every score from its signal; discovery order still breaks ties. */
    rescore(score: (signal: S) => number): void {
        for (const slot of this.slotOf.values()) this.ranks.score[slot] = clampScore(score(this.signals[slot] as S));
        this.ranks.rebuild();
    }

    delete(key: string): boolean {
        const slot = this.slotOf.get(key);
        if (slot !== undefined) this.remove(slot);
        return slot !== undefined;
    }

    /** Entries in pop order (a snapshot). */
    *[Symbol.iterator](): Iterator<QueueItem<S>> {
        for (const slot of this.sortedSlots()) yield this.item(slot);
    }

    toJSON(): BestFirstQueueJSON<S> {
        return {
            nextSeq: this.nextSeq,
            entries: this.sortedSlots().map((slot) => ({ ...this.item(slot), seq: this.ranks.seq[slot]! })),
            taken: this.hasTaken ? [this.takenSignal as S] : [],
        };
    }

    static fromJSON<S>(json: BestFirstQueueJSON<S>): BestFirstQueue<S> {
        const queue = new BestFirstQueue<S>();
        for (const { key, url, depth, score, seq, signal } of json.entries) {
            if (queue.slotOf.has(key)) throw new Error(`Queue snapshot lists key ${key} twice; it is corrupt.`);
            if (!(seq < json.nextSeq)) {
                throw new Error(`Queue snapshot entry ${key} has seq ${seq}, not below nextSeq ${json.nextSeq}; it is corrupt.`);
            }
            queue.insert(key, url, depth, clampScore(score), signal, seq);
        }
        queue.nextSeq = json.nextSeq;
        queue.hasTaken = json.taken.length > 0;
        queue.takenSignal = json.taken[0];
        return queue;
    }

    private insert(key: string, url: string, depth: number, score: number, signal: S, seq: number): void {
        const slot = this.ranks.add(score, seq);
        this.slotOf.set(key, slot);
        this.keys[slot] = key;
        this.urls[slot] = url;
        this.depths[slot] = depth;
        this.signals[slot] = signal;
        this.clusters[slot] = undefined;
    }

    private remove(slot: number): void {
        this.slotOf.delete(this.keys[slot]!);
        this.ranks.delete(slot);
        // Drop references so a freed slot does not keep a signal or URL alive.
        this.signals[slot] = undefined as S;
        this.urls[slot] = '';
    }

    private item(slot: number): QueueItem<S> {
        return {
            key: this.keys[slot]!,
            url: this.urls[slot]!,
            depth: this.depths[slot]!,
            score: this.ranks.score[slot]!,
            signal: this.signals[slot] as S,
        };
    }

    private take(slot: number): QueueItem<S> {
        const item = this.item(slot);
        this.remove(slot);
        this.takenSignal = item.signal;
        this.hasTaken = true;
        return item;
    }

    private clusterOf(slot: number): string {
        let cluster = this.clusters[slot];
        if (cluster === undefined) {
            cluster = clusterKey(this.urls[slot]!);
            this.clusters[slot] = cluster;
        }
        return cluster;
    }

    /**
     * The best slot with score ≥ `floor` that `accept`s, or -1: branch and bound over the
     * best-first heap. A subtree is skipped when its root (its best slot) is below the floor, does
     * not rank above the best match so far, or is itself a match. Visits only slots above the
     * floor, in O(visited) time, without sorting.
     */
    private bestWhere(floor: number, accept: (slot: number) => boolean): number {
        const { ranks } = this;
        const { heap, size } = ranks.best;
        const stack = this.searchStack;
        stack.length = 0;
        if (size > 0) stack.push(0);
        let found = -1;
        while (stack.length > 0) {
            const position = stack.pop()!;
            const slot = heap[position]!;
            if (ranks.score[slot]! < floor || (found >= 0 && !ranks.ranksAbove(slot, found))) continue;
            if (accept(slot)) {
                found = slot;
                continue;
            }
            const left = 2 * position + 1;
            if (left + 1 < size) stack.push(left + 1);
            if (left < size) stack.push(left);
        }
        return found;
    }

    private sortedSlots(): number[] {
        const { ranks } = this;
        return [...this.slotOf.values()].sort((a, b) => (ranks.ranksAbove(a, b) ? -1 : 1));
    }
}
