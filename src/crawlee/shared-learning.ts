import { LOG_START } from '../frontier/index.js';
import type { FrontierStore, TextPrints } from '../frontier/index.js';
import type { SimHash } from '../frontier/near-duplicate.js';
import type { LinkSignal } from '../focus/index.js';
import type { FetchedEntry } from './request-manager.js';

/**
 * A page some worker of a shared crawl read: everything the learners take from a page (the trap learner's text
 * fingerprints, the near-duplicate SimHash, the Markdown the facet statistics, the adaptive stop and the harvest read,
 * the signal of the link the link model learns from), and what became of it.
 */
export interface ReadPageEvent {
    kind: 'page';
    worker: string;
    url: string;
    depth: number;
    title: string;
    markdown: string;
    linkCount: number;
    proseWords: number;
    lang: string | null;
    prints: TextPrints;
    simHash: SimHash | null;
    /** The link the page was reached by; `null` for a seed or a page added by the user. */
    via: LinkSignal | null;
    relevance: number;
    /** Delivered to the worker's dataset (unless its delivery gate refused it at the last moment). */
    delivered: boolean;
    /** Taken to explore a section no fetch had opened (with the first event of the page only). */
    explored?: true;
    /** The URL as the worker took it, before any redirect (with the first event of the page only): one fetch of its section. */
    takenUrl?: string;
    /** Links new to the crawl that its main content revealed (`FrontierRanking.noteRevealed`); absent for a start page. */
    revealed?: number;
}

/** A request handled with nothing to read (an error status, binary data): a page fetched all the same. */
export interface UnreadPageEvent {
    kind: 'unread';
    worker: string;
    url: string;
    /**
     * The signal of the link that led to a fetch that did not pay (an error status, a failure): the link calibration
     * learns it (`Focus.observeUnproductiveLink`); absent when the fetch taught nothing (binary data, say).
     */
    unproductiveVia?: LinkSignal | null;
    explored?: true;
    takenUrl?: string;
}

/** A failure counted by reason (`FOCUS_REPORT.failures`); one the server caused teaches the trap learner too. */
export interface FailureEvent {
    kind: 'failure';
    worker: string;
    reason: string;
    url: string | null;
    explored?: true;
    takenUrl?: string;
}

/** Links a worker skipped since its last commit, by reason (`FOCUS_REPORT.skipped`). */
export interface SkippedLinksEvent {
    kind: 'skipped';
    worker: string;
    counts: Record<string, number>;
    url?: undefined;
    explored?: undefined;
    takenUrl?: undefined;
}

/** Links into unopened sections a worker set aside for room since its last commit: every worker's exploration may take them. */
export interface SetAsideEvent {
    kind: 'setAside';
    worker: string;
    entries: FetchedEntry[];
    url?: undefined;
    explored?: undefined;
    takenUrl?: undefined;
}

/** A worker took `takenUrl` to explore its section (logged when it is taken, before its page is done). */
export interface ExploringEvent {
    kind: 'exploring';
    worker: string;
    url: null;
    explored: true;
    takenUrl: string;
}

/** What one handled request taught a shared crawl, as its worker logs it with the page's commit (or, for an exploration, when it is taken). */
export type CrawlEvent = ReadPageEvent | UnreadPageEvent | FailureEvent | SkippedLinksEvent | ExploringEvent | SetAsideEvent;

export interface SharedLearningOptions {
    /** Events read per call to the store at most. @default 200 */
    batch?: number;
}

/**
 * Keeps a worker's learners in step with the whole shared crawl: replays, in log order, the events the other workers
 * committed (its own were learned when its pages were read). Every worker learns from every page once, so the trap
 * learner, the rewrite rules, the link model, the facet statistics, the harvest and the adaptive stop are the crawl's,
 * not the worker's. A replayed page keeps the relevance its reader scored (a page is scored once), so the counts add
 * up the same in any order; only the online link model (with what it reads: term weights, neighbourhood yields,
 * novelty) and which copy of a repeated text comes first depend on the order, which differs between workers by the
 * pages in flight (docs/frontier-store.md: by up to 1.6 times in a link's rank on the scaling bench).
 */
export class SharedLearning {
    readonly #store: FrontierStore<unknown>;
    readonly #workerId: string;
    readonly #apply: (event: CrawlEvent) => void;
    readonly #batch: number;
    #cursor = LOG_START;
    #reading: Promise<number> | null = null;
    #replayed = 0;

    constructor(store: FrontierStore<unknown>, workerId: string, apply: (event: CrawlEvent) => void, options: SharedLearningOptions = {}) {
        this.#store = store;
        this.#workerId = workerId;
        this.#apply = apply;
        this.#batch = options.batch ?? 200;
        if (!(this.#batch >= 1) || !Number.isInteger(this.#batch)) throw new RangeError(`batch must be an integer ≥ 1, got ${this.#batch}`);
    }

    /** Pages (read or not) of other workers replayed so far. */
    get replayed(): number {
        return this.#replayed;
    }

    /**
     * Replays what was logged since the last call, to the log's end (a worker joining late reads the whole crawl before
     * it judges its first page); concurrent callers share one read. Returns how many events were read.
     */
    sync(): Promise<number> {
        this.#reading ??= this.#readToEnd().finally(() => (this.#reading = null));
        return this.#reading;
    }

    async #readToEnd(): Promise<number> {
        let read = 0;
        for (;;) {
            const entries = await this.#store.readEvents(this.#cursor, this.#batch);
            for (const { id, event } of entries) {
                this.#cursor = id;
                const crawlEvent = event as CrawlEvent;
                if (crawlEvent.worker === this.#workerId) continue;
                this.#apply(crawlEvent);
                if (crawlEvent.kind === 'page' || crawlEvent.kind === 'unread') this.#replayed += 1;
            }
            read += entries.length;
            if (entries.length < this.#batch) return read;
        }
    }
}
