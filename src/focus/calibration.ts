/**
 * Calibrated link probabilities: the chance that the page behind a link with a given score is productive (relevant,
 * with new text), learned from the links this crawl fetched. Platt scaling (Platt, "Probabilistic outputs for support
 * vector machines", 1999): a logistic regression on the score. The score already holds every demotion (furniture,
 * dated, foreign, traps, depth), which the link model's features do not, so the probabilities follow the order the
 * frontier serves links in.
 *
 * The fit is a batch MAP fit (Newton's method) over a histogram of the fetched links' scores, not a one-pass online
 * update: with two correlated parameters a diagonal online update is biased (400 links paying off 5 % of the time
 * came out at 12 %). The histogram keeps memory and snapshots small whatever the crawl's length.
 */
/** What the crawl expects of one link: the probability that its page is productive, and a credible interval. */
export interface LinkProbability {
    probability: number;
    low: number;
    high: number;
}

/** Serialised form of {@link ScoreCalibration}: per score bin, links fetched and links that paid off. */
export interface ScoreCalibrationJSON {
    bins: Array<[bin: number, links: number, productive: number]>;
}

/** Width of a bin on the log(1 + score) scale: scores within 2 % of each other share a bin. */
const BIN_WIDTH = 0.02;
/** Prior precision of slope and intercept: a Gaussian N(0, 1/0.25) on each, weak next to a crawl's own links. */
const PRIOR_PRECISION = 0.25;
const NEWTON_STEPS = 25;

/** Scores are compressed before the fit: log(1 + score), so that a seed's fixed 1000 does not swamp the slope. */
const feature = (score: number): number => Math.log1p(Math.max(0, score));
const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export class ScoreCalibration {
    readonly #bins = new Map<number, { links: number; productive: number }>();
    #samples = 0;
    /** MAP slope and intercept, and their 2×2 posterior covariance [vaa, vab, vbb]; refitted after new samples. */
    #fit: { a: number; b: number; vaa: number; vab: number; vbb: number } | null = null;

    get samples(): number {
        return this.#samples;
    }

    /** Learns from one fetched link: its score when it was taken, and whether its page was productive. */
    learn(score: number, productive: boolean): void {
        if (!Number.isFinite(score)) throw new RangeError(`ScoreCalibration.learn needs a finite score (got ${score}).`);
        const bin = Math.round(feature(score) / BIN_WIDTH);
        const counts = this.#bins.get(bin) ?? { links: 0, productive: 0 };
        counts.links += 1;
        if (productive) counts.productive += 1;
        this.#bins.set(bin, counts);
        this.#samples += 1;
        this.#fit = null;
    }

    /**
     * The probability that a link with this score leads to a productive page: MacKay's probit approximation of the
     * posterior predictive mean, and σ(margin ± z·sd) as a credible interval (MacKay, "The evidence framework applied
     * to classification networks", 1992).
     */
    predict(score: number, z: number): LinkProbability {
        const { a, b, vaa, vab, vbb } = (this.#fit ??= this.#refit());
        const x = feature(score);
        const margin = a * x + b;
        const variance = vaa * x * x + 2 * vab * x + vbb;
        const sd = Math.sqrt(variance);
        return {
            probability: sigmoid(margin / Math.sqrt(1 + (Math.PI * variance) / 8)),
            low: sigmoid(margin - z * sd),
            high: sigmoid(margin + z * sd),
        };
    }

    toJSON(): ScoreCalibrationJSON {
        return { bins: [...this.#bins].map(([bin, { links, productive }]) => [bin, links, productive]) };
    }

    static fromJSON(json: ScoreCalibrationJSON): ScoreCalibration {
        if (!Array.isArray(json?.bins)) throw new TypeError('ScoreCalibration.fromJSON expects { bins } as produced by ScoreCalibration#toJSON.');
        const calibration = new ScoreCalibration();
        for (const [bin, links, productive] of json.bins) {
            calibration.#bins.set(bin, { links, productive });
            calibration.#samples += links;
        }
        return calibration;
    }

    /** Newton's method on the log posterior; the inverse Hessian at the optimum is the Laplace covariance. */
    #refit(): { a: number; b: number; vaa: number; vab: number; vbb: number } {
        let a = 0;
        let b = 0;
        let haa = PRIOR_PRECISION;
        let hab = 0;
        let hbb = PRIOR_PRECISION;
        for (let step = 0; step < NEWTON_STEPS; step++) {
            let ga = -PRIOR_PRECISION * a;
            let gb = -PRIOR_PRECISION * b;
            haa = PRIOR_PRECISION;
            hab = 0;
            hbb = PRIOR_PRECISION;
            for (const [bin, { links, productive }] of this.#bins) {
                const x = bin * BIN_WIDTH;
                const p = sigmoid(a * x + b);
                const residual = productive - links * p;
                ga += residual * x;
                gb += residual;
                const w = links * p * (1 - p);
                haa += w * x * x;
                hab += w * x;
                hbb += w;
            }
            const det = haa * hbb - hab * hab;
            const da = (hbb * ga - hab * gb) / det;
            const db = (haa * gb - hab * ga) / det;
            a += da;
            b += db;
            if (Math.abs(da) + Math.abs(db) < 1e-9) break;
        }
        const det = haa * hbb - hab * hab;
        return { a, b, vaa: hbb / det, vab: -hab / det, vbb: haa / det };
    }
}
