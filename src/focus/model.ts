/**
 * Online link model: Bayesian logistic regression of "the page behind this link is productive" on the
 * six link features, so the weights of anchor, URL words, context, parent relevance, phrase and
 * sibling locality adapt to the site (on some sites URLs say everything, on others only anchors do).
 *
 * Diagonal-Gaussian Laplace approximation (Chapelle & Li, "An empirical evaluation of Thompson
 * sampling", NIPS 2011, Algorithm 3) with batches of one sample, no re-fit over old samples. The
 * prior means are the fixed weights, so with no data the score is the fixed formula; a learned
 * weight replaces the one in use only when it is significantly different.
 */
import { DEFAULT_DELTA, oneSidedZ } from '../stat/index.js';

/** The link features, in the order of {@link PRIOR_WEIGHTS}. */
export const LINK_FEATURES = ['anchor', 'url', 'context', 'parent', 'phrase', 'locality'] as const;
/** Link feature names. */
export type LinkFeature = (typeof LINK_FEATURES)[number];

/**
 * Prior means of the feature weights: pagesift "prior pack v0", the fixed weights of version 0.81,
 * for the first five; [I] 1.0 for locality (centred in (−½, ½): a neighbourhood that always paid off
 * is worth about one more anchor term of a two-term query).
 */
export const PRIOR_WEIGHTS: readonly number[] = Object.freeze([2.0, 1.5, 1.0, 0.5, 0.5, 1.0]);
/** Prior precision of every coordinate: Fisher information of one observation at p = ½, x = 1, the weakest single observation (pagesift model.rs). */
export const PRIOR_PRECISION = 0.25;
/** Bisection steps of the one-sample MAP solve; the root lies in an interval of width 1, so 2⁻⁵⁰ is exact in doubles. */
const SOLVE_STEPS = 50;

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Serialised form of {@link LinkModel}. */
export interface LinkModelJSON {
    delta: number;
    samples: number;
    /** Posterior means: the feature weights, then the intercept. */
    mean: number[];
    /** Posterior precisions, same order as `mean`. */
    precision: number[];
    /** Weights in use for scoring. */
    used: number[];
}

/** Online Bayesian logistic regression over the link features, with a significance gate on the weights in use. */
export class LinkModel {
    readonly #delta: number;
    readonly #z: number;
    #samples = 0;
    readonly #mean: number[] = [...PRIOR_WEIGHTS, 0];
    readonly #precision: number[] = new Array<number>(PRIOR_WEIGHTS.length + 1).fill(PRIOR_PRECISION);
    readonly #used: number[] = [...PRIOR_WEIGHTS];

    /**
     * @param delta One-sided error rate of the gate: a weight changes when it moved more than Φ⁻¹(1−δ) posterior standard deviations.
     * @default delta DEFAULT_DELTA
     */
    constructor(delta: number = DEFAULT_DELTA) {
        this.#z = oneSidedZ(delta);
        this.#delta = delta;
    }

    /** Weights in use for scoring, in {@link LINK_FEATURES} order; never negative. */
    get weights(): readonly number[] {
        return this.#used;
    }

    /** Samples learned so far. */
    get samples(): number {
        return this.#samples;
    }

    /** Posterior standard deviation of each feature weight. */
    get deviations(): number[] {
        return this.#precision.slice(0, PRIOR_WEIGHTS.length).map((q) => Math.sqrt(1 / q));
    }

    /**
     * Learns from one link whose target has been fetched: `features` in {@link LINK_FEATURES} order,
     * `relevant` whether the target reached the relevance threshold. Returns true when a weight in
     * use changed (the caller should then re-score its queue).
     */
    learn(features: readonly number[], relevant: boolean): boolean {
        if (features.length !== PRIOR_WEIGHTS.length || features.some((x) => !Number.isFinite(x))) {
            throw new RangeError(`LinkModel.learn needs ${PRIOR_WEIGHTS.length} finite features (${LINK_FEATURES.join(', ')}); got [${features.join(', ')}].`);
        }
        const x = [...features, 1];
        this.#samples += 1;
        this.#update(x, relevant ? 1 : 0);
        let changed = false;
        this.#used.forEach((used, i) => {
            const mean = this.#mean[i]!;
            if (Math.abs(mean - used) <= this.#z * Math.sqrt(1 / this.#precision[i]!)) return;
            // A negative weight for covering query terms would be a sampling accident.
            const next = Math.max(0, mean);
            if (next !== used) {
                this.#used[i] = next;
                changed = true;
            }
        });
        return changed;
    }

    toJSON(): LinkModelJSON {
        return { delta: this.#delta, samples: this.#samples, mean: [...this.#mean], precision: [...this.#precision], used: [...this.#used] };
    }

    static fromJSON(json: LinkModelJSON): LinkModel {
        const size = PRIOR_WEIGHTS.length;
        if (json.mean?.length !== size + 1 || json.precision?.length !== size + 1 || json.used?.length !== size) {
            throw new TypeError('LinkModel.fromJSON expects { delta, samples, mean, precision, used } as produced by LinkModel#toJSON.');
        }
        const model = new LinkModel(json.delta);
        model.#samples = json.samples;
        model.#mean.splice(0, size + 1, ...json.mean);
        model.#precision.splice(0, size + 1, ...json.precision);
        model.#used.splice(0, size, ...json.used);
        return model;
    }

    /**
     * Posterior update for one sample: the exact MAP of prior × likelihood, then precision += p(1−p)x².
     *
     * The MAP moves the mean along x/q by a step c solving c = y − σ(m·x + c·Σx²/q). We solve this
     * one-dimensional equation instead of taking a single Newton step per coordinate: with six
     * features the coordinate steps add up, and after a confident wrong prediction (p ≈ 1, where
     * p(1−p) ≈ 0) one Newton step moves every weight by ≈ 1/q = 4, past the gate, so a single
     * broken link (a 404 behind a perfect anchor) would zero the anchor weight.
     */
    #update(x: readonly number[], y: number): void {
        const margin = x.reduce((sum, xi, i) => sum + xi * this.#mean[i]!, 0);
        const spread = x.reduce((sum, xi, i) => sum + (xi * xi) / this.#precision[i]!, 0);
        // g(c) = c − y + σ(margin + c·spread) rises in c, is negative at y − 1 and positive at y.
        let low = y - 1;
        let high = y;
        for (let step = 0; step < SOLVE_STEPS; step++) {
            const c = (low + high) / 2;
            if (c - y + sigmoid(margin + c * spread) < 0) low = c;
            else high = c;
        }
        const c = (low + high) / 2;
        x.forEach((xi, i) => {
            this.#mean[i]! += (c * xi) / this.#precision[i]!;
        });
        const p = sigmoid(x.reduce((sum, xi, i) => sum + xi * this.#mean[i]!, 0));
        x.forEach((xi, i) => {
            this.#precision[i]! += p * (1 - p) * xi * xi;
        });
    }
}
