/**
 * Per-host politeness: how many requests each host has in flight, and the earliest time it may be asked again (a delay
 * after every request, robots.txt's `Crawl-delay`, a `Retry-After` back-off). One schedule for the in-process
 * frontier and the in-memory frontier store; the Redis store keeps the same state in its own keys.
 */
export class HostSchedule {
    readonly #inFlight = new Map<string, number>();
    readonly #nextAllowedAt = new Map<string, number>();
    /** Hosts one of whose requests has ended with an answer ({@link answered}). */
    readonly #answered = new Set<string>();

    /**
     * @param maxInFlight Requests one host may have in flight at once.
     * @param maxInFlightUntilAnswered The same for a host none of whose requests has ended yet: a host that is down,
     *   or missing from a capture, then fails that many pages of the budget before it is known, not a whole burst.
     */
    constructor(
        readonly maxInFlight: number,
        readonly maxInFlightUntilAnswered = 1,
    ) {
        if (!(maxInFlight >= 1)) throw new RangeError(`HostSchedule needs maxInFlight ≥ 1, got ${maxInFlight}.`);
        if (!(maxInFlightUntilAnswered >= 1)) throw new RangeError(`HostSchedule needs maxInFlightUntilAnswered ≥ 1, got ${maxInFlightUntilAnswered}.`);
    }

    /** Requests the host has in flight. */
    inFlight(host: string): number {
        return this.#inFlight.get(host) ?? 0;
    }

    /** True when the host is at its in-flight limit (the lower one until it has answered). */
    isFull(host: string): boolean {
        const limit = this.#answered.has(host) ? this.maxInFlight : Math.min(this.maxInFlight, this.maxInFlightUntilAnswered);
        return this.inFlight(host) >= limit;
    }

    /** A request to the host ended with the host's answer (a page, an error status, a failure for good). */
    answered(host: string): void {
        this.#answered.add(host);
    }

    /** The hosts that have answered, for a snapshot. */
    answeredHosts(): string[] {
        return [...this.#answered];
    }

    /** The time before which the host must not be asked (0 when it may be asked now). */
    allowedAt(host: string): number {
        return this.#nextAllowedAt.get(host) ?? 0;
    }

    /** True when the host may take another request at `now`. */
    isFree(host: string, now: number): boolean {
        return !this.isFull(host) && this.allowedAt(host) <= now;
    }

    /** Records a request sent to the host at `now`; the host then waits `delayMillis` before the next. */
    start(host: string, now: number, delayMillis = 0): void {
        this.#inFlight.set(host, this.inFlight(host) + 1);
        if (delayMillis > 0) this.holdUntil(host, now + delayMillis);
    }

    /** A request to the host ended (handled, failed or given back). */
    finish(host: string): void {
        const count = this.inFlight(host) - 1;
        if (count > 0) this.#inFlight.set(host, count);
        else this.#inFlight.delete(host);
    }

    /** Keeps the host idle until `untilMillis`; an earlier time never shortens a wait. */
    holdUntil(host: string, untilMillis: number): void {
        this.#nextAllowedAt.set(host, Math.max(this.allowedAt(host), untilMillis));
    }

    /** The latest of `since` and every host's wait that has begun by `now`: the watchdog's "last sign of life". */
    latestWait(since: number, now: number): number {
        let latest = since;
        for (const allowedAt of this.#nextAllowedAt.values()) latest = Math.max(latest, Math.min(allowedAt, now));
        return latest;
    }
}
