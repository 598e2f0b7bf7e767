import type { StallState } from './request-manager.js';

/** What the watchdog watches: the focused frontier. */
export interface Stallable {
    stallState(now: number): StallState;
    reclaimStalled(olderThanMillis: number, now: number): number;
}

export interface StallWatchdogOptions {
    /**
     * How long work may be pending with nothing taken, handled or reclaimed before the watchdog acts. Must exceed the
     * longest a single request may legitimately take (navigation plus handler timeouts).
     */
    stallTimeoutMillis: number;
    /** Called when the watchdog has handed stuck requests out again (`reclaimed` of them were in flight). */
    onReclaim: (reclaimed: number) => void;
    /** Called once when reclaiming did not help for another `stallTimeoutMillis`: the crawl must stop. */
    onStall: () => void;
    /** How often to look. @default min(5 s, stallTimeoutMillis / 4) */
    checkEveryMillis?: number;
}

/** One look at the frontier: nothing to do, reclaim stuck requests, keep waiting after a reclaim, or give up. */
export type WatchdogVerdict = 'ok' | 'reclaimed' | 'waiting' | 'stalled';

/**
 * Ends the one way a crawl could otherwise sit idle forever while it looks alive: requests pending and nothing
 * moving. It first hands stuck requests out again; if that does not help either, the crawl stops as `stalled`.
 */
export class StallWatchdog {
    private reclaimedAt: number | null = null;
    private timer: NodeJS.Timeout | null = null;
    private gaveUp = false;

    constructor(
        private readonly target: Stallable,
        private readonly options: StallWatchdogOptions,
    ) {
        if (!(options.stallTimeoutMillis > 0)) throw new RangeError(`stallTimeoutMillis must be > 0, got ${options.stallTimeoutMillis}`);
    }

    start(): void {
        if (this.timer) return;
        const every = this.options.checkEveryMillis ?? Math.min(5000, this.options.stallTimeoutMillis / 4);
        this.timer = setInterval(() => this.check(), every);
        this.timer.unref(); // the watchdog never keeps a finished process alive
    }

    stop(): void {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
    }

    check(now = Date.now()): WatchdogVerdict {
        if (this.gaveUp) return 'stalled';
        const timeout = this.options.stallTimeoutMillis;
        const { pending, idleMillis } = this.target.stallState(now);
        if (!pending || idleMillis < timeout) {
            this.reclaimedAt = null;
            return 'ok';
        }
        if (this.reclaimedAt === null) {
            this.reclaimedAt = now;
            this.options.onReclaim(this.target.reclaimStalled(timeout, now));
            return 'reclaimed';
        }
        if (now - this.reclaimedAt < timeout) return 'waiting';
        this.gaveUp = true;
        this.stop();
        this.options.onStall();
        return 'stalled';
    }
}
