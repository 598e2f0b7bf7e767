import { describe, expect, it } from 'vitest';
import { MIN_WEIGHT, RESCORE_DELTA, TermWeights, WEIGHT_MIN_PAGES } from '../../src/focus/weights.js';

describe('TermWeights', () => {
    it(`weighs every term 1 until ${WEIGHT_MIN_PAGES} pages`, () => {
        const weights = new TermWeights(3);
        for (let i = 1; i < WEIGHT_MIN_PAGES; i++) {
            weights.observe(0b001);
            expect(weights.weights).toEqual([1, 1, 1]);
        }
        weights.observe(0b001);
        expect(weights.weights).not.toEqual([1, 1, 1]);
    });

    it(`floors a term present on every page at MIN_WEIGHT = ${MIN_WEIGHT} and keeps rare terms at most 1`, () => {
        const weights = new TermWeights(2);
        for (let i = 0; i < 40; i++) weights.observe(i === 0 ? 0b11 : 0b01); // term 0 everywhere, term 1 once
        const [everywhere, rare] = weights.weights;
        expect(everywhere).toBe(MIN_WEIGHT);
        // ln(41 / 1.5) / ln(41) = 0.891
        expect(rare).toBeCloseTo(Math.log(41 / 1.5) / Math.log(41), 12);
        expect(rare).toBeLessThanOrEqual(1);
    });

    it('gives a term on no page the full weight 1 (clamped)', () => {
        const weights = new TermWeights(2);
        for (let i = 0; i < 5; i++) weights.observe(0b01);
        expect(weights.weights[1]).toBe(1);
    });

    it('coverage is the weighted share of the query: a rare term covers more than a common one', () => {
        const weights = new TermWeights(2);
        for (let i = 0; i < 20; i++) weights.observe(i < 2 ? 0b11 : 0b01);
        expect(weights.coverage(0)).toBe(0);
        expect(weights.coverage(0b11)).toBeCloseTo(1, 12);
        expect(weights.coverage(0b10)).toBeGreaterThan(weights.coverage(0b01));
        expect(weights.coverage(0b01) + weights.coverage(0b10)).toBeCloseTo(1, 12);
    });

    it(`reports moved weights once per move larger than RESCORE_DELTA = ${RESCORE_DELTA}`, () => {
        const weights = new TermWeights(2);
        weights.observe(0b01);
        weights.observe(0b01);
        expect(weights.weightsMoved()).toBe(false); // still the start weights
        weights.observe(0b01); // term 0 on 3 of 3 pages: its weight drops to the floor
        expect(weights.weightsMoved()).toBe(true);
        expect(weights.weightsMoved()).toBe(false); // the snapshot was taken
        weights.observe(0b01);
        expect(weights.weightsMoved()).toBe(false); // small drift stays below the threshold
    });

    it('round-trips through JSON, including the re-score snapshot', () => {
        const weights = new TermWeights(3);
        for (const mask of [0b001, 0b011, 0b001, 0b101]) weights.observe(mask);
        weights.weightsMoved();
        weights.observe(0b001);
        const copy = TermWeights.fromJSON(JSON.parse(JSON.stringify(weights)));
        expect(copy.weights).toEqual(weights.weights);
        expect(copy.pages).toBe(weights.pages);
        copy.observe(0b100);
        weights.observe(0b100);
        expect(copy.weightsMoved()).toBe(weights.weightsMoved());
        expect(copy.weights).toEqual(weights.weights);
    });
});
