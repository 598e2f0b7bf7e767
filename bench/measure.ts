// Timing helpers shared by the microbenchmarks (`npm run bench`).

export interface Timing {
    cpuSeconds: number;
    wallSeconds: number;
}

/**
 * CPU time of this process, not wall time: on a shared machine the wall clock also counts time
 * spent waiting for a core. It includes V8's helper threads, so it overstates one core's time.
 */
export class Stopwatch {
    private readonly cpuStart = process.cpuUsage();
    private readonly wallStart = performance.now();
    stop(): Timing {
        const { user, system } = process.cpuUsage(this.cpuStart);
        return { cpuSeconds: (user + system) / 1e6, wallSeconds: (performance.now() - this.wallStart) / 1000 };
    }
}

/** A full GC when node runs with `--expose-gc` (`npm run bench` does), so one measurement does not pay for another's garbage. */
export function collectGarbage(): void {
    (globalThis as { gc?: () => void }).gc?.();
}

/** The mean of `values` (NaN for none). */
export function mean(values: readonly number[]): number {
    return values.reduce((sum, x) => sum + x, 0) / values.length;
}

/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
