import { describe, expect, it } from 'vitest';

import { AdaptiveStop, NO_LINKS, ScoreCalibration, estimateRecall, expectedCount, twoSidedZ } from '../../src/index.js';
import type { AdaptivePage, RecallEstimate } from '../../src/index.js';

const Z = twoSidedZ(0.05);
const sure = (p: number) => ({ probability: p, low: p, high: p });

describe('estimateRecall', () => {
    it('is found / (found + expected left), with the interval widening with the count and with the model', () => {
        const queued = expectedCount(Array.from({ length: 10 }, () => sure(0.5))); // 5 expected
        const estimate = estimateRecall(15, queued, NO_LINKS, Z);
        expect(estimate.value).toBeCloseTo(0.75);
        expect(estimate.low).toBeLessThan(0.75);
        expect(estimate.high).toBeGreaterThan(0.75);
        expect(estimate.expectedQueued).toBeCloseTo(5);
        const uncertain = expectedCount(Array.from({ length: 10 }, () => ({ probability: 0.5, low: 0.2, high: 0.8 })));
        const wider = estimateRecall(15, uncertain, NO_LINKS, Z);
        expect(wider.value).toBeCloseTo(0.75);
        expect(wider.high - wider.low).toBeGreaterThan(estimate.high - estimate.low);
    });

    it('counts links dropped for want of room as left behind, but not as queued', () => {
        const dropped = expectedCount(Array.from({ length: 20 }, () => sure(0.25)));
        const estimate = estimateRecall(5, NO_LINKS, dropped, Z);
        expect(estimate.value).toBeCloseTo(0.5);
        expect(estimate.expectedQueued).toBe(0);
        expect(estimate.expectedDropped).toBeCloseTo(5);
    });

    it('is certain when nothing is left, and knows nothing when nothing was found or expected', () => {
        expect(estimateRecall(7, NO_LINKS, NO_LINKS, Z)).toMatchObject({ value: 1, low: 1, high: 1 });
        expect(estimateRecall(0, NO_LINKS, NO_LINKS, Z)).toMatchObject({ value: 0, low: 0, high: 1 });
        expect(estimateRecall(0, expectedCount([sure(0.9)]), NO_LINKS, Z)).toMatchObject({ value: 0, low: 0, high: 0 });
    });

    it('holds the true recall about as often as it says, when the probabilities are right', () => {
        // 200 simulated crawls: 40 links left, each relevant with its own known probability
        let seed = 7;
        const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
        let inside = 0;
        for (let crawl = 0; crawl < 200; crawl++) {
            const probabilities = Array.from({ length: 40 }, () => random() * 0.6);
            const found = 20;
            const left = probabilities.filter((p) => random() < p).length;
            const estimate = estimateRecall(found, expectedCount(probabilities.map(sure)), NO_LINKS, Z);
            const truth = found / (found + left);
            if (truth >= estimate.low && truth <= estimate.high) inside++;
        }
        expect(inside / 200).toBeGreaterThanOrEqual(0.9);
    });
});

describe('ScoreCalibration', () => {
    it('is calibrated on scores whose pages pay off at a known rate, monotone in the score, and its interval narrows with data', () => {
        const calibration = new ScoreCalibration();
        const before = calibration.predict(1, Z);
        let seed = 3;
        const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
        // true rates: 0.05 for links scored 0, 0.6 for links scored 3
        for (let i = 0; i < 800; i++) {
            const score = random() < 0.5 ? 3 : 0;
            calibration.learn(score, random() < (score ? 0.6 : 0.05));
        }
        const low = calibration.predict(0, Z);
        const high = calibration.predict(3, Z);
        expect(low.probability).toBeGreaterThan(0.02);
        expect(low.probability).toBeLessThan(0.1);
        expect(high.probability).toBeGreaterThan(0.5);
        expect(high.probability).toBeLessThan(0.7);
        expect(calibration.predict(1, Z).probability).toBeGreaterThan(low.probability);
        expect(calibration.predict(1, Z).probability).toBeLessThan(high.probability);
        expect(low.low).toBeLessThan(low.probability);
        expect(low.high).toBeGreaterThan(low.probability);
        const after = calibration.predict(1, Z);
        expect(after.high - after.low).toBeLessThan(before.high - before.low);
        expect(ScoreCalibration.fromJSON(JSON.parse(JSON.stringify(calibration.toJSON()))).predict(2, Z)).toEqual(calibration.predict(2, Z));
    });

    it('follows a tail that pays off far less than the head, which one logistic slope could not', () => {
        // a crawl's usual shape: many score-0 links paying off 1 time in 50, a head paying off 2 times in 3
        const calibration = new ScoreCalibration();
        for (let i = 0; i < 200; i++) calibration.learn(0, i % 50 === 0);
        for (let i = 0; i < 90; i++) calibration.learn(1, i % 3 !== 0);
        for (let i = 0; i < 30; i++) calibration.learn(3, i % 10 !== 0);
        const tail = calibration.predict(0, Z);
        expect(tail.probability).toBeGreaterThan(0.01);
        expect(tail.probability).toBeLessThan(0.04);
        expect(tail.low).toBeLessThanOrEqual(0.02);
        expect(tail.high).toBeGreaterThanOrEqual(0.02);
        // 700 leftover tail links: about 14 productive pages expected, not the 70 a 10 % tail would claim
        expect(700 * tail.probability).toBeLessThan(25);
        expect(calibration.predict(1, Z).probability).toBeCloseTo(0.67, 1);
        expect(calibration.predict(3, Z).probability).toBeCloseTo(0.9, 1);
    });

    it('bounds a link from below only by the fetched links scored below it, so leftovers under a thin tail may be worth nothing', () => {
        // acl2020's shape: one low-scored fetch that paid nothing, 60 fetches higher up, and 1,000 leftovers in between
        const calibration = new ScoreCalibration();
        calibration.learn(0.02, false);
        for (let i = 0; i < 40; i++) calibration.learn(1, i % 8 === 0);
        for (let i = 0; i < 20; i++) calibration.learn(4, i % 5 !== 0);
        const leftover = calibration.predict(0.3, Z);
        expect(leftover.low).toBe(0);
        expect(leftover.high).toBeGreaterThan(0);
        expect(calibration.predict(0.001, Z).low).toBe(0);
        // between the two upper blocks the lower end is the lower block's, never the interpolation towards the higher
        expect(calibration.predict(3, Z).low).toBe(calibration.predict(1.1, Z).low);
        expect(calibration.predict(1.1, Z).low).toBeGreaterThan(0);
        expect(calibration.predict(4, Z).low).toBeGreaterThan(calibration.predict(3, Z).low);
        // so a crawl that found 50 pages and left 1,000 such links cannot rule out that it found them all
        const estimate = estimateRecall(50, NO_LINKS, expectedCount(Array.from({ length: 1000 }, () => leftover)), Z);
        expect(estimate.high).toBe(1);
        expect(estimate.low).toBeLessThan(estimate.value);
    });

    it('pools neighbouring scores whose rates fall, so the probabilities never fall as the score rises', () => {
        const calibration = new ScoreCalibration();
        // scores 0.5 and 1 pay off in the wrong order (6/10, then 2/10): pooled, both get 8/20
        for (let i = 0; i < 10; i++) calibration.learn(0.5, i < 6);
        for (let i = 0; i < 10; i++) calibration.learn(1, i < 2);
        for (let i = 0; i < 10; i++) calibration.learn(4, i < 9);
        const scores = [0, 0.5, 0.75, 1, 2, 4, 10];
        const probabilities = scores.map((score) => calibration.predict(score, Z).probability);
        for (let i = 1; i < probabilities.length; i++) expect(probabilities[i]).toBeGreaterThanOrEqual(probabilities[i - 1]!);
        expect(calibration.predict(0.5, Z).probability).toBeCloseTo(calibration.predict(0.75, Z).probability, 1);
        expect(calibration.predict(0.5, Z).probability).toBeCloseTo(8.5 / 21, 1);
    });
});

describe('AdaptiveStop with an outlook', () => {
    const query = { size: 1, terms: ['optics'], termsIn: (text: string) => new Set(text.includes('optics') ? [0] : []) };
    const relevant = (i: number): AdaptivePage => ({ relevance: 0.5, markdown: `optics guide ${i} ${'word '.repeat(50)}`, blind: false });
    const junk: AdaptivePage = { relevance: 0, markdown: 'nothing', blind: false };

    function pages(): AdaptivePage[] {
        return [...Array.from({ length: 12 }, (_, i) => relevant(i)), ...Array(40).fill(junk)];
    }

    function stopAt(outlook?: (found: number) => RecallEstimate): number {
        const stop = new AdaptiveStop(query, { patience: 3 });
        const list = pages();
        for (let i = 0; i < list.length; i++) if (stop.observe({ ...list[i]!, ...(outlook ? { outlook } : {}) }).stop) return i + 1;
        return Infinity;
    }

    const promising = (found: number): RecallEstimate => ({ value: found / (found + 8), low: 0.4, high: 0.8, found, expectedQueued: 8, expectedQueuedHigh: 12, expectedDropped: 0 });
    const exhausted = (found: number): RecallEstimate => ({ value: 0.97, low: 0.93, high: 1, found, expectedQueued: 0.2, expectedQueuedHigh: 0.6, expectedDropped: 0.2 });

    it('does not stop while the frontier still promises relevant pages, and stops as before when it does not', () => {
        const alone = stopAt();
        expect(alone).toBeLessThan(Infinity);
        expect(stopAt(promising)).toBe(Infinity);
        expect(stopAt(exhausted)).toBe(alone);
    });

    it('keeps the estimate the rule agreed with when it fired, through a snapshot, and none before', () => {
        const stop = new AdaptiveStop(query, { patience: 3 });
        const seen: RecallEstimate[] = [];
        const outlook = (found: number) => {
            const estimate = exhausted(found);
            seen.push(estimate);
            return estimate;
        };
        let stoppedAt = -1;
        pages().forEach((page, i) => {
            if (stoppedAt < 0 && stop.summary().stopEstimate !== null) throw new Error('an estimate before the stop');
            if (stop.observe({ ...page, outlook }).stop && stoppedAt < 0) stoppedAt = i;
        });
        expect(stoppedAt).toBeGreaterThan(0);
        // The stop is asked once and then repeated: the kept estimate is the one that decided.
        expect(stop.summary().stopEstimate).toBe(seen.at(-1));
        expect(stop.summary().stopEstimate).toEqual(exhausted(stop.foundPages));
        expect(AdaptiveStop.fromJSON(JSON.parse(JSON.stringify(stop.toJSON())), query).summary().stopEstimate).toEqual(exhausted(stop.foundPages));
    });

    it('counts pages in the evidence band with new text as found, not the neutral band, and restores the count from older snapshots', () => {
        const stop = new AdaptiveStop(query, { patience: 3 });
        const neutral: AdaptivePage = { relevance: 0.1, markdown: `optics ${'other '.repeat(50)}`, blind: false };
        const verdicts = [relevant(1), relevant(1), relevant(2), neutral, junk].map((page) => stop.observe(page));
        expect(verdicts.map((verdict) => verdict.found)).toEqual([true, false, true, false, false]);
        // the neutral page is still novel (it labels links), but the estimate does not count it as found
        expect(verdicts[3]!.novel).toBe(true);
        expect(stop.foundPages).toBe(2);
        expect(AdaptiveStop.fromJSON(JSON.parse(JSON.stringify(stop.toJSON())), query).foundPages).toBe(2);
        const json = stop.toJSON();
        delete json.foundPages;
        expect(AdaptiveStop.fromJSON(json, query).foundPages).toBe(json.sources);
    });
});
