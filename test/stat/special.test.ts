import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gammaP, gammaQ, lnGamma, normalQuantile } from '../../src/stat/index.js';

describe('normalQuantile', () => {
    it('gives the quantiles the spec uses (§8)', () => {
        expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
        expect(normalQuantile(0.95)).toBeCloseTo(1.644854, 6);
        expect(normalQuantile(0.5)).toBe(0);
    });

    it('matches high-precision references within 1e-9 over the whole range', () => {
        // Φ⁻¹(p) from mpmath at 60 digits (bisection on ncdf).
        const reference: [number, number][] = [
            [1e-300, -37.0470962993612],
            [1e-10, -6.361340902404056],
            [0.001, -3.090232306167814],
            [0.02, -2.053748910631823],
            [0.3, -0.5244005127080407],
            [0.7, 0.5244005127080407],
            [0.999, 3.090232306167814],
        ];
        for (const [p, x] of reference) expect(Math.abs(normalQuantile(p) - x)).toBeLessThan(1e-9);
    });

    it('is antisymmetric around ½ and increasing', () => {
        fc.assert(
            fc.property(fc.double({ min: 1e-6, max: 0.5, noNaN: true }), (p) => {
                // (1 − p is rounded; below 1e-6 that rounding alone moves the quantile by > 1e-6)
                expect(normalQuantile(p)).toBeCloseTo(-normalQuantile(1 - p), 6);
                expect(normalQuantile(p)).toBeLessThanOrEqual(normalQuantile(Math.min(0.999, p + 0.001)));
            }),
        );
    });

    it('throws a RangeError outside (0, 1)', () => {
        for (const p of [0, 1, -0.1, 1.5, NaN, Infinity]) expect(() => normalQuantile(p)).toThrow(RangeError);
    });
});

describe('lnGamma', () => {
    it('gives ln((n−1)!) at the integers and ln √π at ½', () => {
        let factorial = 1;
        for (let n = 1; n <= 30; n++) {
            expect(lnGamma(n)).toBeCloseTo(Math.log(factorial), 10);
            factorial *= n;
        }
        expect(lnGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    });

    it('handles small, large and negative arguments', () => {
        expect(lnGamma(1e-3)).toBeCloseTo(6.907178885383854, 10); // mpmath
        expect(lnGamma(171)).toBeCloseTo(706.5730622457874, 8);
        expect(lnGamma(1e5)).toBeCloseTo(1051287.7089736569, 4);
        expect(lnGamma(-0.5)).toBeCloseTo(Math.log(2 * Math.sqrt(Math.PI)), 12); // |Γ(−½)| = 2√π
        expect(lnGamma(0)).toBe(Infinity);
        expect(lnGamma(-3)).toBe(Infinity);
        expect(lnGamma(NaN)).toBeNaN();
    });
});

describe('gammaP / gammaQ', () => {
    it('gives the collocation tails of §8 and §10', () => {
        expect(gammaP(6, 2)).toBeCloseTo(0.016564, 6);
        expect(gammaP(5, 2)).toBeCloseTo(0.052653, 6);
    });

    it('equals the Poisson tail Pr[Poisson(λ) ≥ k] for integer k', () => {
        fc.assert(
            fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0.01, max: 60, noNaN: true }), (k, lambda) => {
                let below = 0; // Pr[X < k]
                let term = Math.exp(-lambda);
                for (let j = 0; j < k; j++) {
                    below += term;
                    term *= lambda / (j + 1);
                }
                expect(gammaP(k, lambda)).toBeCloseTo(1 - below, 9);
            }),
        );
    });

    it('is 1 − e^{−x} for a = 1 (both branches)', () => {
        for (const x of [0.1, 1, 1.9, 2.1, 5, 30]) expect(gammaP(1, x)).toBeCloseTo(1 - Math.exp(-x), 12);
    });

    it('P + Q = 1, both in [0, 1], P increasing in x', () => {
        fc.assert(
            fc.property(
                fc.double({ min: 0.05, max: 500, noNaN: true }),
                fc.double({ min: 0, max: 1000, noNaN: true }),
                (a, x) => {
                    const p = gammaP(a, x);
                    const q = gammaQ(a, x);
                    expect(p).toBeGreaterThanOrEqual(0);
                    expect(p).toBeLessThanOrEqual(1);
                    expect(p + q).toBeCloseTo(1, 9);
                    expect(gammaP(a, x * 1.1 + 0.01)).toBeGreaterThanOrEqual(p - 1e-12);
                },
            ),
        );
    });

    it('keeps small upper tails precise in gammaQ', () => {
        // Q(2, 50) = e^{−50}·(1 + 50) = 9.8366242246159807e-21 (mpmath)
        expect(gammaQ(2, 50) / 9.8366242246159807e-21).toBeCloseTo(1, 10);
    });

    it('has the limits at 0 and ∞ and rejects invalid arguments', () => {
        expect(gammaP(3, 0)).toBe(0);
        expect(gammaQ(3, 0)).toBe(1);
        expect(gammaP(3, Infinity)).toBe(1);
        for (const [a, x] of [[0, 1], [-1, 1], [1, -1], [NaN, 1], [1, NaN]] as const) {
            expect(() => gammaP(a, x)).toThrow(RangeError);
            expect(() => gammaQ(a, x)).toThrow(RangeError);
        }
    });
});
