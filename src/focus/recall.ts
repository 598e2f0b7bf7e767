/**
 * How much of the site's relevant content a crawl has found, estimated from what it knows: the relevant pages it
 * fetched, and the link model's probability that each link it knows of but has not fetched leads to one.
 *
 * Each unfetched link is a Bernoulli trial with the model's posterior predictive probability, so the relevant pages
 * left are a Poisson-binomial count: its mean is the sum of the probabilities and its variance Σ p(1 − p). The
 * interval takes the model's own uncertainty (each link's credible interval) and the count's spread (a normal
 * approximation) together. Relevant pages that no known link leads to cannot be seen, so the estimate leans high
 * early in a crawl, while most of the site is undiscovered.
 */
import type { LinkProbability } from './calibration.js';

/** `FOCUS_REPORT.estimatedRecall`: found / (found + expected left), with an interval. */
export interface RecallEstimate {
    /** Point estimate, 0…1. */
    value: number;
    low: number;
    high: number;
    /** Relevant pages found (each new text once). */
    found: number;
    /** Relevant pages expected behind the links still queued (mean, and the interval's upper end). */
    expectedQueued: number;
    expectedQueuedHigh: number;
    /** Relevant pages expected behind links dropped for want of room in the frontier. */
    expectedDropped: number;
}

/** Sums of a Poisson-binomial count at the point probabilities and at both ends of their intervals. */
export interface ExpectedCount {
    mean: number;
    /** Sum of the lower ends of the links' intervals, and Σ p(1 − p) there. */
    low: number;
    lowVariance: number;
    high: number;
    highVariance: number;
}

export const NO_LINKS: ExpectedCount = Object.freeze({ mean: 0, low: 0, lowVariance: 0, high: 0, highVariance: 0 });

/** The expected count of productive links among `links`. */
export function expectedCount(links: Iterable<LinkProbability>): ExpectedCount {
    let mean = 0;
    let low = 0;
    let lowVariance = 0;
    let high = 0;
    let highVariance = 0;
    for (const link of links) {
        mean += link.probability;
        low += link.low;
        lowVariance += link.low * (1 - link.low);
        high += link.high;
        highVariance += link.high * (1 - link.high);
    }
    return { mean, low, lowVariance, high, highVariance };
}

/** Adds counts (queued links and dropped ones, say). */
export function addCounts(a: ExpectedCount, b: ExpectedCount): ExpectedCount {
    return { mean: a.mean + b.mean, low: a.low + b.low, lowVariance: a.lowVariance + b.lowVariance, high: a.high + b.high, highVariance: a.highVariance + b.highVariance };
}

/** The upper end of the count's interval at two-sided level z. */
export function countHigh(count: ExpectedCount, z: number): number {
    return count.high + z * Math.sqrt(count.highVariance);
}

/** The lower end of the count's interval (never below 0). */
export function countLow(count: ExpectedCount, z: number): number {
    return Math.max(0, count.low - z * Math.sqrt(count.lowVariance));
}

/**
 * Recall = found / (found + left). With nothing found the recall is 0 unless nothing can be left either, and a crawl
 * that found nothing and expects nothing knows nothing: its interval is (0, 1).
 */
export function estimateRecall(found: number, queued: ExpectedCount, dropped: ExpectedCount, z: number): RecallEstimate {
    const left = addCounts(queued, dropped);
    const ratio = (leftCount: number) => (found + leftCount > 0 ? found / (found + leftCount) : found > 0 ? 1 : 0);
    const lowLeft = countLow(left, z);
    return {
        value: ratio(left.mean),
        low: ratio(countHigh(left, z)),
        high: found === 0 && lowLeft === 0 ? 1 : ratio(lowLeft),
        found,
        expectedQueued: queued.mean,
        expectedQueuedHigh: countHigh(queued, z),
        expectedDropped: dropped.mean,
    };
}
