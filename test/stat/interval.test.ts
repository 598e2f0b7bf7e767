import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DELTA, oneSidedZ, twoSidedZ, wilson, wilsonZ } from '../../src/stat/index.js';

/** The textbook Wilson interval at z = 1.96. */
function classic(h: number, n: number): [number, number] {
    const z = 1.96;
    const p = h / n;
    const d = 1 + (z * z) / n;
    const c = (p + (z * z) / (2 * n)) / d;
    const w = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
    return [Math.max(0, c - w), Math.min(1, c + w)];
}

describe('wilson', () => {
    it('reproduces the reference intervals of §8', () => {
        const cases: [number, number, number, number][] = [
            [0, 1, 0, 0.7935],
            [3, 4, 0.3006, 0.9544],
            [5, 40, 0.0546, 0.2611],
            [40, 40, 0.9124, 1],
            [0, 3, 0, 0.5615],
            [5, 10, 0.2366, 0.7634],
        ];
        for (const [h, n, lower, upper] of cases) {
            const [l, u] = wilson(h, n);
            expect(l).toBeCloseTo(lower, 4);
            expect(u).toBeCloseTo(upper, 4);
        }
    });

    it('wilson_uses_two_sided_delta: δ = 0.05 equals the classic z = 1.96 formula within 1e-4', () => {
        expect(DEFAULT_DELTA).toBe(0.05);
        for (const [h, n] of [[0, 1], [3, 4], [5, 40], [40, 40]] as const) {
            const [l, u] = wilson(h, n);
            const [cl, cu] = classic(h, n);
            expect(Math.abs(l - cl)).toBeLessThan(1e-4);
            expect(Math.abs(u - cu)).toBeLessThan(1e-4);
        }
        expect(wilson(0, 0)).toEqual([0, 1]);
    });

    it('makes a zero-yield part dry at 13 pages against 5 hits in 10 (§7.1 worked numbers)', () => {
        const restLower = wilson(5, 10)[0];
        expect(wilson(0, 12)[1]).toBeGreaterThan(restLower);
        expect(wilson(0, 13)[1]).toBeLessThan(restLower);
        expect(wilson(0, 13)[1]).toBeCloseTo(3.8415 / 16.8415, 4);
    });

    it('stays within [0, 1] and contains the point estimate', () => {
        fc.assert(
            fc.property(fc.integer({ min: 1, max: 100_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, share) => {
                const h = Math.round(share * n);
                const [l, u] = wilson(h, n);
                expect(0).toBeLessThanOrEqual(l);
                expect(l).toBeLessThanOrEqual(h / n);
                expect(h / n).toBeLessThanOrEqual(u);
                expect(u).toBeLessThanOrEqual(1);
            }),
        );
    });

    it('narrows as the sample grows at the same share', () => {
        fc.assert(
            fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 2, max: 50 }), (n, h0, k) => {
                const h = h0 % (n + 1);
                const [l1, u1] = wilson(h, n);
                const [l2, u2] = wilson(h * k, n * k);
                expect(u2 - l2).toBeLessThan(u1 - l1);
            }),
        );
    });

    it('widens with a smaller δ', () => {
        const [l1, u1] = wilson(5, 20, 0.05);
        const [l2, u2] = wilson(5, 20, 0.01);
        expect(l2).toBeLessThan(l1);
        expect(u2).toBeGreaterThan(u1);
    });

    it('rejects impossible counts and deltas', () => {
        expect(() => wilson(3, 2)).toThrow(RangeError);
        expect(() => wilson(-1, 2)).toThrow(RangeError);
        expect(() => wilson(1, 2, 0)).toThrow(RangeError);
        expect(() => wilson(1, 2, 1)).toThrow(RangeError);
        expect(() => wilsonZ(1, 2, -1)).toThrow(RangeError);
    });
});

describe('z for a level', () => {
    it('is Φ⁻¹(1 − δ/2) two-sided and Φ⁻¹(1 − δ) one-sided, cached per δ', () => {
        expect(twoSidedZ()).toBeCloseTo(1.959964, 6);
        expect(oneSidedZ()).toBeCloseTo(1.644854, 6);
        expect(twoSidedZ(0.01)).toBeCloseTo(2.575829, 6);
        expect(twoSidedZ(0.05)).toBe(twoSidedZ(0.05));
        expect(wilsonZ(5, 10, twoSidedZ(0.1))).toEqual(wilson(5, 10, 0.1));
    });
});
