/**
 * Per-part harvest: for every fetched page, record whether it brought new on-topic content (the
 * adaptive stop's "hit") under its part of the site (a subtree or a cluster), and compare each
 * part's hit rate with the rest of the crawl by Wilson confidence intervals – successive
 * elimination as in a multi-armed bandit.
 *
 * There are no tuned thresholds: small samples give wide intervals, so no early verdict; a part
 * that keeps yielding nothing narrows quickly and is eliminated (journal systems listing issue
 * after issue, shop product pages: every page touches a query word, none adds new content).
 */
import { DEFAULT_DELTA, twoSidedZ, wilsonZ, type Interval } from '../stat/index.js';
import { hostOf } from '../url/index.js';
import { stripLeadingLanguage } from '../url/language.js';
import { urlParts } from '../url/parts.js';

/** Pages fetched in a part and how many of them were hits. */
export interface PartYield {
    pages: number;
    hits: number;
}

/** Serialised form of a {@link Harvest}: the error rate and `[part, pages, hits]` rows. */
export interface HarvestJSON {
    delta: number;
    parts: [part: string, pages: number, hits: number][];
}

/**
 * Hit counts per part, with dry/proven verdicts from Wilson score intervals (Wilson, JASA 22, 1927)
 * at two-sided level 1−δ, as in pagesift `harvest.rs`. A part without pages has the interval
 * (0, 1) and so never gets a verdict.
 */
export class Harvest {
    readonly #delta: number;
    /** Wilson quantile Φ⁻¹(1 − δ/2), fixed for the lifetime of the harvest. */
    readonly #z: number;
    readonly #parts = new Map<string, PartYield>();
    #pages = 0;
    #hits = 0;

    /**
     * @param delta Error rate of the two-sided Wilson intervals.
     * @default DEFAULT_DELTA
     * @throws RangeError unless 0 < delta < 1.
     */
    constructor(delta: number = DEFAULT_DELTA) {
        this.#z = twoSidedZ(delta);
        this.#delta = delta;
    }

    /** Records one fetched page of `part`; `hit` says whether it brought new on-topic content. */
    observe(part: string, hit: boolean): void {
        this.#add(part, 1, hit ? 1 : 0);
    }

    /** Even optimistically the part cannot catch up: its upper bound is below the rest's lower bound. */
    isDry(part: string): boolean {
        const { mine, rest } = this.#split(part);
        return this.#interval(mine)[1] < this.#interval(rest)[0];
    }

    /**
     * The part's yield is demonstrably good: its lower bound beats the rest's lower bound. Both sides
     * use lower bounds because early on the rest is only the seed page, whose point estimate of 0 or
     * 1 means nothing; the lower bound discounts small samples by itself.
     */
    isProven(part: string): boolean {
        const { mine, rest } = this.#split(part);
        return this.#interval(mine)[0] > this.#interval(rest)[0];
    }

    /** Pages and hits of one part (zeros for a part never observed). */
    stats(part: string): PartYield {
        const mine = this.#parts.get(part);
        return { pages: mine?.pages ?? 0, hits: mine?.hits ?? 0 };
    }

    /** Pages and hits over all parts. */
    get total(): PartYield {
        return { pages: this.#pages, hits: this.#hits };
    }

    /** Every observed part with its counts, in first-observation order. */
    *parts(): IterableIterator<[string, PartYield]> {
        for (const [part, { pages, hits }] of this.#parts) yield [part, { pages, hits }];
    }

    toJSON(): HarvestJSON {
        return { delta: this.#delta, parts: [...this.#parts].map(([part, { pages, hits }]) => [part, pages, hits]) };
    }

    static fromJSON(json: HarvestJSON): Harvest {
        if (typeof json !== 'object' || json === null || !Array.isArray(json.parts)) {
            throw new TypeError('Harvest.fromJSON expects the object produced by Harvest#toJSON ({ delta, parts }).');
        }
        const harvest = new Harvest(json.delta);
        for (const row of json.parts) {
            const [part, pages, hits] = Array.isArray(row) ? row : [];
            if (typeof part !== 'string' || !isCount(pages) || !isCount(hits) || hits > pages) {
                throw new TypeError(`Harvest.fromJSON: row ${JSON.stringify(row)} is not [part, pages, hits] with 0 ≤ hits ≤ pages; pass the output of Harvest#toJSON unchanged.`);
            }
            harvest.#add(part, pages, hits);
        }
        return harvest;
    }

    #add(part: string, pages: number, hits: number): void {
        const mine = this.#parts.get(part);
        if (mine) {
            mine.pages += pages;
            mine.hits += hits;
        } else {
            this.#parts.set(part, { pages, hits });
        }
        this.#pages += pages;
        this.#hits += hits;
    }

    #split(part: string): { mine: PartYield; rest: PartYield } {
        const mine = this.stats(part);
        return { mine, rest: { pages: this.#pages - mine.pages, hits: this.#hits - mine.hits } };
    }

    #interval({ pages, hits }: PartYield): Interval {
        return wilsonZ(hits, pages, this.#z);
    }
}

function isCount(value: unknown): value is number {
    return Number.isInteger(value) && (value as number) >= 0;
}

/** Parent-directory levels kept by {@link subtree}: one level would make a site living under `/en/` a single subtree. */
const SUBTREE_DEPTH = 2;

/**
 * The subtree a page belongs to. A page on another host is its whole host (a sub-site such as
 * `journals.e.edu`). On the seed host it is the page's parent directory, without a leading language
 * segment, cut to two levels: `https://www.e.edu/en/research-highlight/story-1` →
 * `e.edu/research-highlight`, `https://e.edu/about` → `e.edu/`.
 *
 * @param seedHost The seed's host, lowercased and without a leading `www.`.
 * @param url Absolute URL of the page.
 */
export function subtree(seedHost: string, url: string): string {
    const host = hostOf(url);
    if (host !== seedHost) return host;
    const segments = urlParts(url).pathname.split('/').filter((segment) => segment !== '');
    const directory = stripLeadingLanguage(segments.slice(0, -1)).slice(0, SUBTREE_DEPTH);
    return `${host}/${directory.join('/')}`;
}
