import { assertDelta, DEFAULT_DELTA } from './delta.js';
import { normalQuantile } from './special.js';

/** A confidence interval for a proportion: `[lower, upper]`, both in [0, 1]. */
export type Interval = [lower: number, upper: number];

const twoSidedCache = new Map<number, number>();
const oneSidedCache = new Map<number, number>();

/**
 * z = Φ⁻¹(1 − δ/2), the quantile of a two-sided test at level 1 − δ (1.959964 for δ = 0.05).
 * Cached per δ: callers may ask on every decision.
 * @throws RangeError unless 0 < δ < 1.
 */
export function twoSidedZ(delta: number = DEFAULT_DELTA): number {
    let z = twoSidedCache.get(delta);
    if (z === undefined) {
        assertDelta(delta);
        z = normalQuantile(1 - delta / 2);
        twoSidedCache.set(delta, z);
    }
    return z;
}

/**
 * z = Φ⁻¹(1 − δ), the quantile of a one-sided test at level 1 − δ (1.644854 for δ = 0.05; the
 * significance gate of the online link model). Cached per δ.
 * @throws RangeError unless 0 < δ < 1.
 */
export function oneSidedZ(delta: number = DEFAULT_DELTA): number {
    let z = oneSidedCache.get(delta);
    if (z === undefined) {
        assertDelta(delta);
        z = normalQuantile(1 - delta);
        oneSidedCache.set(delta, z);
    }
    return z;
}

/**
 * Wilson score interval for `hits` successes out of `n` trials at quantile `z` (Wilson, JASA 22,
 * 1927). With no trials the interval is the whole [0, 1]. Exact 0 / 1 ends when hits = 0 / n.
 * @throws RangeError unless 0 ≤ hits ≤ n and z ≥ 0.
 */
export function wilsonZ(hits: number, n: number, z: number): Interval {
    if (!(hits >= 0 && hits <= n) || !(z >= 0)) {
        throw new RangeError(`wilsonZ: need 0 <= hits <= n and z >= 0, got hits=${hits}, n=${n}, z=${z}`);
    }
    if (n === 0) return [0, 1];
    const p = hits / n;
    const z2n = (z * z) / n;
    const denom = 1 + z2n;
    const centre = (p + z2n / 2) / denom;
    const half = (z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))) / denom;
    const lower = hits === 0 ? 0 : Math.max(0, centre - half);
    const upper = hits === n ? 1 : Math.min(1, centre + half);
    return [lower, upper];
}

/**
 * Two-sided Wilson interval at level 1 − δ, i.e. `wilsonZ(hits, n, Φ⁻¹(1 − δ/2))`.
 * (0, 1) → [0, 0.7935]; (5, 10) → [0.2366, 0.7634]; (0, 0) → [0, 1].
 */
export function wilson(hits: number, n: number, delta: number = DEFAULT_DELTA): Interval {
    return wilsonZ(hits, n, twoSidedZ(delta));
}
