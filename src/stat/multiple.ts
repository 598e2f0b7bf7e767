import { assertDelta, DEFAULT_DELTA } from './delta.js';

/**
 * Benjamini–Hochberg step-up procedure (JRSS B 57(1), 1995): controls the false discovery rate
 * at δ over m simultaneous tests. Sort p ascending, find the largest rank r with
 * p₍ᵣ₎ ≤ δ·r/m and reject the r smallest. The result is in the order of the input:
 * `true` = rejected (a discovery). NaN p-values are never rejected.
 * @throws RangeError unless 0 < δ < 1.
 */
export function benjaminiHochberg(
    pValues: readonly number[],
    delta: number = DEFAULT_DELTA,
): boolean[] {
    assertDelta(delta);
    const m = pValues.length;
    const rejected = new Array<boolean>(m).fill(false);
    if (m === 0) return rejected;
    const p = (i: number): number => {
        const v = pValues[i]!;
        return Number.isNaN(v) ? Infinity : v;
    };
    const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => p(a) - p(b) || a - b);
    let r = 0;
    for (let k = m; k >= 1; k--) {
        if (p(order[k - 1]!) <= (delta * k) / m) {
            r = k;
            break;
        }
    }
    for (let k = 0; k < r; k++) rejected[order[k]!] = true;
    return rejected;
}
