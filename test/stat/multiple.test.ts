import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benjaminiHochberg, gammaP } from '../../src/stat/index.js';

/** The collocation test of §8: p = 1 when never adjacent, else the Poisson tail. */
function phrases(pairs: [observed: number, expected: number][]): boolean[] {
    return benjaminiHochberg(pairs.map(([k, lambda]) => (k <= 0 ? 1 : gammaP(k, lambda))));
}

describe('benjaminiHochberg', () => {
    it('collocation_is_a_poisson_tail_test_with_bh (§10)', () => {
        expect(phrases([[6, 2]])).toEqual([true]); // p = 0.0166
        expect(phrases([[5, 2]])).toEqual([false]); // p = 0.0527
        expect(phrases([[0, 0]])).toEqual([false]);
        // smallest p against δ/2, the second against δ
        expect(phrases([[6, 2], [5, 2]])).toEqual([true, false]);
        expect(phrases([[5, 2], [6, 2]])).toEqual([false, true]);
        expect(phrases([[5, 2], [5, 2]])).toEqual([false, false]);
    });

    it('rejects the r smallest for the largest r with p(r) ≤ δ·r/m, in input order', () => {
        // m = 5, thresholds 0.01 0.02 0.03 0.04 0.05: the 4th smallest (0.035) passes, so the
        // three smaller ones are rejected with it even though 0.025 > 0.02.
        expect(benjaminiHochberg([0.5, 0.035, 0.001, 0.025, 0.012])).toEqual([false, true, true, true, true]);
        expect(benjaminiHochberg([0.5, 0.045, 0.001, 0.025, 0.042])).toEqual([false, false, true, false, false]);
    });

    it('handles empty input, ties, NaN and a custom δ', () => {
        expect(benjaminiHochberg([])).toEqual([]);
        expect(benjaminiHochberg([0.02, 0.02])).toEqual([true, true]);
        expect(benjaminiHochberg([NaN, 0.001])).toEqual([false, true]);
        expect(benjaminiHochberg([0.08], 0.1)).toEqual([true]);
        expect(() => benjaminiHochberg([0.1], 0)).toThrow(RangeError);
    });

    it('is monotone: a smaller p is rejected whenever a larger one is', () => {
        fc.assert(
            fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }), (p) => {
                const r = benjaminiHochberg(p);
                for (let i = 0; i < p.length; i++) {
                    for (let j = 0; j < p.length; j++) if (r[i] && p[j]! <= p[i]!) expect(r[j]).toBe(true);
                }
            }),
        );
    });

    it('is monotone in the data and in δ: lowering a p-value or raising δ never un-rejects', () => {
        fc.assert(
            fc.property(
                fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 30 }),
                fc.nat(),
                fc.double({ min: 0, max: 1, noNaN: true }),
                (p, index, factor) => {
                    const before = benjaminiHochberg(p);
                    const lowered = p.slice();
                    lowered[index % p.length]! *= factor;
                    const after = benjaminiHochberg(lowered);
                    const wider = benjaminiHochberg(p, 0.2);
                    for (let i = 0; i < p.length; i++) {
                        if (before[i]) expect(after[i]).toBe(true);
                        if (before[i]) expect(wider[i]).toBe(true);
                    }
                },
            ),
        );
    });
});
