/**
 * The requests a frontier has handed out and not seen end: those in flight, and those given back for a retry, which
 * are served before the queue and outside the page budget.
 */

/** A request handed out, with what the frontier knows of it. */
export interface Flight<R, E> {
    request: R;
    entry: E;
    /** Its politeness host. */
    host: string;
    /** When it was last handed out (ms); the stall watchdog reclaims requests held far longer than any timeout. */
    takenAt?: number;
    /** Its place in the hand-out order. */
    order?: number;
    /** Requests handed out after it that have ended while it is still in flight: how far slower pages left it behind. */
    overtaken?: number;
}

export class InFlightRequests<R extends { id?: string }, E> {
    readonly #flying = new Map<string, Flight<R, E>>();
    #retries: Array<Flight<R, E>> = [];
    #handedOut = 0;

    /** Requests in flight. */
    get flying(): number {
        return this.#flying.size;
    }

    /** Requests waiting for a retry. */
    get waiting(): number {
        return this.#retries.length;
    }

    /** Nothing in flight and nothing waiting for a retry. */
    get isIdle(): boolean {
        return this.#flying.size === 0 && this.#retries.length === 0;
    }

    /** The first retry whose host may take it now, taken out of the waiting list. */
    takeRetry(mayGo: (flight: Flight<R, E>) => boolean): Flight<R, E> | undefined {
        const index = this.#retries.findIndex(mayGo);
        return index < 0 ? undefined : this.#retries.splice(index, 1)[0];
    }

    /** Whether some retry's host may take it now. */
    hasRetry(mayGo: (flight: Flight<R, E>) => boolean): boolean {
        return this.#retries.some(mayGo);
    }

    /** A request goes out at `now`. */
    start(flight: Flight<R, E>, now: number): void {
        flight.takenAt = now;
        flight.order = ++this.#handedOut;
        flight.overtaken = 0;
        this.#flying.set(flight.request.id!, flight);
    }

    get(id: string): Flight<R, E> | undefined {
        return this.#flying.get(id);
    }

    /** The request in flight ended (handled, failed, or given back); returns it, or nothing if it was not in flight. */
    land(id: string): Flight<R, E> | undefined {
        const flight = this.#flying.get(id);
        if (!flight) return undefined;
        this.#flying.delete(id);
        for (const earlier of this.#flying.values()) if ((earlier.order ?? 0) < (flight.order ?? 0)) earlier.overtaken = (earlier.overtaken ?? 0) + 1;
        return flight;
    }

    /** The requests in flight. */
    flyingNow(): IterableIterator<Flight<R, E>> {
        return this.#flying.values();
    }

    /** A request waiting for a retry ended after all (the watchdog reclaimed it, and its first attempt finished). */
    dropRetry(id: string): Flight<R, E> | undefined {
        const index = this.#retries.findIndex((flight) => flight.request.id === id);
        return index < 0 ? undefined : this.#retries.splice(index, 1)[0];
    }

    /** Queues a request for a retry: first with `forefront`, else last. */
    retry(flight: Flight<R, E>, forefront = false): void {
        if (forefront) this.#retries.unshift(flight);
        else this.#retries.push(flight);
    }

    /** The requests in flight since before `now − olderThanMillis`, landed and queued first for a retry. */
    reclaimOlderThan(olderThanMillis: number, now: number): Array<Flight<R, E>> {
        const stalled: Array<Flight<R, E>> = [];
        for (const [id, flight] of [...this.#flying]) {
            if (now - (flight.takenAt ?? 0) < olderThanMillis) continue;
            this.#flying.delete(id);
            this.#retries.unshift(flight);
            stalled.push(flight);
        }
        return stalled;
    }

    /** Requests waiting for a retry, in serving order. */
    retries(): ReadonlyArray<Flight<R, E>> {
        return this.#retries;
    }

    /** Every request not ended: waiting for a retry, then in flight (a snapshot saves them all as pending). */
    all(): Array<Flight<R, E>> {
        return [...this.#retries, ...this.#flying.values()];
    }
}
