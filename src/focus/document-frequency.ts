/**
 * Document frequencies for the IDF of query units, over the pages of this crawl.
 *
 * [I] pagesift takes the IDF over every fetched page, which suits its university crawls, where most pages are off
 * the topic. A crawl that succeeds is mostly on the topic, and there the term it focuses on ends up on nearly every
 * page: its IDF falls to nothing, and the relevance of later on-topic pages and the weight of links naming it fall
 * with it (acl2020 "dialog system": dialogue papers fell from relevance 0.9 to 0.06 as the crawl found them, links
 * saying "system" took over, and the adaptive stop ended the crawl at recall 0.70). Generic site words, the case
 * IDF is for, are frequent on off-topic pages too; the focus term is not. So once a few off-topic pages are known,
 * the IDF is taken over them alone.
 */

/** Off-topic pages needed before the IDF is taken over them alone (the `MIN_PAGES` of the statistics that use it). */
export const OFF_TOPIC_MIN_PAGES = 3;

/** Serialised form of {@link DocumentFrequencies}. */
export interface DocumentFrequenciesJSON {
    pages: number;
    df: number[];
    offTopicPages: number;
    offTopicDf: number[];
}

/** How many pages, and how many off-topic pages, contained each unit. */
export class DocumentFrequencies {
    #pages = 0;
    readonly #df: number[];
    #offTopicPages = 0;
    readonly #offTopicDf: number[];

    constructor(units: number) {
        this.#df = new Array<number>(units).fill(0);
        this.#offTopicDf = new Array<number>(units).fill(0);
    }

    /** Every page observed. */
    get pages(): number {
        return this.#pages;
    }

    /** Pages on which `unit` was present, on or off the topic. */
    df(unit: number): number {
        return this.#df[unit]!;
    }

    /**
     * Accounts one page. `present` has bit i set when unit i is on the page; `offTopic` says the page was judged
     * irrelevant (by the weights before it).
     */
    observe(present: number, offTopic: boolean): void {
        this.#pages += 1;
        if (offTopic) this.#offTopicPages += 1;
        for (let unit = 0; unit < this.#df.length; unit++) {
            if (!(present & (1 << unit))) continue;
            this.#df[unit]! += 1;
            if (offTopic) this.#offTopicDf[unit]! += 1;
        }
    }

    /** ln((N + 1) / (df + 0.5)) over the background: the off-topic pages once there are enough, else every page. */
    idf(unit: number): number {
        const background = this.#offTopicPages >= OFF_TOPIC_MIN_PAGES;
        const pages = background ? this.#offTopicPages : this.#pages;
        const df = background ? this.#offTopicDf[unit]! : this.#df[unit]!;
        return Math.log((pages + 1) / (df + 0.5));
    }

    /** ln(N + 1) over the same background: the largest {@link idf}, for normalising. */
    maxIdf(): number {
        return Math.log((this.#offTopicPages >= OFF_TOPIC_MIN_PAGES ? this.#offTopicPages : this.#pages) + 1);
    }

    toJSON(): DocumentFrequenciesJSON {
        return { pages: this.#pages, df: [...this.#df], offTopicPages: this.#offTopicPages, offTopicDf: [...this.#offTopicDf] };
    }

    static fromJSON(json: DocumentFrequenciesJSON, units: number): DocumentFrequencies {
        const valid = (list: unknown): list is number[] => Array.isArray(list) && list.length === units;
        if (!json || !Number.isInteger(json.pages) || !Number.isInteger(json.offTopicPages) || !valid(json.df) || !valid(json.offTopicDf)) {
            throw new TypeError(`DocumentFrequencies.fromJSON expects { pages, df, offTopicPages, offTopicDf } with ${units} units, as toJSON writes it.`);
        }
        const frequencies = new DocumentFrequencies(units);
        frequencies.#pages = json.pages;
        frequencies.#offTopicPages = json.offTopicPages;
        frequencies.#df.splice(0, units, ...json.df);
        frequencies.#offTopicDf.splice(0, units, ...json.offTopicDf);
        return frequencies;
    }
}
