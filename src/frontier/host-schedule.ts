/**
 * Per-host politeness: how many requests each host has in flight, and the earliest time it may be asked again (a delay
 * after every request, robots.txt's `Crawl-delay`, a `Retry-After` back-off). One schedule for the in-process
 * frontier and the in-memory frontier store; the Redis store keeps the same state in its own keys.
 */
export class HostSchedule {
    readonly #inFlight = new Map<string, number>();
    readonly #nextAllowedAt = new Map<string, number>();

    /** @param maxInFlight Requests one host may have in flight at once. */
    constructor(readonly maxInFlight: number) {
        if (!(maxInFlight >= 1)) throw new RangeError(`HostSchedule needs maxInFlight ≥ 1, got ${maxInFlight}.`);
    }

    /** Requests the host has in flight. */
    inFlight(host: string): number {
        return this.#inFlight.get(host) ?? 0;
    }

    /** True when the host is at its in-flight limit. */
    isFull(host: string): boolean {
        return this.inFlight(host) >= this.maxInFlight;
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
