import type { FrontierStore, LeaseRef } from './frontier-store.js';

export interface LeaseHeartbeatOptions {
    /** Time between heartbeats, in ms: a third of the lease, so two beats may be late before it expires. @default store.options.leaseMillis / 3 */
    intervalMillis?: number;
    /** Called once for each lease found lost (reclaimed and handed out again): its page must not be delivered. */
    onLost?: (lease: LeaseRef) => void;
    /** Called when a beat fails (the store is unreachable); the next beat tries again. @default ignore */
    onError?: (error: unknown) => void;
}

/**
 * Keeps a worker's leases alive while their pages are being fetched: one `extend` call per interval for all of them,
 * so heartbeat traffic does not grow with concurrency. The timer does not hold the process open.
 */
export class LeaseHeartbeat {
    private readonly leases = new Map<string, LeaseRef>();
    private readonly intervalMillis: number;
    private readonly onLost: (lease: LeaseRef) => void;
    private readonly onError: (error: unknown) => void;
    private timer: ReturnType<typeof setInterval> | undefined;
    private beating = false;

    constructor(
        private readonly store: Pick<FrontierStore, 'extend' | 'options'>,
        options: LeaseHeartbeatOptions = {},
    ) {
        this.intervalMillis = options.intervalMillis ?? Math.max(1, Math.floor(store.options.leaseMillis / 3));
        this.onLost = options.onLost ?? (() => {});
        this.onError = options.onError ?? (() => {});
    }

    get size(): number {
        return this.leases.size;
    }

    /** Starts keeping a lease alive (and the timer, with the first lease). */
    add(lease: LeaseRef): void {
        this.leases.set(lease.key, { key: lease.key, token: lease.token });
        this.timer ??= setInterval(() => void this.beat(), this.intervalMillis).unref();
    }

    /** Stops keeping a lease alive: call it before committing or retrying. */
    delete(lease: LeaseRef): void {
        if (this.leases.get(lease.key)?.token === lease.token) this.leases.delete(lease.key);
        if (this.leases.size === 0) this.stop();
    }

    stop(): void {
        clearInterval(this.timer);
        this.timer = undefined;
    }

    /** Extends every held lease now; drops and reports the lost ones. One beat at a time. */
    async beat(): Promise<void> {
        if (this.beating || this.leases.size === 0) return;
        this.beating = true;
        try {
            const held = [...this.leases.values()];
            const deadlines = await this.store.extend(held);
            held.forEach((lease, i) => {
                if (deadlines[i] !== null) return;
                this.delete(lease);
                this.onLost(lease);
            });
        } catch (error) {
            this.onError(error);
        } finally {
            this.beating = false;
        }
    }
}
