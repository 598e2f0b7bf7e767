/**
 * `Focus`: the one object a crawl loop talks to in a focused crawl. It holds the query and every
 * statistic learned during the crawl (facet statistics, term weights, link model, harvest per
 * subtree and per cluster, stop rules), judges each fetched page and scores each discovered link.
 * Pure: no I/O, and the whole state serialises to plain JSON.
 */
import { clusterKey } from '../frontier/cluster-key.js';
import { DEFAULT_DELTA, twoSidedZ } from '../stat/index.js';
import { hostOf } from '../url/index.js';
import { AdaptiveStop, type AdaptiveOptions, type AdaptiveStopJSON, type PendingPages, type StopReason } from './adaptive.js';
import { FacetStats, Facets, type FacetStatsJSON } from './facets.js';
import { isDatedLeaf, isFurniture } from './furniture.js';
import { Harvest, subtree, type HarvestJSON } from './harvest.js';
import { evidenceScore, HUB_FACTOR, isBlind, isUntestedSeries, linkFeatures, linkScore, SEED_SCORE, type LinkScoreWeights, type LinkSignal } from './link-score.js';
import { Locality, localityKeys, type LocalityJSON } from './locality.js';
import { ScoreCalibration, type LinkProbability, type ScoreCalibrationJSON } from './calibration.js';
import { LinkModel, type LinkModelJSON } from './model.js';
import { addCounts, estimateRecall, expectedCount, type ExpectedCount, type RecallEstimate } from './recall.js';
import { Query } from './query.js';
import { hasForeignLanguageSegment, isEnglishHomeShape, locator, section } from './url-shape.js';
import { RESCORE_DELTA, TermWeights, type TermWeightsJSON } from './weights.js';

/** Options of a {@link Focus}. */
export interface FocusOptions {
    /** Start URLs of the crawl; the first one's host is the seed host (subtrees are cut on it). */
    seedUrls: string[];
    /**
     * Stop rules.
     * @default {} (patience 5, minGain 0.05, evidencePerTerm 3, coverageThreshold 0.8)
     */
    adaptive?: AdaptiveOptions;
    /**
     * The single error-rate knob of every statistical test (phrases, link-model gate, harvest intervals).
     * @default DEFAULT_DELTA (0.05)
     */
    delta?: number;
    /**
     * Language of the query (BCP 47). For an English query, links into other languages' parts of a
     * site are demoted and the English home of a non-English site is lifted.
     * @default 'en' when every query term is written in ASCII letters and digits, else null (unknown: no language rules)
     */
    queryLanguage?: string | null;
}

/** A fetched page, as {@link Focus.observePage} needs it. */
export interface FocusPage {
    /** Final URL of the page. */
    url: string;
    /** Page title. */
    title: string;
    /** Main content as Markdown. */
    markdown: string;
    /** Number of links on the page. */
    linkCount: number;
    /** Number of prose words on the page (outside link text). */
    proseWords: number;
    /** Declared language (`<html lang>`), if any. */
    lang?: string | null;
}

/** What {@link Focus.observePage} says about a page. */
export interface PageVerdict {
    /** Relevance to the query, 0…1. */
    relevance: number;
    /** The page brought new on-topic content. */
    hit: boolean;
    /** The page counts as found for the estimated recall (relevant in the evidence band, with new text). */
    found: boolean;
    /** Why to stop the crawl now, or null. */
    stop: StopReason | null;
    /**
     * Term weights, link model weights, a neighbourhood's yield, the query coverage or the
     * language-portal state changed: re-score the queue with {@link Focus.score}.
     */
    rescore: boolean;
    /** The page links more than it says: pass this as `parent.isHub` when scoring its links. */
    isHub: boolean;
}

/** A discovered link, as {@link Focus.scoreLink} needs it. */
export interface FocusLink {
    /** Absolute URL of the target. */
    url: string;
    /** Anchor text. */
    anchor: string;
    /** The line around the link (empty when unknown, e.g. navigation). */
    context: string;
    /** Depth of the target (seed = 0). */
    depth: number;
    /**
     * The link sits in the page's main content, not its navigation: on a hub page it is an item of what the hub
     * lists, and carries the hub's relevance undamped.
     * @default false
     */
    inMainContent?: boolean;
}

/** The page a link was found on. */
export interface FocusParent {
    /** URL of the page. */
    url: string;
    /** Its relevance, from {@link PageVerdict.relevance}. */
    relevance: number;
    /** From {@link PageVerdict.isHub}. */
    isHub: boolean;
}

/** A page taken but not yet judged. */
export interface PendingLink {
    url: string;
    signal: LinkSignal | null;
}

/** The links a crawl knows of but has not fetched, as the recall estimate reads them: their current scores. */
export interface FrontierLinks {
    /** Scores of the links still queued (or held for a retry). */
    queuedScores(): Iterable<number>;
    /** Scores of links dropped for want of room, under the current weights. */
    droppedScores(): Iterable<number>;
    /** Links dropped before that are no longer held, as counted when they were dropped. */
    droppedEarlier: ExpectedCount;
    /** The pages being fetched or waiting for a retry, with the signals of their links (null for seeds and sitemap URLs). */
    pendingLinks(): Iterable<PendingLink>;
}

/** Crawl summary of the focus state. */
export interface FocusSummary {
    /** Query coverage by distinct relevant paragraphs, 0…1. */
    coverage: number;
    /** Per query term, the number of distinct relevant paragraphs containing it. */
    termEvidence: Record<string, number>;
    /** Pages observed. */
    pagesObserved: number;
    /** Pages at or above the minimum relevance. */
    relevantPages: number;
    /** Pages that brought new on-topic content. */
    hits: number;
    /** relevantPages / pagesObserved (0 before any page). */
    harvestRate: number;
    /** The stop reason given so far, if any. */
    stopReason: StopReason | null;
    /** The estimated recall when the stop rule fired (pages in flight then still change the final one). */
    stopEstimate: RecallEstimate | null;
}

/** Serialised form of a {@link Focus}. */
export interface FocusState {
    query: string;
    options: { seedUrls: string[]; adaptive: AdaptiveOptions; delta: number; queryLanguage: string | null };
    englishHomeFound: boolean;
    pagesObserved: number;
    hits: number;
    facets: FacetStatsJSON;
    termWeights: TermWeightsJSON;
    model: LinkModelJSON;
    locality: LocalityJSON;
    /** Query coverage when the queue was last re-scored (the section floor follows it). */
    coverageAtRescore: number;
    subtrees: HarvestJSON;
    clusters: HarvestJSON;
    adaptive: AdaptiveStopJSON;
    /** Absent in snapshots written before it was kept (a fresh calibration is used then). */
    calibration?: ScoreCalibrationJSON;
}

/** A hub page links more than it says: more links than prose words ([I] pagesift context.rs `prose_words`). */
export function isHub(linkCount: number, proseWords: number): boolean {
    return linkCount > proseWords;
}

/** A page reached through a link with no sign of the query; seeds and sitemap URLs are not (null, or a fixed score). */
function reachedBlindly(via: LinkSignal | null): boolean {
    return via !== null && isBlind(via);
}

/** The pages still out besides `url`, as the cold stop reads them. */
function pendingBesides(url: string, frontier: FrontierLinks): PendingPages {
    const keys: string[] = [];
    let promising = false;
    for (const link of frontier.pendingLinks()) {
        if (link.url === url) continue;
        keys.push(link.url);
        promising ||= !reachedBlindly(link.signal);
    }
    return { keys, promising };
}

function isEnglish(lang: string | null | undefined): boolean {
    return typeof lang === 'string' && /^en(?:$|[-_])/i.test(lang);
}

/** An item's signal as a continuation stores it: one level deep, whatever the item carried. */
function withoutContinuation({ continues: _nested, ...item }: LinkSignal): LinkSignal {
    return item;
}

function bitCount(mask: number): number {
    let count = 0;
    for (let rest = mask; rest !== 0; rest &= rest - 1) count += 1;
    return count;
}

/** Query, statistics and rules of one focused crawl (see the module doc). */
export class Focus {
    readonly query: Query;
    readonly #options: FocusState['options'];
    readonly #seedHost: string;
    #englishHomeFound = false;
    #pagesObserved = 0;
    #hits = 0;
    #facets: FacetStats;
    #termWeights: TermWeights;
    #model: LinkModel;
    #locality = new Locality();
    #coverageAtRescore = 0;
    #subtrees: Harvest;
    #clusters: Harvest;
    #adaptive: AdaptiveStop;
    #calibration = new ScoreCalibration();

    constructor(query: string | Query, options: FocusOptions) {
        this.query = typeof query === 'string' ? new Query(query) : query;
        const { seedUrls, adaptive = {}, delta = DEFAULT_DELTA } = options;
        const [first] = seedUrls;
        if (first === undefined || !URL.canParse(first)) {
            throw new TypeError(`Focus needs seedUrls with at least one absolute URL (got ${JSON.stringify(seedUrls)}); pass the crawl's start URLs.`);
        }
        const queryLanguage =
            options.queryLanguage !== undefined ? options.queryLanguage : this.query.terms.every((term) => /^[a-z0-9]+$/.test(term)) ? 'en' : null;
        this.#options = { seedUrls: [...seedUrls], adaptive: { ...adaptive }, delta, queryLanguage };
        this.#seedHost = hostOf(first);
        this.#facets = new FacetStats(this.query.size, delta);
        this.#termWeights = new TermWeights(this.query.size);
        this.#model = new LinkModel(delta);
        this.#subtrees = new Harvest(delta);
        this.#clusters = new Harvest(delta);
        this.#adaptive = new AdaptiveStop(this.query, adaptive);
    }

    /** Records the seed page's declared language; an English site needs no language portal. */
    noteSeedLanguage(lang: string | null): void {
        if (isEnglish(lang)) this.#englishHomeFound = true;
    }

    /**
     * Judges a fetched page (every page, useful or not) and learns from it.
     *
     * @param via The signal of the link the page was fetched through; null for seeds and sitemap URLs.
     * @param judged The page's relevance when it was already scored elsewhere (another worker of a shared crawl read
     *   it): a page is scored once, so every worker's stop rule and harvest weigh it alike whatever order they learn in.
     */
    observePage(page: FocusPage, via: LinkSignal | null, frontier?: FrontierLinks, judged?: number): PageVerdict {
        const facets = Facets.of(this.query, page.title, locator(page.url), page.markdown);
        this.#facets.observe(facets);
        const relevance = judged ?? this.#facets.relevance(facets);
        this.#termWeights.observe(facets.bodyTerms);
        this.#pagesObserved += 1;

        const learnable = via !== null && via.fixed === undefined;
        // The link's features as they were when it was queued: the page itself is not yet part of its locality.
        const features = learnable ? linkFeatures(via, this.#termWeights, this.#locality) : null;
        const takenScore = this.#calibrationScore(via);
        const { hit, novel, found, stop } = this.#adaptive.observe({
            relevance,
            markdown: page.markdown,
            blind: reachedBlindly(via),
            ...(frontier ? { outlook: (found: number) => this.#estimate(found, frontier), pending: () => pendingBesides(page.url, frontier) } : {}),
        });
        // The model learns which links lead to productive pages: relevant, and not a repeat of what was read
        // ([I] pagesift's target is relevance ≥ MIN_RELEVANCE; on acl2020 that rewarded links into filter
        // listings that repeat paper cards already read, and the parent weight rose until they filled the budget).
        const modelChanged = features !== null && this.#model.learn(features, novel);
        // The calibration counts in the estimate's unit: pages found, not the neutral band's.
        if (takenScore !== null) this.#calibration.learn(takenScore, found);
        const weightsMoved = this.#termWeights.weightsMoved();
        const portalClosed = this.#noteEnglishHome(page);
        // The first page of a series whose links were held at their own score (`isUntestedSeries`): they drop back
        // to the demotion unless it paid off.
        const seriesTested = via !== null && (via.furniture || via.dated || via.foreign) && isUntestedSeries(via, this.#locality);
        const localityMoved = this.#locality.observe(localityKeys(page.url), novel, RESCORE_DELTA) || seriesTested;
        const coverage = this.#adaptive.coverage;
        const coverageMoved = Math.abs(coverage - this.#coverageAtRescore) > RESCORE_DELTA;
        const rescore = modelChanged || weightsMoved || portalClosed || localityMoved || coverageMoved;
        if (rescore) {
            this.#locality.markRescored();
            this.#coverageAtRescore = coverage;
        }

        if (hit) this.#hits += 1;
        this.#subtrees.observe(subtree(this.#seedHost, page.url), hit);
        this.#clusters.observe(clusterKey(page.url), hit);
        return { relevance, hit, found, stop, rescore, isHub: isHub(page.linkCount, page.proseWords) };
    }

    /** Relevance of a page under the current site statistics, without recording it (e.g. to re-rank delivered pages). */
    relevance(page: Pick<FocusPage, 'url' | 'title' | 'markdown'>): number {
        return this.#facets.relevance(Facets.of(this.query, page.title, locator(page.url), page.markdown));
    }

    /**
     * Scores a discovered link and returns the signal to store with its queue entry.
     *
     * @param continues For a link that continues a listing (`continuesListing`), the signal of the best item link found
     *   on the same page: the link is worth at least that item one hop further away.
     */
    scoreLink(link: FocusLink, parent: FocusParent, continues?: LinkSignal): { score: number; signal: LinkSignal } {
        const english = isEnglish(this.#options.queryLanguage);
        const anchorTerms = this.query.maskOf(link.anchor);
        let kind = section(link.url, link.anchor);
        // The root of the host the link was found on is that site's home, not a sub-site to enter.
        if (kind === 'subsite' && URL.canParse(parent.url) && hostOf(link.url) === hostOf(parent.url)) kind = null;
        const signal: LinkSignal = {
            anchorTerms,
            urlTerms: this.query.urlMaskOf(locator(link.url)),
            contextTerms: this.query.maskOf(link.context) | this.#listingTerms(parent),
            // A hub's navigation links more than it says; the list in its main content is what it is about.
            parentRelevance: parent.relevance * (parent.isHub && link.inMainContent !== true ? HUB_FACTOR : 1),
            phrase: bitCount(anchorTerms) >= 2,
            furniture: isFurniture(link.url, link.anchor, (word) => this.query.termsIn(word).size > 0),
            dated: isDatedLeaf(link.url),
            foreign: english && hasForeignLanguageSegment(link.url),
            section: kind,
            languagePortal: english && isEnglishHomeShape(link.url),
            depth: link.depth,
            locality: localityKeys(link.url),
            templated: /\d/.test(new URL(link.url).pathname.split('/').pop() ?? ''),
            ...(continues && continues.fixed === undefined ? { continues: withoutContinuation(continues) } : {}),
        };
        return { score: this.score(signal), signal };
    }

    /** A fixed-score signal for a seed URL: fetched before any link, never used for learning. */
    seedSignal(url: string): LinkSignal {
        return {
            anchorTerms: 0,
            urlTerms: this.query.urlMaskOf(locator(url)),
            contextTerms: 0,
            parentRelevance: 0,
            phrase: false,
            furniture: false,
            dated: false,
            foreign: false,
            section: null,
            languagePortal: false,
            depth: 0,
            locality: null,
            fixed: SEED_SCORE,
        };
    }

    /** The score of a stored signal under the current term weights, model weights, locality, coverage and portal state. */
    score(signal: LinkSignal): number {
        return linkScore(signal, this.#weights());
    }

    /** The link's evidence without the priors ({@link evidenceScore}): what exploration ranks unopened sections by. */
    evidenceScore(signal: LinkSignal): number {
        return evidenceScore(signal, this.#weights());
    }

    #weights(): LinkScoreWeights {
        return {
            terms: this.#termWeights,
            model: this.#model.weights,
            englishHomeOpen: !this.#englishHomeFound,
            locality: this.#locality,
            coverage: this.#coverageAtRescore,
        };
    }

    /**
     * A link that was fetched and paid off nothing without a page to judge: its fetch failed (an error status, a
     * timeout), or its page repeated one already read (a duplicate, a near-duplicate, a soft 404). The calibration
     * counts it as unproductive. Counted only on pages that were judged, the probabilities were those of links whose
     * fetch succeeded with new text, and the estimated recall took every unfetched link for that good: on stanford-cs,
     * whose pages link to 891 pages missing from the capture, 679 leftover links came to 110 relevant pages left where
     * the site has 20 (estimate 0.21, true recall 0.90).
     */
    observeUnproductiveLink(via: LinkSignal | null): void {
        const score = this.#calibrationScore(via);
        if (score !== null) this.#calibration.learn(score, false);
    }

    /**
     * The score a fetched link teaches the calibration, or null for none: seeds and sitemap URLs have fixed scores,
     * and a listing's next page pays off through the items it reveals, one hop later, so its score says nothing
     * about itself.
     */
    #calibrationScore(via: LinkSignal | null): number | null {
        return via === null || via.fixed !== undefined || via.continues !== undefined ? null : this.score(via);
    }

    /**
     * The probability that the page behind a link with this score is productive (relevant, with new text), with a
     * credible interval, calibrated on the links this crawl fetched (see calibration.ts).
     */
    linkProbability(score: number): LinkProbability {
        return this.#calibration.predict(score, twoSidedZ(this.#options.delta));
    }

    /** Fetched links the calibration has learned from (0: {@link linkProbability} knows nothing yet). */
    get calibrationSamples(): number {
        return this.#calibration.samples;
    }

    /** How much of the site's relevant content the crawl has found, from the links it has not fetched (see recall.ts). */
    estimateRecall(frontier: FrontierLinks): RecallEstimate {
        return this.#estimate(this.#adaptive.foundPages, frontier);
    }

    /** Relevant pages expected behind the links the frontier dropped: those it holds, re-scored, and the earlier ones. */
    expectedDropped(frontier: FrontierLinks): ExpectedCount {
        return addCounts(expectedCount(this.#probabilities(frontier.droppedScores())), frontier.droppedEarlier);
    }

    #estimate(found: number, frontier: FrontierLinks): RecallEstimate {
        return estimateRecall(found, expectedCount(this.#probabilities(frontier.queuedScores())), this.expectedDropped(frontier), twoSidedZ(this.#options.delta));
    }

    *#probabilities(scores: Iterable<number>): Iterable<LinkProbability> {
        for (const score of scores) yield this.linkProbability(score);
    }

    /** The subtree of `url` has proven dry: even optimistically it yields less than the rest of the crawl. */
    isDry(url: string): boolean {
        return this.#subtrees.isDry(subtree(this.#seedHost, url));
    }

    /** The cluster (`clusterKey`) has proven a better yield than the rest of the crawl. */
    isClusterProven(key: string): boolean {
        return this.#clusters.isProven(key);
    }

    /** Current term weights for link coverage, in query order. */
    get termWeights(): readonly number[] {
        return this.#termWeights.weights;
    }

    /** Link model weights in use, in `LINK_FEATURES` order (anchor, url, context, parent, phrase, locality). */
    get linkWeights(): readonly number[] {
        return this.#model.weights;
    }

    summary(): FocusSummary {
        const adaptive = this.#adaptive.summary();
        const termEvidence: Record<string, number> = {};
        this.query.terms.forEach((term, i) => {
            termEvidence[term] = adaptive.termEvidence[i] ?? 0;
        });
        return {
            coverage: adaptive.coverage,
            termEvidence,
            pagesObserved: this.#pagesObserved,
            relevantPages: adaptive.relevantPages,
            hits: this.#hits,
            harvestRate: this.#pagesObserved > 0 ? adaptive.relevantPages / this.#pagesObserved : 0,
            stopReason: adaptive.stopReason,
            stopEstimate: adaptive.stopEstimate,
        };
    }

    toJSON(): FocusState {
        return {
            query: this.query.text,
            options: { ...this.#options, seedUrls: [...this.#options.seedUrls], adaptive: { ...this.#options.adaptive } },
            englishHomeFound: this.#englishHomeFound,
            pagesObserved: this.#pagesObserved,
            hits: this.#hits,
            facets: this.#facets.toJSON(),
            termWeights: this.#termWeights.toJSON(),
            model: this.#model.toJSON(),
            locality: this.#locality.toJSON(),
            coverageAtRescore: this.#coverageAtRescore,
            subtrees: this.#subtrees.toJSON(),
            clusters: this.#clusters.toJSON(),
            adaptive: this.#adaptive.toJSON(),
            calibration: this.#calibration.toJSON(),
        };
    }

    static fromJSON(state: FocusState): Focus {
        if (typeof state?.query !== 'string' || typeof state.options !== 'object') {
            throw new TypeError('Focus.fromJSON expects the object produced by Focus#toJSON (after JSON.parse).');
        }
        const focus = new Focus(state.query, state.options);
        focus.#englishHomeFound = state.englishHomeFound;
        focus.#pagesObserved = state.pagesObserved;
        focus.#hits = state.hits;
        focus.#facets = FacetStats.fromJSON(state.facets);
        focus.#termWeights = TermWeights.fromJSON(state.termWeights);
        focus.#model = LinkModel.fromJSON(state.model);
        focus.#locality = Locality.fromJSON(state.locality);
        focus.#coverageAtRescore = state.coverageAtRescore;
        focus.#subtrees = Harvest.fromJSON(state.subtrees);
        focus.#clusters = Harvest.fromJSON(state.clusters);
        focus.#adaptive = AdaptiveStop.fromJSON(state.adaptive, focus.query);
        if (state.calibration) focus.#calibration = ScoreCalibration.fromJSON(state.calibration);
        return focus;
    }

    /**
     * Query terms a listing's URL names: a hub that lists what its URL selects (`?track=Question
     * Answering`, `/tag/summarization/`) says of every item what a context line would, even when the
     * items' titles do not repeat it. [I] On acl2020 the track listing's papers without the query in
     * their title scored below the "similar papers" of relevant pages, which are mostly off-topic.
     */
    #listingTerms(parent: FocusParent): number {
        if (!parent.isHub || !URL.canParse(parent.url)) return 0;
        // The filter values count here (unlike in `locator`, which names the page itself): they select the items.
        const filters = [...new URL(parent.url).searchParams.values()].join(' ');
        return this.query.urlMaskOf(locator(parent.url)) | this.query.maskOf(filters);
    }

    /**
     * Marks the English home found when a page of that shape is fetched and is not declared in
     * another language (a broken `/en/` link may land on the native home); true when this closes the
     * portal floor.
     */
    #noteEnglishHome({ url, lang }: FocusPage): boolean {
        if (this.#englishHomeFound || !isEnglish(this.#options.queryLanguage) || !isEnglishHomeShape(url)) return false;
        if (lang && !isEnglish(lang)) return false;
        this.#englishHomeFound = true;
        return true;
    }
}
