/**
 * The single error-rate knob of every statistical decision in crawlee-focus (pagesift's
 * `Delta::DEFAULT`): Wilson intervals are two-sided at level 1 − δ, the link-model gate is
 * one-sided at 1 − δ, and Benjamini–Hochberg controls the false discovery rate at δ.
 * δ = 0.05 reproduces the classic z = 1.96 intervals (checked in test/stat/interval.test.ts).
 */
export const DEFAULT_DELTA = 0.05;

/** Throws a RangeError unless `delta` is a probability strictly between 0 and 1. */
export function assertDelta(delta: number): void {
    if (!(delta > 0 && delta < 1)) {
        throw new RangeError(`delta must be in (0, 1), got ${delta}`);
    }
}
