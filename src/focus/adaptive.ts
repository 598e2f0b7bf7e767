/**
 * Adaptive stopping for a focused crawl: stop when the query is covered by several sources, when
 * relevant pages stop bringing anything new, or when blind probing finds nothing relevant at all.
 * Novelty is measured on paragraphs, so navigation, footers and reposts count once.
 */

import { textFingerprint } from '../frontier/fingerprint.js';
import { wilson } from '../stat/index.js';
import type { RecallEstimate } from './recall.js';

/** Below this relevance a page is irrelevant: it never gives evidence (pagesift `adaptive.rs`; old 0.12 converted on 1,833 judged pages). */
export const MIN_RELEVANCE = 0.05;

/** Only pages at or above this relevance give evidence and are judged for novelty (pagesift `adaptive.rs`; old 0.3 converted). */
export const EVIDENCE_RELEVANCE = 0.15;

/** Blind irrelevant pages tolerated before anything relevant is found, in multiples of `patience` (pagesift `adaptive.rs`: "2×, default 10 pages"). */
export const COLD_PATIENCE = 2;

/** Pages that must have contributed evidence before coverage may stop the crawl (pagesift `adaptive.rs`: one overview page is not enough). */
export const MIN_SOURCES = 2;

/**
 * A relevant page counts as new content when at least this share of its words is new, however much was collected
 * before. [I] Without it the bar of `minGain` rises with the harvest: on acl2020 one rendered list of 907 paper titles
 * made every later abstract "nothing new", and the crawl saturated after 10 of 100 pages at recall 0.13.
 */
export const NOVEL_PAGE_SHARE = 0.5;

/**
 * Recent pages compared with the crawl before them, in multiples of `patience`. [I] Consecutive empty pages alone
 * stop a crawl whose harvest is 50 % after a few unlucky pages (five in a row happen every ~32 pages); the saturation
 * rules therefore also need the recent share of novel pages to be clearly below the earlier one (Wilson intervals, as §7.1 does for
 * site parts).
 */
export const HARVEST_WINDOW_PATIENCE = 4;

/** Why a crawl ended. The adaptive rules give the first three; the crawl loop gives the rest. */
export type StopReason = 'coverage_reached' | 'saturated' | 'no_relevant_pages' | 'limit_reached' | 'exhausted' | 'cancelled';

/** When a focused crawl has seen enough. */
export interface AdaptiveOptions {
    /**
     * Consecutive pages without new relevant content before the crawl counts as saturated, provided
     * the share of novel pages among the last {@link HARVEST_WINDOW_PATIENCE} × patience pages is also zero or clearly
     * below the share before them (which must rest on at least `patience` pages). Half of it (rounded up) suffices once the query is covered; twice it
     * is allowed for blind irrelevant pages before anything relevant is found.
     * @default 5
     */
    patience?: number;
    /**
     * A relevant page whose new content (in words) is below this share of everything collected so
     * far counts as adding nothing new, unless at least {@link NOVEL_PAGE_SHARE} of the page itself
     * is new (so the bar does not rise with the harvest for pages that are mostly new).
     * @default 0.05
     */
    minGain?: number;
    /**
     * Distinct relevant paragraphs mentioning a query term for that term to count as fully covered.
     * @default 3
     */
    evidencePerTerm?: number;
    /**
     * Mean per-term coverage (0…1) at which the query counts as covered.
     * @default 0.8
     */
    coverageThreshold?: number;
    /**
     * `coverage_reached` also needs the lower end of the estimated recall (see recall.ts) at or above this: a covered
     * query is no reason to stop while the links still queued or dropped promise more relevant pages.
     * @default 0.9
     */
    recallTarget?: number;
    /**
     * `saturated` also needs the relevant pages expected behind the queued links (the upper end of their interval)
     * below this: a crawl is not saturated while its frontier still promises relevant pages.
     * @default 1
     */
    maxExpectedLeft?: number;
}

/** Defaults of {@link AdaptiveOptions}: patience 5 follows from pagesift's "2× (default 10 pages)"; the others are this project's stand-ins. */
export const DEFAULT_ADAPTIVE_OPTIONS: Readonly<Required<AdaptiveOptions>> = Object.freeze({
    patience: 5,
    minGain: 0.05,
    evidencePerTerm: 3,
    coverageThreshold: 0.8,
    recallTarget: 0.9,
    maxExpectedLeft: 1,
});

/** The query as the stop rules need it: its terms, and which of them a text contains. */
export interface QueryTerms {
    /** Number of query terms. */
    readonly size: number;
    /** The terms, in query order. */
    readonly terms: readonly string[];
    /** Indices of the query terms occurring in `text`. */
    termsIn(text: string): Set<number>;
}

/** What the stop rules need to know about one fetched page. */
export interface AdaptivePage {
    /** Page relevance to the query, 0…1. */
    relevance: number;
    /** Main content as Markdown. */
    markdown: string;
    /** The page was reached through a link showing no sign of the query (a blind probe). */
    blind: boolean;
    /**
     * The other pages taken and not yet judged, asked for only when the blind count reaches its limit. Without it the
     * rule decides on the pages alone.
     */
    pending?: () => PendingPages;
    /**
     * The estimated recall after this page, asked for only when a saturation rule would fire. Without it the rules
     * decide on the pages alone.
     */
    outlook?: (found: number) => RecallEstimate;
}

/** The pages a crawl has taken but not yet judged: being fetched, or waiting for a retry. */
export interface PendingPages {
    /** Their keys (URLs), the page being observed left out. */
    keys: readonly string[];
    /** One of them was reached through a link with a sign of the query, or is a seed. */
    promising: boolean;
}

/** Result of observing one page. */
export interface AdaptiveVerdict {
    /** The page brought new on-topic content; feed this to {@link Harvest}. */
    hit: boolean;
    /**
     * The page is relevant and not a repeat: at or above {@link MIN_RELEVANCE}, and, when judged for
     * novelty (at or above {@link EVIDENCE_RELEVANCE}), with at least one paragraph not read before.
     * Unlike `hit` the bar does not rise with the harvest, so it can label links all crawl long.
     */
    novel: boolean;
    /** The page counts as found for an estimated recall: novel, and at or above {@link EVIDENCE_RELEVANCE}. */
    found: boolean;
    /** Why to stop now, or `null` to go on. Once given, it is repeated for every later page. */
    stop: StopReason | null;
}

/** State of the stop rules, for the crawl summary. */
export interface AdaptiveSummary {
    /** Mean over terms of min(1, evidence / evidencePerTerm), 0…1. */
    coverage: number;
    /** Per query term, the number of distinct relevant paragraphs containing it. */
    termEvidence: number[];
    /** Pages at or above {@link MIN_RELEVANCE}. */
    relevantPages: number;
    /** Pages that brought new relevant content. */
    sources: number;
    /**
     * Pages at or above {@link EVIDENCE_RELEVANCE} with a paragraph not read before: the pages an estimated recall
     * counts as found.
     */
    foundPages: number;
    /** The stop reason given so far, if any. */
    stopReason: StopReason | null;
    /** The estimated recall the stop rule agreed with when it fired; null before a stop or without an outlook. */
    stopEstimate: RecallEstimate | null;
}

/** Serialised form of an {@link AdaptiveStop}. */
export interface AdaptiveStopJSON {
    options: Required<AdaptiveOptions>;
    terms: string[];
    termEvidence: number[];
    seen: number[];
    /** Novel (1) or not (0), the pages since the first source, most recent last; at most the window. */
    recent: number[];
    /** Pages and novel pages (`hits`) since the first source, before the recent window. */
    earlier: { pages: number; hits: number };
    collected: number;
    stale: number;
    cold: number;
    sources: number;
    relevantPages: number;
    /** Absent in snapshots written before it was kept; restored as `sources` then (see {@link AdaptiveStop.fromJSON}). */
    foundPages?: number;
    stopReason: StopReason | null;
    /** Absent in snapshots written before it was kept. */
    stopEstimate?: RecallEstimate | null;
    /** Pages the cold stop still waits for (see {@link AdaptiveStop}); absent when it waits for none. */
    coldAwaiting?: string[];
}

/** Decides, page by page, whether a focused crawl has collected enough (see the module doc). */
export class AdaptiveStop {
    readonly #query: QueryTerms;
    readonly #options: Required<AdaptiveOptions>;
    readonly #termEvidence: number[];
    /** Hashes of the relevant paragraphs seen so far. */
    readonly #seen = new Set<number>();
    /** Relevant content collected so far, in words. */
    #collected = 0;
    /** Consecutive pages without new relevant content. */
    #stale = 0;
    /** Consecutive blind irrelevant pages while nothing relevant has been found. */
    #cold = 0;
    #sources = 0;
    #relevantPages = 0;
    #foundPages = 0;
    #stopReason: StopReason | null = null;
    #stopEstimate: RecallEstimate | null = null;
    /**
     * The pages that were in flight when the blind count reached its limit and have not been judged since; null
     * below the limit. They land whether or not the crawl stops, and one of them may be the page that opens the site.
     */
    #coldAwaiting: Set<string> | null = null;
    /** Novelty of the most recent pages since the first source, oldest first (at most the window). */
    #recent: boolean[] = [];
    /** Pages and novel pages (`hits`) since the first source that have left the recent window. */
    #earlier = { pages: 0, hits: 0 };

    constructor(query: QueryTerms, options: AdaptiveOptions = {}) {
        this.#query = query;
        this.#options = resolveOptions(options);
        this.#termEvidence = new Array<number>(query.size).fill(0);
    }

    /** Accounts one fetched page and says whether it was a hit and whether to stop. */
    observe(page: AdaptivePage): AdaptiveVerdict {
        const { relevance } = page;
        let hit = false;
        let novel = false;
        let found = false;
        if (!(relevance >= MIN_RELEVANCE)) {
            this.#observeIrrelevant(page.blind);
        } else {
            this.#relevantPages += 1;
            this.#cold = 0;
            novel = true;
            // Pages in the neutral band can neither complete coverage nor declare the topic exhausted.
            if (relevance >= EVIDENCE_RELEVANCE) {
                ({ hit, novel } = this.#observeEvidence(page.markdown));
                found = novel;
                if (found) this.#foundPages += 1;
            }
        }
        this.#remember(novel);
        this.#stopReason ??= this.#stopNow(page);
        return { hit, novel, found, stop: this.#stopReason };
    }

    /** Mean over terms of min(1, evidence / evidencePerTerm), 0…1. */
    get coverage(): number {
        return this.#coverage();
    }

    summary(): AdaptiveSummary {
        return {
            coverage: this.#coverage(),
            termEvidence: [...this.#termEvidence],
            relevantPages: this.#relevantPages,
            sources: this.#sources,
            foundPages: this.#foundPages,
            stopReason: this.#stopReason,
            stopEstimate: this.#stopEstimate,
        };
    }

    /**
     * Pages at or above the evidence band with new text so far: what an estimated recall counts as found. Not the
     * neutral band's pages, which the crawl itself does not take for the topic: counting them made the estimate count
     * 30 pages found on stanford-cs graduate admissions where the labels hold 18, and expect five times as many behind
     * the leftover links.
     */
    get foundPages(): number {
        return this.#foundPages;
    }

    toJSON(): AdaptiveStopJSON {
        return {
            options: { ...this.#options },
            terms: [...this.#query.terms],
            termEvidence: [...this.#termEvidence],
            seen: [...this.#seen],
            recent: this.#recent.map(Number),
            earlier: { ...this.#earlier },
            collected: this.#collected,
            stale: this.#stale,
            cold: this.#cold,
            sources: this.#sources,
            relevantPages: this.#relevantPages,
            foundPages: this.#foundPages,
            stopReason: this.#stopReason,
            stopEstimate: this.#stopEstimate,
            ...(this.#coldAwaiting === null ? {} : { coldAwaiting: [...this.#coldAwaiting] }),
        };
    }

    /** Restores a saved state; `query` must have the same terms as the one it was saved with. */
    static fromJSON(json: AdaptiveStopJSON, query: QueryTerms): AdaptiveStop {
        const sameTerms = Array.isArray(json?.terms)
            && json.terms.length === query.terms.length
            && json.terms.every((term, i) => term === query.terms[i]);
        if (!sameTerms || !Array.isArray(json.termEvidence) || json.termEvidence.length !== query.size) {
            throw new TypeError('AdaptiveStop.fromJSON: the saved state belongs to another query; restore it with the query it was saved with, or start a new AdaptiveStop.');
        }
        const stop = new AdaptiveStop(query, json.options);
        json.termEvidence.forEach((evidence, i) => { stop.#termEvidence[i] = evidence; });
        for (const hash of json.seen) stop.#seen.add(hash);
        stop.#recent = (json.recent ?? []).map(Boolean);
        stop.#earlier = { ...(json.earlier ?? { pages: 0, hits: 0 }) };
        stop.#collected = json.collected;
        stop.#stale = json.stale;
        stop.#cold = json.cold;
        stop.#sources = json.sources;
        stop.#relevantPages = json.relevantPages;
        // Older snapshots counted the neutral band too; their hits are the nearest count they kept.
        stop.#foundPages = json.foundPages ?? json.sources;
        stop.#stopReason = json.stopReason;
        stop.#stopEstimate = json.stopEstimate ?? null;
        stop.#coldAwaiting = Array.isArray(json.coldAwaiting) ? new Set(json.coldAwaiting) : null;
        return stop;
    }

    #observeIrrelevant(blind: boolean): void {
        if (this.#sources > 0) {
            this.#stale += 1;
        } else {
            // Only pages reached blindly say the site has nothing; a promising link that disappoints does not.
            this.#cold = blind ? this.#cold + 1 : 0;
        }
    }

    /** Counts the page's new paragraphs as evidence; says whether there were any, and whether they were a real gain. */
    #observeEvidence(markdown: string): { hit: boolean; novel: boolean } {
        let gain = 0;
        let pageWords = 0;
        for (const block of paragraphs(markdown)) {
            const words = wordCount(block);
            pageWords += words;
            const hash = textFingerprint(block);
            if (this.#seen.has(hash)) continue;
            this.#seen.add(hash);
            gain += words;
            for (const term of this.#query.termsIn(block)) this.#termEvidence[term]! += 1;
        }
        const worthwhile = gain >= this.#options.minGain * this.#collected || gain >= NOVEL_PAGE_SHARE * pageWords;
        if (gain === 0 || !worthwhile) {
            this.#stale += 1;
            return { hit: false, novel: gain > 0 };
        }
        this.#stale = 0;
        this.#sources += 1;
        this.#collected += gain;
        return { hit: true, novel: true };
    }

    #coverage(): number {
        const { evidencePerTerm } = this.#options;
        if (this.#termEvidence.length === 0) return 0;
        const sum = this.#termEvidence.reduce((total, evidence) => total + Math.min(1, evidence / evidencePerTerm), 0);
        return sum / this.#termEvidence.length;
    }

    /**
     * Keeps the record of novel pages (relevant, with a paragraph not read before) since the first source: a window of
     * recent pages and the sum before it. Novel pages, not hits, because a collection keeps paying off while each new
     * page brings its own text, even when most of every page is shared boilerplate (acl2020 paper pages list similar
     * papers: 97 % of the pages of a dialogue-systems crawl were relevant, few counted as hits).
     */
    #remember(novel: boolean): void {
        if (this.#sources === 0) return;
        this.#recent.push(novel);
        if (this.#recent.length > HARVEST_WINDOW_PATIENCE * this.#options.patience) {
            const left = this.#recent.shift()!;
            this.#earlier.pages += 1;
            if (left) this.#earlier.hits += 1;
        }
    }

    /**
     * The recent window's share of novel pages is clearly below the share before it (upper bound below lower bound).
     * [I] While fewer than `patience` pages lie before the window, that share is too thin to compare with (two hits
     * on the first two pages stopped a steady one-in-seven harvest after 22 pages): only a window without any novel
     * page counts as a drop then.
     */
    #harvestDropped(): boolean {
        const { patience } = this.#options;
        if (this.#recent.length < HARVEST_WINDOW_PATIENCE * patience || this.#earlier.pages === 0) return false;
        const recentHits = this.#recent.filter(Boolean).length;
        if (this.#earlier.pages < patience) return recentHits === 0;
        const [, recentUpper] = wilson(recentHits, this.#recent.length);
        const [earlierLower] = wilson(this.#earlier.hits, this.#earlier.pages);
        return recentUpper < earlierLower;
    }

    /**
     * Blind probes have found nothing relevant, and no page still out could change that. A page reached through a
     * promising link (or a seed) may reset the blind count, so the rule waits while one is out: a slow answer to the
     * best link (a render on a loaded machine) let twelve blind probes stop a crawl that the link would have opened.
     * [I] It also waits for the pages that were out when the count reached its limit, blind or not: on acl2020 the
     * paper list (reached by the blind anchor "Papers") was still rendering when ten quicker menu pages stopped a
     * question-answering crawl at 15 pages, its 85 queued paper links unfetched. Those pages land after a stop anyway,
     * so waiting for their verdicts costs only the pages taken meanwhile.
     */
    #nothingRelevant(pending: AdaptivePage['pending']): boolean {
        if (this.#sources > 0 || this.#cold < COLD_PATIENCE * this.#options.patience) {
            this.#coldAwaiting = null;
            return false;
        }
        const out = pending?.() ?? { keys: [], promising: false };
        const stillOut = new Set(out.keys);
        this.#coldAwaiting = this.#coldAwaiting === null
            ? stillOut
            : new Set([...this.#coldAwaiting].filter((key) => stillOut.has(key)));
        return this.#coldAwaiting.size === 0 && !out.promising;
    }

    /**
     * The pages say the crawl has stopped paying off; with an outlook, the estimated recall must agree: a covered
     * query stops only when little relevant content can be left, and a dry run only when the frontier promises
     * nothing (issue 10: both early stops on unseen sites fired with relevant siblings still queued).
     */
    #stopNow({ outlook, pending }: AdaptivePage): StopReason | null {
        const { patience, coverageThreshold, recallTarget, maxExpectedLeft } = this.#options;
        if (this.#nothingRelevant(pending)) return 'no_relevant_pages';
        if (this.#stale < Math.ceil(patience / 2) || !this.#harvestDropped()) return null;
        const covered = this.#sources >= MIN_SOURCES && this.#coverage() >= coverageThreshold;
        // A query term no relevant paragraph has mentioned is a part of the topic not found yet, not one exhausted.
        const saturated = this.#stale >= patience && this.#termEvidence.every((evidence) => evidence > 0);
        if (!covered && !saturated) return null;
        const estimate = outlook?.(this.#foundPages) ?? null;
        const reason = covered && (!estimate || estimate.low >= recallTarget) ? 'coverage_reached'
            : saturated && (!estimate || estimate.expectedQueuedHigh < maxExpectedLeft) ? 'saturated'
            : null;
        // Pages in flight still land after the stop and move the final estimate: keep the one the rule agreed with.
        if (reason) this.#stopEstimate = estimate;
        return reason;
    }
}

function resolveOptions(options: AdaptiveOptions): Required<AdaptiveOptions> {
    const resolved = { ...DEFAULT_ADAPTIVE_OPTIONS };
    for (const key of Object.keys(resolved) as (keyof AdaptiveOptions)[]) {
        const value = options[key];
        if (value !== undefined) resolved[key] = value;
    }
    const { patience, minGain, evidencePerTerm, coverageThreshold, recallTarget, maxExpectedLeft } = resolved;
    if (!(recallTarget >= 0 && recallTarget <= 1)) throw new RangeError(`AdaptiveOptions.recallTarget must lie in [0, 1] (got ${recallTarget}).`);
    if (!(maxExpectedLeft >= 0)) throw new RangeError(`AdaptiveOptions.maxExpectedLeft must be ≥ 0 (got ${maxExpectedLeft}).`);
    if (!Number.isInteger(patience) || patience < 1) {
        throw new RangeError(`AdaptiveOptions.patience must be a whole number ≥ 1 (got ${patience}).`);
    }
    if (!(minGain >= 0)) throw new RangeError(`AdaptiveOptions.minGain must be ≥ 0 (got ${minGain}).`);
    if (!(evidencePerTerm > 0)) throw new RangeError(`AdaptiveOptions.evidencePerTerm must be > 0 (got ${evidencePerTerm}).`);
    if (!(coverageThreshold >= 0 && coverageThreshold <= 1)) {
        throw new RangeError(`AdaptiveOptions.coverageThreshold must lie in [0, 1] (got ${coverageThreshold}).`);
    }
    return resolved;
}

/** Blank-line separated blocks of the Markdown, whitespace-normalised, empty ones dropped. */
function paragraphs(markdown: string): string[] {
    return markdown
        .split(/\n[ \t]*\r?\n/)
        .map((block) => block.replace(/\s+/g, ' ').trim())
        .filter((block) => block !== '');
}

/** Token estimate: words separated by whitespace. */
function wordCount(normalisedBlock: string): number {
    return normalisedBlock.split(' ').length;
}
