import { clusterKey } from './cluster-key.js';
import { IndexedHeap } from './indexed-heap.js';

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
    | { kind: 'evicted'; key: string; url: string };

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

interface Entry<S> extends QueueItem<S> {
    /** Discovery order: among equal scores the earlier-discovered link pops first. */
    seq: number;
    bestPosition: number;
    worstPosition: number;
    /** {@link clusterKey} of the URL, computed when first needed. */
    cluster: string | undefined;
}

/** Pops `a` before `b`: higher score, then earlier discovery. */
function ahead<S>(a: Entry<S>, b: Entry<S>): boolean {
    return a.score > b.score || (a.score === b.score && a.seq < b.seq);
}

/** Scores are non-negative; NaN counts as 0 and infinity as the largest number, so JSON keeps it. */
function clampScore(score: number): number {
    return score > 0 ? Math.min(score, Number.MAX_VALUE) : 0;
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
 * Two indexed heaps over the same entries give O(log n) pop of the best, eviction of the worst and
 * update by key.
 */
export class BestFirstQueue<S> implements Iterable<QueueItem<S>> {
    private readonly byKey = new Map<string, Entry<S>>();
    private readonly best = new IndexedHeap<Entry<S>>(ahead, (entry, position) => {
        entry.bestPosition = position;
    });
    private readonly worst = new IndexedHeap<Entry<S>>(
        (a, b) => ahead(b, a),
        (entry, position) => {
            entry.worstPosition = position;
        },
    );
    private nextSeq = 0;
    private taken: { signal: S } | undefined;
    /** Reused by {@link bestWhere} to avoid an allocation per search. */
    private readonly searchStack: number[] = [];

    get size(): number {
        return this.byKey.size;
    }

    contains(key: string): boolean {
        return this.byKey.has(key);
    }

    /**
     * Offers a link. `room` is how many entries the queue may hold now (the crawl limit minus the
     * pages already scheduled). A key already queued keeps its discovery order; a higher score
     * replaces its score and signal.
     */
    offer(key: string, url: string, depth: number, score: number, signal: S, room: number): Offer {
        const clamped = clampScore(score);
        const existing = this.byKey.get(key);
        if (existing) {
            if (clamped > existing.score) {
                existing.score = clamped;
                existing.signal = signal;
                this.best.update(existing.bestPosition);
                this.worst.update(existing.worstPosition);
            }
            return { kind: 'already-queued' };
        }
        let evicted: Entry<S> | undefined;
        if (this.byKey.size >= room) {
            evicted = this.worst.peek();
            if (!evicted || evicted.score >= clamped) return { kind: 'rejected' };
            this.remove(evicted);
        }
        this.insert({
            key,
            url,
            depth,
            score: clamped,
            signal,
            seq: this.nextSeq,
            bestPosition: -1,
            worstPosition: -1,
            cluster: undefined,
        });
        this.nextSeq += 1;
        return evicted ? { kind: 'evicted', key: evicted.key, url: evicted.url } : { kind: 'queued' };
    }

    /** Removes and returns the best link. */
    pop(): QueueItem<S> | undefined {
        const top = this.best.peek();
        return top && this.take(top);
    }

    /**
     * Removes and returns the best link while spreading the budget over clusters ({@link clusterKey}).
     * A cluster is full when `scheduled(cluster) ≥ cap` and it is not `proven`. Only links scoring at
     * least {@link DIVERSITY_RATIO} × the best score may jump the queue:
     * 1. if the best link's cluster is not proven, the best link of a proven cluster goes first;
     * 2. else the best link, unless its cluster is full;
     * 3. else the best link of a cluster that is not full, or the best link if there is none.
     */
    popDiverse(
        scheduled: (cluster: string) => number,
        cap: number,
        proven: (cluster: string) => boolean,
    ): QueueItem<S> | undefined {
        const top = this.best.peek();
        if (!top) return undefined;
        const floor = top.score * DIVERSITY_RATIO;
        const isProven = memoByCluster(proven);
        const isFull = memoByCluster((cluster) => scheduled(cluster) >= cap && !isProven(cluster));
        const provenEntry = (entry: Entry<S>): boolean => isProven(this.clusterOf(entry));
        if (!provenEntry(top)) {
            const exploit = this.bestWhere(floor, provenEntry);
            if (exploit) return this.take(exploit);
        }
        if (!isFull(this.clusterOf(top))) return this.take(top);
        const rival = this.bestWhere(floor, (entry) => !isFull(this.clusterOf(entry)));
        return this.take(rival ?? top);
    }

    /** Signal of the most recently popped link; returns it once. */
    takeSignal(): S | undefined {
        const signal = this.taken?.signal;
        this.taken = undefined;
        return signal;
    }

    peekScore(): number | undefined {
        return this.best.peek()?.score;
    }

    /** Recomputes every score from its signal; discovery order still breaks ties. */
    rescore(score: (signal: S) => number): void {
        for (const entry of this.best.items) entry.score = clampScore(score(entry.signal));
        this.best.rebuild();
        this.worst.rebuild();
    }

    delete(key: string): boolean {
        const entry = this.byKey.get(key);
        if (entry) this.remove(entry);
        return entry !== undefined;
    }

    /** Entries in pop order (a snapshot). */
    *[Symbol.iterator](): Iterator<QueueItem<S>> {
        for (const { key, url, depth, score, signal } of this.sortedEntries()) yield { key, url, depth, score, signal };
    }

    toJSON(): BestFirstQueueJSON<S> {
        return {
            nextSeq: this.nextSeq,
            entries: this.sortedEntries().map(({ key, url, depth, score, signal, seq }) => ({
                key,
                url,
                depth,
                score,
                seq,
                signal,
            })),
            taken: this.taken ? [this.taken.signal] : [],
        };
    }

    static fromJSON<S>(json: BestFirstQueueJSON<S>): BestFirstQueue<S> {
        const queue = new BestFirstQueue<S>();
        for (const { key, url, depth, score, seq, signal } of json.entries) {
            if (queue.byKey.has(key)) throw new Error(`Queue snapshot lists key ${key} twice; it is corrupt.`);
            if (seq >= json.nextSeq) throw new Error(`Queue snapshot entry ${key} has seq ${seq} ≥ nextSeq ${json.nextSeq}; it is corrupt.`);
            const entry: Entry<S> = {
                key,
                url,
                depth,
                score: clampScore(score),
                signal,
                seq,
                bestPosition: -1,
                worstPosition: -1,
                cluster: undefined,
            };
            queue.byKey.set(key, entry);
            queue.best.items.push(entry);
            queue.worst.items.push(entry);
        }
        queue.best.rebuild();
        queue.worst.rebuild();
        queue.nextSeq = json.nextSeq;
        if (json.taken.length > 0) queue.taken = { signal: json.taken[0] as S };
        return queue;
    }

    private insert(entry: Entry<S>): void {
        this.byKey.set(entry.key, entry);
        this.best.push(entry);
        this.worst.push(entry);
    }

    private remove(entry: Entry<S>): void {
        this.byKey.delete(entry.key);
        this.best.removeAt(entry.bestPosition);
        this.worst.removeAt(entry.worstPosition);
    }

    private take(entry: Entry<S>): QueueItem<S> {
        this.remove(entry);
        this.taken = { signal: entry.signal };
        const { key, url, depth, score, signal } = entry;
        return { key, url, depth, score, signal };
    }

    private clusterOf(entry: Entry<S>): string {
        entry.cluster ??= clusterKey(entry.url);
        return entry.cluster;
    }

    /**
     * The best entry with score ≥ `floor` that `accept`s, found by branch and bound over the
     * best-first heap: a subtree is skipped when its root (its best entry) is below the floor, is
     * not ahead of the best match so far, or is itself a match. Visits only the entries above the
     * floor, in O(visited) time, without sorting.
     */
    private bestWhere(floor: number, accept: (entry: Entry<S>) => boolean): Entry<S> | undefined {
        const { items } = this.best;
        const stack = this.searchStack;
        stack.length = 0;
        if (items.length > 0) stack.push(0);
        let found: Entry<S> | undefined;
        while (stack.length > 0) {
            const position = stack.pop() as number;
            const entry = items[position] as Entry<S>;
            if (entry.score < floor || (found && !ahead(entry, found))) continue;
            if (accept(entry)) {
                found = entry;
                continue;
            }
            const left = 2 * position + 1;
            if (left + 1 < items.length) stack.push(left + 1);
            if (left < items.length) stack.push(left);
        }
        return found;
    }

    private sortedEntries(): Entry<S>[] {
        return [...this.best.items].sort((a, b) => (ahead(a, b) ? -1 : ahead(b, a) ? 1 : 0));
    }
}
