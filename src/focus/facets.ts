/**
 * Page relevance by query facets: does the page *talk about* some aspect of the query, weighted by
 * this site's own statistics?
 *
 * Counting covered query words rewards word-collecting: on a university site "department",
 * "faculty" and "research" are everywhere, so every department page scores high while the decisive
 * "computer science" does nothing. Here the units are the query terms plus adjacent query terms that
 * the site uses as a phrase; each unit's evidence on a page (title/URL, headings, saturated body
 * frequency) is weighted by the unit's IDF on the pages fetched so far. Nothing is tuned: every
 * quantity is estimated from this crawl. Measured by pagesift on 1,833 hand-judged pages
 * (61 universities × 5 directions): AUC useful/useless 0.79 → 0.86.
 */
import { assertDelta, benjaminiHochberg, DEFAULT_DELTA, gammaP } from '../stat/index.js';
import type { Query } from './query.js';

/** Pages needed before site statistics are used; before that terms weigh the same and no phrase counts (pagesift facet.rs). */
export const FACET_MIN_PAGES = 3;

/** Bit-mask of the units present in `tf`. */
function maskOf(tf: readonly number[]): number {
    let mask = 0;
    tf.forEach((count, unit) => {
        if (count > 0) mask |= 1 << unit;
    });
    return mask;
}

/**
 * Counts every unit of `query` in `text` into `tf` and returns the number of tokens. Unit k < n is
 * term k; unit n+i−1 is the phrase "term i−1 immediately followed by term i".
 */
function countUnits(query: Query, text: string, tf: number[]): number {
    const n = query.size;
    let previous: number | null = null;
    let tokens = 0;
    query.forEachTerm(text, (term) => {
        tokens += 1;
        if (term !== null) {
            tf[term] = (tf[term] ?? 0) + 1;
            if (previous !== null && previous + 1 === term) tf[n + term - 1] = (tf[n + term - 1] ?? 0) + 1;
        }
        previous = term;
    });
    return tokens;
}

/** Number of units of a query with `terms` terms: the terms and the phrases of adjacent terms. */
export function unitCount(terms: number): number {
    return 2 * terms - 1;
}

/** One page's evidence for each unit; kept so relevance can be recomputed when site statistics change. */
export class Facets {
    /**
     * @param about Units present in the title or the URL words (bit k = unit k): the page is *about* them.
     * @param head Units present in a Markdown heading.
     * @param tf Occurrences of each unit in the Markdown body.
     * @param length Number of tokens of the body.
     */
    constructor(
        readonly about: number,
        readonly head: number,
        readonly tf: readonly number[],
        readonly length: number,
    ) {}

    /**
     * Evidence of a page. The body is tokenised in one pass (a phrase may cross a line break); the
     * title, the URL words and each heading are tokenised separately.
     *
     * @param locator The URL split into words (see `locator`).
     */
    static of(query: Query, title: string, locator: string, markdown: string): Facets {
        const units = unitCount(query.size);
        const about = new Array<number>(units).fill(0);
        countUnits(query, title, about);
        countUnits(query, locator, about);
        const head = new Array<number>(units).fill(0);
        for (const line of markdown.split('\n')) {
            const trimmed = line.trimStart();
            if (trimmed.startsWith('#')) countUnits(query, trimmed.replace(/^#+/, ''), head);
        }
        const tf = new Array<number>(units).fill(0);
        const length = countUnits(query, markdown, tf);
        return new Facets(maskOf(about), maskOf(head), tf, length);
    }

    /** Units present anywhere on the page (title, URL words, headings or body). */
    get present(): number {
        return this.about | this.head | maskOf(this.tf);
    }

    /** Bit-mask of the query terms (not phrases) occurring in the body. */
    get bodyTerms(): number {
        const terms = (this.tf.length + 1) / 2;
        return maskOf(this.tf.slice(0, terms));
    }
}

/**
 * Which adjacent query-term pairs are phrases. Each pair is `[k, λ]`: k = times the two terms were
 * adjacent, λ = times expected if they were independent. Under independence the adjacent count is
 * about Poisson(λ) (Dunning, CL 19(1), 1993), so its one-sided tail P(X ≥ k) is the regularised
 * gamma P(k, λ); the pairs of one query are tested together with Benjamini–Hochberg at false
 * discovery rate `delta`. A pair never adjacent (k = 0) is no phrase.
 */
export function collocations(pairs: readonly (readonly [adjacent: number, expected: number])[], delta: number = DEFAULT_DELTA): boolean[] {
    const p = pairs.map(([adjacent, expected]) => (adjacent <= 0 ? 1 : gammaP(adjacent, expected)));
    return benjaminiHochberg(p, delta);
}

/** Serialised form of {@link FacetStats}. */
export interface FacetStatsJSON {
    terms: number;
    delta: number;
    pages: number;
    df: number[];
    tokens: number;
    cf: number[];
    weights: number[];
}

/** Statistics of every page fetched in this crawl, and the unit weights derived from them. */
export class FacetStats {
    readonly #terms: number;
    readonly #delta: number;
    #pages = 0;
    /** Pages on which each unit is present. */
    readonly #df: number[];
    /** Body tokens over all pages. */
    #tokens = 0;
    /** Body occurrences of each unit over all pages (for a phrase: adjacent occurrences). */
    readonly #cf: number[];
    readonly #weights: number[];

    /**
     * @param terms Number of query terms (`query.size`).
     * @param delta False discovery rate of the phrase test.
     * @default delta DEFAULT_DELTA
     */
    constructor(terms: number, delta: number = DEFAULT_DELTA) {
        if (!Number.isInteger(terms) || terms < 1) {
            throw new RangeError(`FacetStats needs the number of query terms (a positive integer, got ${terms}); pass query.size.`);
        }
        assertDelta(delta);
        const units = unitCount(terms);
        this.#terms = terms;
        this.#delta = delta;
        this.#df = new Array<number>(units).fill(0);
        this.#cf = new Array<number>(units).fill(0);
        this.#weights = new Array<number>(units).fill(0).fill(1, 0, terms);
    }

    /** Pages observed so far. */
    get pages(): number {
        return this.#pages;
    }

    /** Current weight of every unit: terms first, then the phrase of terms i−1,i at index n+i−1. */
    get weights(): readonly number[] {
        return this.#weights;
    }

    /** Accounts one fetched page (every page, useful or not) and re-estimates the weights. */
    observe(facets: Facets): void {
        this.#pages += 1;
        const present = facets.present;
        this.#df.forEach((_, unit) => {
            if (present & (1 << unit)) this.#df[unit]! += 1;
            this.#cf[unit]! += facets.tf[unit] ?? 0;
        });
        this.#tokens += facets.length;
        if (this.#pages >= FACET_MIN_PAGES) this.#reweigh();
    }

    /** Relevance of a page, 0…1: the weighted mean of its unit evidence. */
    relevance(facets: Facets): number {
        const averageLength = this.#pages > 0 && this.#tokens > 0 ? this.#tokens / this.#pages : Math.max(facets.length, 1);
        let weighted = 0;
        let total = 0;
        this.#weights.forEach((weight, unit) => {
            if (weight <= 0) return;
            const bit = 1 << unit;
            const tf = facets.tf[unit] ?? 0;
            // BM25-like saturation, normalised by this site's mean page length.
            const body = tf / (tf + 1 + facets.length / averageLength);
            const evidence = ((facets.about & bit ? 1 : 0) + (facets.head & bit ? 1 : 0) + body) / 3;
            weighted += weight * evidence;
            total += weight;
        });
        return total > 0 ? weighted / total : 0;
    }

    /** The weights normalised to sum 1. */
    shares(): number[] {
        const total = this.#weights.reduce((sum, weight) => sum + weight, 0);
        return this.#weights.map((weight) => (total > 0 ? weight / total : 0));
    }

    toJSON(): FacetStatsJSON {
        return {
            terms: this.#terms,
            delta: this.#delta,
            pages: this.#pages,
            df: [...this.#df],
            tokens: this.#tokens,
            cf: [...this.#cf],
            weights: [...this.#weights],
        };
    }

    static fromJSON(json: FacetStatsJSON): FacetStats {
        const stats = new FacetStats(json.terms, json.delta);
        const units = unitCount(json.terms);
        for (const [name, list] of [['df', json.df], ['cf', json.cf], ['weights', json.weights]] as const) {
            if (!Array.isArray(list) || list.length !== units) {
                throw new TypeError(`FacetStats.fromJSON: "${name}" must have ${units} entries; pass the output of FacetStats#toJSON unchanged.`);
            }
        }
        stats.#pages = json.pages;
        stats.#tokens = json.tokens;
        stats.#df.splice(0, units, ...json.df);
        stats.#cf.splice(0, units, ...json.cf);
        stats.#weights.splice(0, units, ...json.weights);
        return stats;
    }

    #reweigh(): void {
        const n = this.#terms;
        const pages = this.#pages;
        // A unit on no page cannot separate pages; its maximal IDF with zero evidence would drag every page down.
        const idf = (df: number): number => (df === 0 ? 0 : Math.max(0, Math.log((pages + 1) / (df + 0.5))));
        for (let term = 0; term < n; term++) this.#weights[term] = idf(this.#df[term]!);
        const tokens = Math.max(this.#tokens, 1);
        const pairs: [number, number][] = [];
        for (let i = 1; i < n; i++) {
            const expected = (this.#cf[i - 1]! * this.#cf[i]!) / tokens;
            pairs.push([this.#cf[n + i - 1]!, expected]);
        }
        collocations(pairs, this.#delta).forEach((phrase, i) => {
            const unit = n + i;
            this.#weights[unit] = phrase ? idf(this.#df[unit]!) : 0;
        });
    }
}
