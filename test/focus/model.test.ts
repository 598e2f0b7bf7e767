import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkModel, PRIOR_PRECISION, PRIOR_WEIGHTS } from '../../src/focus/model.js';

describe('LinkModel', () => {
    it('uses the prior weights with zero samples', () => {
        const model = new LinkModel();
        expect(model.weights).toEqual([2.0, 1.5, 1.0, 0.5, 0.5, 1.0]);
        expect(model.samples).toBe(0);
        expect(model.deviations).toEqual(PRIOR_WEIGHTS.map(() => Math.sqrt(1 / PRIOR_PRECISION)));
    });

    it('does not let one surprising sample move a weight in use (a 404 behind a perfect anchor)', () => {
        const model = new LinkModel();
        expect(model.learn([1, 1, 1, 1, 1, 0.5], false)).toBe(false);
        expect(model.weights).toEqual(PRIOR_WEIGHTS);
    });

    it('changes a weight only once its posterior mean is more than 1.645 σ away from the weight in use', () => {
        const model = new LinkModel();
        // Links whose anchor covers the query but whose targets are irrelevant, again and again.
        let changedAt = -1;
        for (let i = 1; i <= 60 && changedAt < 0; i++) {
            const before = model.toJSON();
            const changed = model.learn([1, 0, 0, 0, 0, 0], false);
            const after = model.toJSON();
            const gate = 1.6448536 * Math.sqrt(1 / after.precision[0]!);
            const distance = Math.abs(after.mean[0]! - before.used[0]!);
            expect(changed).toBe(distance > gate);
            if (changed) changedAt = i;
        }
        expect(changedAt).toBeGreaterThan(1);
        expect(model.weights[0]).toBeLessThan(PRIOR_WEIGHTS[0]!);
        expect(model.weights.slice(1)).toEqual(PRIOR_WEIGHTS.slice(1)); // untouched features keep their prior
    });

    it('raises a weight that keeps predicting relevant targets better than the prior says', () => {
        const model = new LinkModel();
        // URL words alone, with an intercept that learns the base rate: relevant every time.
        for (let i = 0; i < 200; i++) model.learn([0, 1, 0, 0, 0, 0], true), model.learn([0, 0, 0, 0, 0, 0], false);
        expect(model.weights[1]).toBeGreaterThan(PRIOR_WEIGHTS[1]!);
    });

    it('never uses a negative weight', () => {
        const sample = fc.tuple(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }), fc.boolean());
        fc.assert(
            fc.property(fc.array(sample, { maxLength: 80 }), (samples) => {
                const model = new LinkModel();
                for (const [x, y] of samples) model.learn(x, y);
                for (const w of model.weights) expect(w).toBeGreaterThanOrEqual(0);
            }),
        );
    });

    it('drives the anchor weight to 0, not below, when anchors never predict relevance', () => {
        const model = new LinkModel();
        for (let i = 0; i < 300; i++) model.learn([1, 0, 0, 0, 0, 0], false), model.learn([0, 0, 0, 0, 0, 0], true);
        expect(model.weights[0]).toBe(0);
        expect(model.toJSON().mean[0]).toBeLessThan(0);
    });

    it('gates less strictly at a larger delta', () => {
        const strict = new LinkModel(0.01);
        const loose = new LinkModel(0.3);
        let strictAt = 0;
        let looseAt = 0;
        for (let i = 1; i <= 100; i++) {
            if (strict.learn([1, 0, 0, 0, 0, 0], false) && strictAt === 0) strictAt = i;
            if (loose.learn([1, 0, 0, 0, 0, 0], false) && looseAt === 0) looseAt = i;
        }
        expect(looseAt).toBeGreaterThan(0);
        expect(strictAt === 0 || strictAt > looseAt).toBe(true);
    });

    it('rejects malformed features with the expected layout', () => {
        expect(() => new LinkModel().learn([1, 2], true)).toThrow(/anchor, url, context, parent, phrase, locality/);
    });

    it('round-trips through JSON and keeps learning identically', () => {
        const model = new LinkModel();
        for (let i = 0; i < 10; i++) model.learn([i % 2, 0.5, 0.2, 0.3, i % 3 === 0 ? 1 : 0, i % 5 === 0 ? -0.25 : 0.125], i % 4 === 0);
        const copy = LinkModel.fromJSON(JSON.parse(JSON.stringify(model)));
        expect(copy.toJSON()).toEqual(model.toJSON());
        expect(copy.learn([1, 1, 0, 0, 1, 0], false)).toBe(model.learn([1, 1, 0, 0, 1, 0], false));
        expect(copy.toJSON()).toEqual(model.toJSON());
    });
});
