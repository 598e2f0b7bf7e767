import { hashLanes } from '../stat/index.js';

/** Why a link waits in the reserve rather than in the queue. */
export type ReserveCause = 'no-room' | 'dry-subtree';

/** A held link. */
export interface ReservedLink<T> {
    key: string;
    payload: T;
    cause: ReserveCause;
}

/** What {@link LinkReserve.hold} did with a link. */
export type HoldOutcome =
    /** Held (or replaced the one held under the same key). */
    | 'held'
    /** The reserve is full: the link is lost, and this is the first time this key was lost. */
    | 'lost'
    /** The reserve is full and this key was lost before. */
    | 'lost-again';

export interface LinkReserveJSON<T> {
    links: ReservedLink<T>[];
}

/** Links held by default: enough for a budget of thousands, a few MiB of signals. */
export const DEFAULT_RESERVE_CAPACITY = 5_000;

/**
 * Links the bounded frontier did not keep: rejected or evicted for want of room, or found in a subtree that has
 * proven dry. The queue only holds what the remaining budget can fetch, so when it runs empty while pages are left
 * (failures, duplicates, a dry subtree), the best of these are queued again instead of the crawl ending as
 * `exhausted` with known links unfetched.
 *
 * Bounded: beyond `capacity` a link is lost, and only its key's hash is kept so that it is reported lost once.
 */
export class LinkReserve<T> {
    readonly capacity: number;
    readonly #links = new Map<string, ReservedLink<T>>();
    readonly #lost = new Set<number>();

    constructor(capacity = DEFAULT_RESERVE_CAPACITY) {
        if (!(capacity >= 0)) throw new RangeError(`The link reserve capacity must be a number ≥ 0, got ${capacity}`);
        this.capacity = capacity;
    }

    static fromJSON<T>(json: LinkReserveJSON<T> | undefined, capacity = DEFAULT_RESERVE_CAPACITY): LinkReserve<T> {
        const reserve = new LinkReserve<T>(capacity);
        for (const link of json?.links ?? []) reserve.hold(link.key, link.payload, link.cause);
        return reserve;
    }

    get size(): number {
        return this.#links.size;
    }

    /**
     * Holds a link under its key. A key already held keeps the payload that scores higher by `score` (the newest
     * without one), and takes the newest cause: a link's worth is its best sighting, as in the queue, so a site-wide
     * menu that shows it again from an off-topic page does not erase the evidence of the topical page that linked it.
     */
    hold(key: string, payload: T, cause: ReserveCause, score?: (payload: T) => number): HoldOutcome {
        const held = this.#links.get(key);
        if (held || this.#links.size < this.capacity) {
            const kept = held && score && score(held.payload) > score(payload) ? held.payload : payload;
            this.#links.set(key, { key, payload: kept, cause });
            return 'held';
        }
        const [hash] = hashLanes(key);
        if (this.#lost.has(hash)) return 'lost-again';
        this.#lost.add(hash);
        return 'lost';
    }

    /** The payload held under `key`, if any. */
    get(key: string): T | undefined {
        return this.#links.get(key)?.payload;
    }

    /** The link was queued or fetched after all. */
    delete(key: string): void {
        this.#links.delete(key);
    }

    *links(cause?: ReserveCause): Iterable<ReservedLink<T>> {
        for (const link of this.#links.values()) if (cause === undefined || link.cause === cause) yield link;
    }

    /**
     * Removes and returns the `count` best links: those dropped for room before those of dry subtrees (a dry part is
     * known to yield less than the rest of the crawl; a link without room only lost to better links), then by `score`.
     */
    takeBest(count: number, score: (payload: T) => number): ReservedLink<T>[] {
        const best = this.#ranked(score).slice(0, Math.max(0, count));
        for (const link of best) this.#links.delete(link.key);
        return best;
    }

    /** The `count` best links, as {@link takeBest} ranks them, for a snapshot; the reserve is unchanged. */
    toJSON(count: number, score: (payload: T) => number): LinkReserveJSON<T> {
        return { links: this.#ranked(score).slice(0, Math.max(0, count)) };
    }

    #ranked(score: (payload: T) => number): ReservedLink<T>[] {
        const scored = [...this.#links.values()].map((link) => ({ link, score: score(link.payload), dry: link.cause === 'dry-subtree' }));
        scored.sort((a, b) => Number(a.dry) - Number(b.dry) || b.score - a.score);
        return scored.map((s) => s.link);
    }
}
