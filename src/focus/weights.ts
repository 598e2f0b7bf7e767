/**
 * Site-local weights of the query terms, for link scoring.
 *
 * Navigation and footers put "students" or "international" on every page of a university site, so
 * those words cannot tell an admissions link from a news link, while "visa" or "scholarship" can.
 * The weight of a term is its IDF over the page bodies fetched so far, normalised to (0, 1].
 */

/** Pages needed before the weights leave their start of 1 (pagesift weights.rs). */
export const WEIGHT_MIN_PAGES = 3;
/** Floor of a term weight: a term present everywhere is still a signal in an anchor (pagesift weights.rs). */
export const MIN_WEIGHT = 0.15;
/** A term weight moving more than this since the last re-score triggers a re-score of the queue ([I], pagesift value not visible). */
export const RESCORE_DELTA = 0.1;

/** Serialised form of {@link TermWeights}. */
export interface TermWeightsJSON {
    pages: number;
    df: number[];
    /** Weights at the last re-score. */
    snapshot: number[];
}

/** IDF weights of the query terms over the page bodies fetched so far. */
export class TermWeights {
    #pages = 0;
    /** Pages whose body contains each term. */
    readonly #df: number[];
    readonly #weights: number[];
    readonly #snapshot: number[];

    /** @param terms Number of query terms (`query.size`). */
    constructor(terms: number) {
        if (!Number.isInteger(terms) || terms < 1) {
            throw new RangeError(`TermWeights needs the number of query terms (a positive integer, got ${terms}); pass query.size.`);
        }
        this.#df = new Array<number>(terms).fill(0);
        this.#weights = new Array<number>(terms).fill(1);
        this.#snapshot = new Array<number>(terms).fill(1);
    }

    /** Current weight of each term, in [`MIN_WEIGHT`, 1]. */
    get weights(): readonly number[] {
        return this.#weights;
    }

    /** Pages observed so far. */
    get pages(): number {
        return this.#pages;
    }

    /** Accounts one fetched page; `bodyTerms` has bit i set when the page body contains term i. */
    observe(bodyTerms: number): void {
        this.#pages += 1;
        this.#df.forEach((_, term) => {
            if (bodyTerms & (1 << term)) this.#df[term]! += 1;
        });
        this.#recompute();
    }

    /** Weighted share of the query covered by the terms in `mask` (bit i = term i), 0…1. */
    coverage(mask: number): number {
        let covered = 0;
        let total = 0;
        this.#weights.forEach((weight, term) => {
            total += weight;
            if (mask & (1 << term)) covered += weight;
        });
        return covered / total;
    }

    /**
     * True when some weight moved by more than `RESCORE_DELTA` since the last time this returned
     * true; the caller then re-scores its queue, and the current weights become the reference.
     */
    weightsMoved(): boolean {
        const moved = this.#weights.some((weight, term) => Math.abs(weight - this.#snapshot[term]!) > RESCORE_DELTA);
        if (moved) this.#snapshot.splice(0, this.#snapshot.length, ...this.#weights);
        return moved;
    }

    toJSON(): TermWeightsJSON {
        return { pages: this.#pages, df: [...this.#df], snapshot: [...this.#snapshot] };
    }

    static fromJSON(json: TermWeightsJSON): TermWeights {
        if (!Array.isArray(json.df) || !Array.isArray(json.snapshot) || json.df.length !== json.snapshot.length) {
            throw new TypeError('TermWeights.fromJSON expects { pages, df, snapshot } as produced by TermWeights#toJSON.');
        }
        const weights = new TermWeights(json.df.length);
        weights.#pages = json.pages;
        weights.#df.splice(0, json.df.length, ...json.df);
        weights.#recompute();
        weights.#snapshot.splice(0, json.snapshot.length, ...json.snapshot);
        return weights;
    }

    /** IDF normalised by its maximum ln(N+1), clamped to [MIN_WEIGHT, 1]; terms weigh 1 until enough pages. */
    #recompute(): void {
        if (this.#pages < WEIGHT_MIN_PAGES) return;
        const scale = Math.log(this.#pages + 1);
        this.#df.forEach((df, term) => {
            const idf = Math.log((this.#pages + 1) / (df + 0.5)) / scale;
            this.#weights[term] = Math.min(1, Math.max(MIN_WEIGHT, idf));
        });
    }
}
