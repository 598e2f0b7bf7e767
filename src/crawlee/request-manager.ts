import { Request } from 'crawlee';
import type {
    AddRequestsBatchedOptions,
    AddRequestsBatchedResult,
    Dictionary,
    IRequestManager,
    RequestQueueOperationOptions,
    RequestsLike,
    Source,
} from 'crawlee';

import { Admission, HostSchedule, InFlightRequests, LinkReserve, PoliteQueue, SectionExploration, SkipTally, TrapLearner, clusterKey, pickExploration, politenessHost } from '../frontier/index.js';
import type { DiscoveryYieldJSON, DiversityRule, Flight, FrontierSkipReason, ExplorationCandidate, ExplorationLedgerJSON, LinkReserveJSON, PoliteGate, RankedEntry } from '../frontier/index.js';
import { FrontierRanking, addCounts, continuesListing, expectedCount, listingPromise, NO_LINKS } from '../focus/index.js';
import type { ExpectedCount, Focus, FrontierLinks, LinkSignal, PendingLink } from '../focus/index.js';
import { CrawlScope, dedupKey, shapeKey, UrlGlobs } from '../url/index.js';
import type { SkipOptions } from '../url/index.js';
import { requestIdOf } from './request-id.js';
import type { RobotsCache } from './robots-cache.js';

export type ProcessedRequest = AddRequestsBatchedResult['addedRequests'][number];
type OperationInfo = Awaited<ReturnType<IRequestManager['addRequest']>>;

export type { FrontierSkipReason };

/** A link found on a page, as the page hook hands it to the manager. */
export interface LinkCandidate {
    url: string;
    anchor?: string;
    context?: string;
    /** The link sits in the page's main content (see `FocusLink.inMainContent`). @default false */
    inMainContent?: boolean;
}

/** The page a batch of links was found on. */
export interface ParentPage {
    url: string;
    depth: number;
    relevance: number;
    isHub: boolean;
    /** The signal of the link the page was fetched through (null for seeds and sitemap URLs). @default null */
    via?: LinkSignal | null;
}

/** What {@link FocusedRequestManager.offerLinks} made of a page's links. */
export interface OfferedLinks {
    /** Links queued. */
    queued: number;
    /** Links new to the crawl in the page's main content (what ranks links without evidence); null for a start page. */
    revealed: number | null;
}

/** One queued URL. Plain JSON, so the frontier can be snapshotted and restored. */
export interface FrontierEntry {
    url: string;
    uniqueKey: string;
    depth: number;
    shape: string;
    parentUrl: string | null;
    anchorText: string;
    /** Scoring signal (focused crawls only); rescoring reads it instead of the page. */
    signal: LinkSignal | null;
    /** `userData` given by the caller (labels of user-added requests). */
    userData: Dictionary;
}

/** What the page hook needs to know about a request the manager handed out. */
export interface FetchedEntry extends FrontierEntry {
    linkScore: number | null;
}

export interface FocusedRequestManagerOptions {
    /**
     * The query's scoring state. With it the frontier is best-first; without it, a trap-aware,
     * per-host round-robin breadth-first queue.
     * @default null
     */
    focus?: Focus | null;
    /** Learns URL templates that repeat content and duplicate spellings. @default new TrapLearner() */
    trapLearner?: TrapLearner;
    /**
     * Pages to fetch at most, enforced when a request is taken (retries of a taken request are free).
     * @default Infinity
     */
    maxPages?: number;
    /**
     * Upper bound on queued URLs, whatever the page budget; bounds memory on unbounded crawls.
     * @default 100_000
     */
    maxFrontierSize?: number;
    /**
     * Hosts whose pages may be fetched (each with its subdomains when `allowSubdomains`). Given, they are the whole
     * scope; by default it is the hosts of the seed requests (depth 0), joined by a host a seed redirects to
     * ({@link FocusedRequestManager.adoptStartRedirect}).
     * @default the hosts of the seed requests (depth 0)
     */
    allowedHosts?: string[];
    /** Whether subdomains of the allowed hosts are in scope. @default true */
    allowSubdomains?: boolean;
    /** Links deeper than this (seeds are depth 0) are skipped as `beyond-max-depth`. @default no limit */
    maxDepth?: number;
    /**
     * URL globs a discovered link must match one of (`https://example.com/docs/**`); start URLs are exempt.
     * Others are skipped as `not-included-by-glob`. @default [] (every URL in scope)
     */
    includeUrlGlobs?: string[];
    /** URL globs whose links are skipped as `excluded-by-glob`, start URLs exempt. @default [] */
    excludeUrlGlobs?: string[];
    /** Requests in flight per host at most. @default 4 */
    maxRequestsPerHost?: number;
    /** Minimum time between two requests to the same host. @default 0 */
    minDelayPerHostMillis?: number;
    /** Limits of the pre-fetch URL filter. @default DEFAULT_SKIP_OPTIONS */
    skip?: SkipOptions;
    /**
     * Pages scheduled per site cluster before the best-first queue prefers other clusters
     * (§6.3 of the spec); proven clusters are exempt.
     * @default max(2, ceil(maxPages / 10)), or 50 without a page budget
     */
    clusterCap?: number;
    /**
     * robots.txt of each host: disallowed URLs are not queued (nor fetched, if queued before the file arrived), a
     * host waits until its file has been read, and its `Crawl-delay` raises `minDelayPerHostMillis`.
     * @default null (robots.txt is not read)
     */
    robots?: RobotsCache | null;
    /** Examples kept per skip reason for `skippedLinks()`. @default 20 */
    samplesPerReason?: number;
    /**
     * Awaited before `markRequestHandled` resolves, e.g. to make a snapshot durable, so that a crash can only
     * lose requests that were still in flight.
     */
    onRequestHandled?: (request: Request) => Promise<void> | void;
    /** Called on every request the manager hands out, before Crawlee sees it (e.g. to fetch documents without navigating). */
    prepareRequest?: (request: Request) => void;
}

/** Score of requests added with `forefront: true`: ahead of any scored link. */
export const FOREFRONT_SCORE = 1e6;
/** §9.2 [I]: cluster cap ≈ max(2, ⌈limit/10⌉). */
const CLUSTER_CAP_SHARE = 0.1;

/** How a URL was found: what {@link FocusedRequestManager.admit} needs besides the URL. */
export interface Discovery {
    depth: number;
    parentUrl: string | null;
    anchorText: string;
    /** Scores the cleaned URL (focused crawls); `undefined` in breadth-first crawls. */
    scoreWith: (url: string) => { score: number; signal: LinkSignal } | undefined;
    userData: Dictionary;
    forefront: boolean;
}

type InFlight = Flight<Request, FetchedEntry>;

/** What the stall watchdog reads: is there work, and how long has nothing moved. */
export interface StallState {
    /** Requests in flight, waiting for a retry, or queued with budget left. */
    pending: boolean;
    /** Time since the last take, handled request or reclaim, less any wait the crawl knows the end of (back-off, delay). */
    idleMillis: number;
}

/** Snapshot of the manager's whole state; see {@link FocusedRequestManager.toJSON}. */
export interface FocusedRequestManagerState {
    version: 1;
    scheduled: number;
    handled: string[];
    known: string[];
    scopeHosts: string[];
    queue: unknown;
    parked: Array<{ entry: FrontierEntry; score: number }>;
    pending: Array<{ entry: FetchedEntry; request: Dictionary }>;
    clusterScheduled: Array<[string, number]>;
    skipped: Array<[string, number]>;
    samples: Array<[string, string[]]>;
    stopped: boolean;
    /** Relevant pages expected behind links dropped for want of room and not saved in `reserve` (absent before it was kept). */
    droppedEarlier?: ExpectedCount;
    /** The best links held in the reserve, as many as the budget left could fetch (absent before it was kept). */
    reserve?: LinkReserveJSON<FrontierEntry>;
    /** Links queued again from the reserve so far. */
    refilled?: number;
    /** Sections exploration counts as opened, and the pages exploration took (absent before exploration). */
    openedSections?: string[];
    explorations?: number;
    /** What exploration has paid (absent before it was kept). */
    explorationLedger?: ExplorationLedgerJSON;
    /** Pages fetched per section not yet opened (absent before it was kept). */
    sectionFetches?: Array<[string, number]>;
    /** New links revealed per directory (absent before it was kept). */
    discovery?: DiscoveryYieldJSON;
    /** Hosts one of whose requests has ended: a resumed crawl asks them at full speed (absent before it was kept). */
    answeredHosts?: string[];
}

/**
 * Share of a focused crawl's pages that explore sections of the site no fetch has opened: one page in ten [I]. Link
 * scores rank what the crawl has evidence for, and a section it never entered has none either way.
 */
export const EXPLORATION_SHARE = 0.1;

/** Reserve links saved in a snapshot at most: a resumed crawl can still refill its queue, and snapshots stay small. */
const MAX_RESERVE_SAVED = 1_000;

/**
 * Crawlee's `IRequestManager` backed by the focused frontier.
 *
 * Every URL is cleaned, rewritten by the learned DUST rules, filtered, scoped, deduplicated and scored before it
 * is queued; the page budget is enforced when a request is taken, so links are ranked before any is dropped
 * (unlike `maxRequestsPerCrawl`, which truncates in page order).
 * Pass it as the crawler's `requestQueue` (Crawlee 3.18 rejects the `requestManager` option at runtime).
 */
export class FocusedRequestManager implements IRequestManager, FrontierLinks {
    /** Written by the crawler at construction; unused by an in-memory frontier. */
    internalTimeoutMillis = 0;
    /** Written by the crawler at construction; there are no locks to expire here. */
    requestLockSecs = 0;
    /** Read by the crawler; must not be `'default'`, which a second `run()` would drop. */
    readonly name = 'crawlee-focus';

    readonly focus: Focus | null;
    readonly trapLearner: TrapLearner;
    readonly maxPages: number;

    private readonly options: Required<Omit<FocusedRequestManagerOptions, 'focus' | 'trapLearner' | 'allowedHosts' | 'clusterCap' | 'onRequestHandled' | 'robots' | 'prepareRequest' | 'maxDepth' | 'includeUrlGlobs' | 'excludeUrlGlobs'>> & {
        clusterCap: number;
    };
    private readonly onRequestHandled: FocusedRequestManagerOptions['onRequestHandled'];
    private readonly prepareRequest: FocusedRequestManagerOptions['prepareRequest'];
    /** The rules a discovered URL passes before it may be queued. */
    private readonly admission: Admission;
    protected readonly robots: RobotsCache | null;
    /** The queue: best-first with focus, else breadth-first; it hands out only links whose host is free. */
    private queue: PoliteQueue<FrontierEntry>;
    /** Requests in flight, and those reclaimed (retries, delays), served before the queue and outside the budget. */
    private readonly flights = new InFlightRequests<Request, FetchedEntry>();
    private readonly hosts: HostSchedule;
    /** Dedup keys of everything queued, in flight or handled. */
    protected readonly known = new Set<string>();
    protected readonly handled = new Set<string>();
    /** The trap learner's rule count when the taken pages' keys were last brought up to date ({@link rekeyTakenPages}). */
    private keyedUnderRules = 0;
    /** Keys under which taken pages are known beyond their own: anew under each rule learned since ({@link rekeyTakenPages}), and, in a shared crawl, other workers' pages. */
    protected readonly takenPageKeys = new Set<string>();
    /** Handled requests given back to the budget ({@link refund}). */
    private readonly refunded = new Set<string>();
    private readonly scope: CrawlScope;
    private readonly clusterScheduled = new Map<string, number>();
    private skips: SkipTally<FrontierSkipReason>;
    /**
     * Links dropped for want of room (rejected or evicted) or found in a dry subtree. Those dropped for room are what
     * the recall estimate counts as left behind; all of them refill the queue when it runs empty with budget left, and
     * those dropped for room compete again after every re-score (`promoteFromReserve`).
     */
    protected reserve = new LinkReserve<FrontierEntry>();
    /** Relevant pages expected behind dropped links the reserve no longer holds. */
    droppedEarlier: ExpectedCount = NO_LINKS;
    protected refilledCount = 0;
    /** How the queue ranks a link: its score under the current model, adjusted for traps and failures. */
    protected ranking: FrontierRanking;
    /** Sections of the sites fetches have opened, the pages exploration took, and what exploring paid. */
    protected sections = new SectionExploration();
    private scheduled = 0;
    protected stopped = false;
    /** Set by the stall watchdog: nothing more is handed out, but what was pending stays in the snapshot for a resume. */
    protected halted = false;
    /** Last take, handled request or reclaim. */
    protected lastActivityAt = Date.now();
    private seenGeneration: number;

    constructor(options: FocusedRequestManagerOptions = {}) {
        const maxPages = options.maxPages ?? Infinity;
        if (!(maxPages >= 0)) throw new RangeError(`maxPages must be a number ≥ 0, got ${options.maxPages}`);
        this.focus = options.focus ?? null;
        this.trapLearner = options.trapLearner ?? new TrapLearner();
        this.maxPages = maxPages;
        this.options = {
            maxPages,
            maxFrontierSize: options.maxFrontierSize ?? 100_000,
            allowSubdomains: options.allowSubdomains ?? true,
            maxRequestsPerHost: options.maxRequestsPerHost ?? 4,
            minDelayPerHostMillis: options.minDelayPerHostMillis ?? 0,
            skip: options.skip ?? {},
            samplesPerReason: options.samplesPerReason ?? 20,
            clusterCap:
                options.clusterCap ?? (Number.isFinite(maxPages) ? Math.max(2, Math.ceil(maxPages * CLUSTER_CAP_SHARE)) : 50),
        };
        this.hosts = new HostSchedule(this.options.maxRequestsPerHost);
        this.skips = new SkipTally(this.options.samplesPerReason);
        this.scope = new CrawlScope(options.allowedHosts, this.options.allowSubdomains);
        this.queue = this.focus ? PoliteQueue.bestFirst() : PoliteQueue.breadthFirst(this.trapLearner);
        this.ranking = new FrontierRanking(this.focus, this.trapLearner);
        this.seenGeneration = this.trapLearner.generation;
        this.onRequestHandled = options.onRequestHandled;
        this.prepareRequest = options.prepareRequest;
        this.admission = new Admission({
            skip: this.options.skip,
            scope: this.scope,
            maxDepth: options.maxDepth,
            globs: new UrlGlobs(options.includeUrlGlobs, options.excludeUrlGlobs),
            trapLearner: this.trapLearner,
        });
        this.robots = options.robots ?? null;
    }

    /** Restores a manager saved with {@link toJSON}; requests that were in flight come back as pending. */
    static fromJSON(state: FocusedRequestManagerState, options: FocusedRequestManagerOptions = {}): FocusedRequestManager {
        if (state?.version !== 1) throw new TypeError('Unknown crawlee-focus frontier snapshot; start the crawl afresh (resume: false).');
        const manager = new FocusedRequestManager(options);
        manager.queue = PoliteQueue.fromJSON({ queue: state.queue, parked: state.parked }, manager.focus ? null : manager.trapLearner);
        manager.scheduled = state.scheduled;
        for (const key of state.handled) manager.handled.add(key);
        for (const key of state.known) manager.known.add(key);
        manager.scope.restore(state.scopeHosts);
        for (const url of manager.queue.urls()) manager.robots?.policyFor(url); // a resumed crawl reads robots.txt afresh
        for (const { entry, request } of state.pending) {
            manager.robots?.policyFor(entry.url);
            const restored = manager.toRequest(entry);
            restored.retryCount = (request.retryCount as number | undefined) ?? 0;
            restored.userData = { ...(request.userData as Dictionary) };
            manager.flights.retry({ request: restored, entry, host: politenessHost(entry.url) });
        }
        for (const [cluster, count] of state.clusterScheduled) manager.clusterScheduled.set(cluster, count);
        manager.skips = SkipTally.fromJSON(state, manager.options.samplesPerReason);
        manager.stopped = state.stopped;
        manager.droppedEarlier = state.droppedEarlier ?? NO_LINKS;
        manager.reserve = LinkReserve.fromJSON(state.reserve);
        manager.refilledCount = state.refilled ?? 0;
        manager.sections = SectionExploration.fromJSON(state);
        manager.ranking = new FrontierRanking(manager.focus, manager.trapLearner, state.discovery);
        for (const host of state.answeredHosts ?? []) manager.hosts.answered(host);
        return manager;
    }

    // ---------------------------------------------------------------- adding

    /**
     * Offers the links found on a page: how many were queued, and how many links new to the crawl its main content
     * revealed (null for a start page, which ranks nothing). Links that continue a listing (next page, ») are offered
     * last, with the best of the page's items not fetched yet: they lead to more items like it.
     */
    offerLinks(links: Iterable<LinkCandidate>, parent: ParentPage): OfferedLinks {
        const items: LinkCandidate[] = [];
        const continuations: LinkCandidate[] = [];
        for (const link of links) (continuesListing(parent.url, link.url, link.anchor ?? '') ? continuations : items).push(link);
        let bestItem: { score: number; signal: LinkSignal } | undefined;
        let queued = 0;
        let revealed = 0;
        const offer = (link: LinkCandidate, continues: LinkSignal | undefined): void => {
            const result = this.admit(link.url, {
                depth: parent.depth + 1,
                parentUrl: parent.url,
                anchorText: link.anchor ?? '',
                // Called only for a link not fetched yet (a new one, or one still queued).
                scoreWith: (url) => {
                    const scored = this.focus?.scoreLink(
                        { url, anchor: link.anchor ?? '', context: link.context ?? '', depth: parent.depth + 1, inMainContent: link.inMainContent === true },
                        { url: parent.url, relevance: parent.relevance, isHub: parent.isHub },
                        continues,
                    );
                    if (scored && continues === undefined && scored.score > (bestItem?.score ?? -Infinity)) bestItem = scored;
                    return scored;
                },
                userData: {},
                forefront: false,
            });
            if (result.added) queued++;
            // Menus are the same on every page; what a page reveals is in its content.
            if (result.fresh && link.inMainContent === true) revealed++;
        };
        for (const link of items) offer(link, undefined);
        const promise = continuations.length > 0 && this.focus ? listingPromise(bestItem?.signal, parent.via, (signal) => this.focus!.score(signal)) : bestItem?.signal;
        for (const link of continuations) offer(link, promise);
        if (parent.depth === 0) return { queued, revealed: null };
        this.ranking.noteRevealed(parent.url, revealed);
        return { queued, revealed };
    }

    /** Another worker of a shared crawl read a page that revealed `revealed` new links: the ranking counts them too. */
    noteRevealedElsewhere(pageUrl: string, revealed: number): void {
        this.ranking.noteRevealed(pageUrl, revealed);
    }

    async addRequest(source: Source, options: RequestQueueOperationOptions = {}): Promise<OperationInfo> {
        return this.addSource(source, options.forefront ?? false);
    }

    async addRequestsBatched(requests: RequestsLike, options: AddRequestsBatchedOptions = {}): Promise<AddRequestsBatchedResult> {
        const addedRequests: ProcessedRequest[] = [];
        const requestsOverLimit: Source[] = [];
        // Only honoured when the user set `maxRequestsPerCrawl`; the focused budget is `maxPages`.
        let budget = options.maxNewRequests ?? Infinity;
        for await (const item of requests as AsyncIterable<Source | string>) {
            const source: Source = typeof item === 'string' ? { url: item } : item;
            if (budget <= 0) {
                requestsOverLimit.push(source);
                continue;
            }
            const info = this.addSource(source, options.forefront ?? false);
            if (!info.wasAlreadyPresent) budget--;
            addedRequests.push(info);
        }
        return { addedRequests, waitForAllRequestsToBeAdded: Promise.resolve([]), requestsOverLimit };
    }

    private addSource(source: Source, forefront: boolean): OperationInfo {
        const request = source instanceof Request ? source : new Request(source as ConstructorParameters<typeof Request>[0]);
        const depth = request.crawlDepth ?? 0;
        const userData = { ...(request.userData as Dictionary) };
        delete userData.__crawlee;
        if (request.label) userData.label = request.label;
        const isSeed = depth === 0;
        if (isSeed) this.scope.addStartUrl(request.url); // a malformed one: admit() reports it
        const result = this.admit(request.url, {
            depth,
            parentUrl: null,
            anchorText: '',
            scoreWith: (url) =>
                this.focus
                    ? isSeed || forefront
                        ? { score: forefront ? FOREFRONT_SCORE : this.focus.score(this.focus.seedSignal(url)), signal: this.focus.seedSignal(url) }
                        : this.focus.scoreLink({ url, anchor: '', context: '', depth }, { url: '', relevance: 0, isHub: false })
                    : undefined,
            userData,
            forefront,
        });
        const uniqueKey = result.uniqueKey ?? request.uniqueKey;
        return {
            requestId: requestIdOf(uniqueKey),
            uniqueKey,
            wasAlreadyPresent: !result.added,
            wasAlreadyHandled: this.handled.has(uniqueKey),
            forefront,
        } as OperationInfo;
    }

    /** `fresh`: the link is new to the crawl (neither known nor disallowed), whether or not the queue had room for it. */
    private admit(rawUrl: string, how: Discovery): { added: boolean; uniqueKey?: string; fresh?: boolean } {
        // Our dedup key replaces Crawlee's unique key: one page, one request, whatever the spelling.
        this.rekeyTakenPages();
        const verdict = this.admission.judge(rawUrl, how.depth);
        if (!verdict.admitted) return this.skip(verdict.reason, verdict.url);
        const { url, cleaned, uniqueKey } = verdict;
        if (this.known.has(uniqueKey)) {
            this.raiseIfQueued(uniqueKey, url, how);
            return this.skip(url === cleaned && uniqueKey === dedupKey(url) ? 'duplicate-url' : 'duplicate-spelling', url, uniqueKey);
        }
        if (this.robots?.policyFor(url)?.isAllowed(url) === false) return this.skip('robots-disallowed', url);
        const entry: FrontierEntry = {
            url,
            uniqueKey,
            depth: how.depth,
            shape: shapeKey(url),
            parentUrl: how.parentUrl,
            anchorText: how.anchorText,
            signal: null,
            userData: how.userData,
        };
        const scored = this.queue.isBestFirst ? how.scoreWith(url)! : null;
        entry.signal = scored?.signal ?? null;
        if (this.focus && how.depth > 0 && this.focus.isDry(url)) {
            this.reserve.hold(uniqueKey, entry, 'dry-subtree', this.scoreOfEntry);
            return { ...this.skip('dry-subtree', url), fresh: true };
        }
        const best = how.forefront ? { entry, score: FOREFRONT_SCORE } : this.bestSighting(entry, this.ranking.adjust(scored?.score ?? 0, entry.shape, url));
        return this.enqueue(best.entry, best.score) ? { added: true, uniqueKey, fresh: true } : { ...this.skip('frontier-full', url), fresh: true };
    }

    /** A link dropped earlier for room comes back with its best sighting's evidence, as a queued link keeps it. */
    private bestSighting(entry: FrontierEntry, score: number): { entry: FrontierEntry; score: number } {
        const held = this.reserve.get(entry.uniqueKey);
        const heldScore = held ? this.ranking.rankOf(held) : -Infinity;
        return held && heldScore > score ? { entry: held, score: heldScore } : { entry, score };
    }

    /**
     * Queues a new entry if there is room, evicting a worse one if need be; what does not fit goes to the reserve.
     * `score` ranks it in the best-first queue (the breadth-first queue ranks by itself).
     */
    protected enqueue(entry: FrontierEntry, score: number): boolean {
        const offer = this.queue.offer(entry, score, this.room());
        if (offer.kind === 'rejected') {
            this.noteDropped(entry.uniqueKey, entry);
            return false;
        }
        if (offer.kind === 'evicted') {
            // An evicted link may be discovered again later, so it leaves the dedup set.
            this.noteDropped(offer.entry.uniqueKey, offer.entry);
            this.known.delete(offer.entry.uniqueKey);
            this.count('evicted', offer.entry.url);
        }
        this.reserve.delete(entry.uniqueKey);
        this.known.add(entry.uniqueKey);
        return true;
    }

    /**
     * When the queue has run empty with budget left and nothing in flight (which could still find links), the best
     * links of the reserve are queued again, as many as the budget can fetch: the crawl spends the pages it was
     * given rather than ending `exhausted` with known links unfetched.
     */
    private refillFromReserve(): void {
        if (this.reserve.size === 0 || this.stopped || this.halted) return;
        if (this.frontierSize() > 0 || !this.flights.isIdle) return;
        for (const { payload: entry } of this.reserve.takeBest(this.room(), this.scoreOfEntry)) {
            if (this.mayRequeue(entry) && this.enqueue(entry, this.ranking.rankOf(entry))) this.refilledCount++;
        }
    }

    /** Whether a link set aside may be queued again: not queued, taken or handled meanwhile, and robots.txt allows it. */
    private mayRequeue(entry: FrontierEntry): boolean {
        return !this.known.has(entry.uniqueKey) && !this.isRobotsDisallowed(entry);
    }

    /**
     * A link found again on a better page (a topical list, say) moves up if it is still queued (§6.1): the queue keeps
     * the higher score, and the signal and provenance that earned it.
     */
    protected raiseIfQueued(uniqueKey: string, url: string, how: Discovery): void {
        if (!this.queue.contains(uniqueKey) || how.forefront) return;
        const scored = how.scoreWith(url);
        if (!scored) return;
        const shape = shapeKey(url);
        const entry: FrontierEntry = { url, uniqueKey, depth: how.depth, shape, parentUrl: how.parentUrl, anchorText: how.anchorText, signal: scored.signal, userData: how.userData };
        this.queue.raise(entry, this.ranking.adjust(scored.score, shape, url));
    }

    /** Room left in the frontier: what can still be fetched, bounded by `maxFrontierSize`. */
    private room(): number {
        return Math.min(this.maxPages - this.scheduled, this.options.maxFrontierSize) - this.queue.parkedCount;
    }

    /** Holds a link that did not fit; the recall estimate counts it as relevant content the crawl leaves behind. */
    protected noteDropped(uniqueKey: string, entry: FrontierEntry): void {
        if (this.reserve.hold(uniqueKey, entry, 'no-room', this.scoreOfEntry) === 'lost') this.droppedEarlier = addCounts(this.droppedEarlier, this.expectedBehind([entry]));
    }

    /** Relevant pages expected behind the given dropped links (none without focus). */
    private expectedBehind(entries: Iterable<FrontierEntry>): ExpectedCount {
        const focus = this.focus;
        if (!focus) return NO_LINKS;
        const probabilities = [];
        for (const entry of entries) if (entry.signal) probabilities.push(focus.linkProbability(this.ranking.rankOf(entry)));
        return expectedCount(probabilities);
    }

    /** {@link FrontierRanking.rankOf}, bound, for the reserve. */
    private readonly scoreOfEntry = (entry: FrontierEntry): number => this.ranking.rankOf(entry);

    /** Scores of the links still to be fetched: queued, parked behind a busy host, or waiting for a retry. */
    *queuedScores(): Iterable<number> {
        yield* this.queue.scores();
        for (const { entry } of this.flights.retries()) yield entry.linkScore ?? 0;
    }

    /** The pages in flight or waiting for a retry, with their links' signals. */
    *pendingLinks(): Iterable<PendingLink> {
        for (const { entry } of this.flights.all()) yield { url: entry.url, signal: entry.signal };
    }

    /** Scores of the dropped links still held (see {@link droppedEarlier} for the rest). */
    *droppedScores(): Iterable<number> {
        for (const { payload } of this.reserve.links('no-room')) if (payload.signal) yield this.ranking.rankOf(payload);
    }

    /** Whether a URL's host is one the crawl may fetch. */
    isInScope(url: string): boolean {
        return this.scope.includes(url);
    }

    /**
     * A start URL (depth 0) that redirects to another host brings that host into the scope, when the scope comes from
     * the start URLs: the user named a site, and this is where the site now lives (Heritrix's `seedsRedirectNewSeeds`).
     * Returns whether the target is in scope now. Not with `allowedHosts` (the user drew the scope), nor in a shared
     * crawl (the other workers would not know the host).
     */
    adoptStartRedirect(request: { url: string; crawlDepth?: number }, target: string): boolean {
        if ((request.crawlDepth ?? 0) !== 0 || !this.scope.learnsFromSeeds || this.isShared || !/^https?:/i.test(target)) return false;
        this.scope.addStartUrl(target);
        return this.scope.includes(target);
    }

    private skip(reason: FrontierSkipReason, url: string, uniqueKey?: string): { added: false; uniqueKey?: string } {
        this.count(reason, url);
        return { added: false, uniqueKey };
    }

    /** Links another worker of a shared crawl skipped, by reason: the crawl's counts are every worker's. */
    addSkipCounts(counts: Readonly<Record<string, number>>): void {
        this.skips.add(counts);
    }

    protected count(reason: FrontierSkipReason, url: string): void {
        this.skips.count(reason, url);
    }

    /** Marks a URL as known without fetching it (e.g. robots.txt forbids it). */
    reject(url: string, reason: FrontierSkipReason): void {
        this.count(reason, url);
    }

    // --------------------------------------------------------------- taking

    async fetchNextRequest<T extends Dictionary = Dictionary>(): Promise<Request<T> | null> {
        if (this.halted) return null;
        const taken = this.takeRetry() ?? this.takeFromFrontier();
        if (!taken) return null;
        this.lastActivityAt = Date.now();
        this.flights.start(taken, this.lastActivityAt);
        this.hosts.start(taken.host, this.lastActivityAt, this.delayAfterRequestTo(taken.host));
        return taken.request as unknown as Request<T>;
    }

    /** The wait between two requests to a host: `minDelayPerHostMillis`, raised by its robots.txt `Crawl-delay`. */
    private delayAfterRequestTo(host: string): number {
        return Math.max(this.options.minDelayPerHostMillis, this.robots?.crawlDelayMillis(host) ?? 0);
    }

    /**
     * An attempt of a request in flight has just gone out to the network. The host's delay then counts from here, as
     * the site sees it: a browser may take a variable while to open a page after the hand-out, and the delay counted
     * from the hand-out alone let two requests arrive closer together than asked.
     */
    noteSent(request: { id?: string }): void {
        const flight = request.id === undefined ? undefined : this.flights.get(request.id);
        if (!flight) return;
        const delay = this.delayAfterRequestTo(flight.host);
        if (delay > 0) this.hosts.holdUntil(flight.host, Date.now() + delay);
    }

    /**
     * When a second fetch of a request in flight may go out (adaptive mode's plain-HTTP fetch of a page just rendered,
     * to compare the two), with the host's turn taken for it: the delay between two requests to a host holds for it
     * as for any request, and no request handed out meanwhile goes out within that delay of it.
     */
    reserveHostTurn(request: { id?: string }, now = Date.now()): number {
        const flight = request.id === undefined ? undefined : this.flights.get(request.id);
        if (!flight) return now;
        const at = Math.max(now, this.hosts.allowedAt(flight.host));
        const delay = this.delayAfterRequestTo(flight.host);
        if (delay > 0) this.hosts.holdUntil(flight.host, at + delay);
        return at;
    }

    /**
     * The site has answered the attempt of a request in flight: its page is read, or its error status is in. The host
     * counts as answered from now, so a new host's one-at-a-time limit lifts without waiting for the crawler's own work
     * on its first page (its scoring, the dataset write, the snapshot; in adaptive mode, the comparison of its two
     * renderings). The attempt still counts against the host's in-flight limit until it is handled: freeing it at the
     * answer put more pages in flight at once, each chosen before the pages just read were scored, and cost recall
     * (bench/results/README.md, thirty-first session).
     */
    noteAnswered(request: { id?: string }): void {
        const flight = request.id === undefined ? undefined : this.flights.get(request.id);
        if (flight) this.hosts.answered(flight.host);
    }

    private takeRetry(): InFlight | undefined {
        return this.flights.takeRetry((r) => !this.isBusy(r.host, r.entry.url));
    }

    private takeFromFrontier(): InFlight | undefined {
        if (this.stopped || this.scheduled >= this.maxPages) return undefined;
        if (this.waitsForSlowerPage(() => this.nextTakeable()?.score)) return undefined;
        let explored = this.isExplorationTurn() ? this.takeExploration() : undefined;
        let next = explored ?? this.nextTakeable();
        // The best link left is expected to pay less than opening a section: explore instead (it stays parked).
        if (next && !explored && this.exploringPaysMore(next.score)) {
            explored = this.takeExploration();
            if (explored) next = explored;
        }
        if (!next) return undefined;
        if (!explored) this.queue.unpark(next);
        this.sections.noteTaken(next.entry.url, explored !== undefined);
        this.scheduled++;
        this.noteClusterTaken(next.entry.url);
        const fetched: FetchedEntry = { ...next.entry, linkScore: this.focus ? next.score : null };
        return { request: this.toRequest(fetched), entry: fetched, host: politenessHost(fetched.url) };
    }

    /**
     * Whether the best link left waits for a slower page in flight: one that a full round of the host's slots has
     * overtaken (`maxRequestsPerHost` requests handed out after it have ended), and that is expected to pay more than
     * that link plausibly can (its calibrated probability above the upper end of the link's). Its own links are scored
     * when it lands, and may outrank everything queued; the wait costs time, not pages. Without it the order of a focused
     * crawl followed latency: in adaptive mode a page rendered in Chromium takes a second where a plain-HTTP page
     * takes milliseconds, and while the next page of a news listing rendered, the other slots spent sixty pages of
     * the budget on blind links (the adaptive school-site test, `test/crawlee/school-site.test.ts`).
     */
    private waitsForSlowerPage(bestScore: () => number | undefined): boolean {
        const focus = this.focus;
        if (!focus || focus.calibrationSamples === 0) return false;
        const slower: number[] = [];
        for (const { overtaken = 0, entry } of this.flights.flyingNow()) {
            if (overtaken >= this.options.maxRequestsPerHost && entry.linkScore !== null && entry.signal?.fixed === undefined) slower.push(entry.linkScore);
        }
        if (slower.length === 0) return false;
        // Only now the best link is looked up: that parks it, and an exploration turn picks among the unparked links.
        const score = bestScore();
        if (score === undefined) return false;
        const best = focus.linkProbability(score).high;
        return slower.some((linkScore) => focus.linkProbability(linkScore).probability > best);
    }

    /** Every `1 / EXPLORATION_SHARE`-th page of a focused crawl explores (the first page is the seed's). */
    protected isExplorationTurn(pagesTaken = this.scheduled): boolean {
        return this.focus !== null && pagesTaken > 0 && (pagesTaken + 1) % Math.round(1 / EXPLORATION_SHARE) === 0;
    }

    /**
     * Whether exploring is surely worth more than taking a link with this score: even the upper end of the link's
     * calibrated probability of leading to a found page is below what explorations have paid so far
     * ({@link ExplorationLedger}). The upper end, not the point: where the crawl's judge finds little (a topic its
     * pages name in other words), every link's point estimate is low on thin evidence, and exploring on it spent a
     * burst of pages on empty sections (openehr Nordic events at 200 pages: 0.35 → 0.23); only many links of a score
     * that paid nothing make the upper end low, and that is a frontier with nothing left to exploit. Before the
     * calibration has seen a fetched link nothing is known, and the crawl keeps to its scores.
     */
    protected exploringPaysMore(score: number): boolean {
        if (!this.focus || this.focus.calibrationSamples === 0) return false;
        return this.focus.linkProbability(score).high < this.sections.value();
    }

    /** A page the focus counts as found (a shared crawl: this worker's or another's): exploration learns what it paid. */
    noteFound(url: string): void {
        this.sections.noteFound(url);
    }

    /**
     * Whether a link may be taken to explore: it leads into a section of a start site (its first directory; a
     * subdomain is a site of its own) that no fetch has opened, and it is no failing or trap URL.
     */
    protected isExploratory(entry: FrontierEntry): boolean {
        return this.sections.isUnopened(entry.url) && this.scope.isStartSite(politenessHost(entry.url)) && !this.trapLearner.isDemotedUrl(entry.url);
    }

    /**
     * Exploration: a link, queued or dropped for room, into a section of the site (its first directory) that no fetch
     * has opened yet. Link scores rank what the crawl has evidence for; a section it never opened has none either way
     * (its entry may be demoted as news, or named by nothing in the query), and the relevant content may be all there.
     * A share of the budget tests those sections, ranked by their links' evidence without the priors
     * (`explorationRank`), each through its entry (`pickExploration`); failing or trap URLs are not tried.
     */
    private takeExploration(): { entry: FrontierEntry; score: number } | undefined {
        for (;;) {
            const candidates: Array<ExplorationCandidate<{ entry: FrontierEntry; from: 'queue' | 'reserve'; score: number }>> = [];
            const consider = (entry: FrontierEntry, score: number, from: 'queue' | 'reserve'): void => {
                if (this.isExploratory(entry) && !this.isBusy(politenessHost(entry.url))) candidates.push({ url: entry.url, score: this.ranking.evidenceRankOf(entry), item: { entry, from, score } });
            };
            for (const { entry, score } of this.queue.ranked()) consider(entry, score, 'queue');
            for (const { payload } of this.reserve.links('no-room')) if (!this.known.has(payload.uniqueKey)) consider(payload, this.ranking.rankOf(payload), 'reserve');
            const picked = pickExploration(candidates);
            if (!picked) return undefined;
            const { entry, from, score } = picked.item;
            if (from === 'queue') {
                this.queue.remove(entry);
            } else {
                this.reserve.delete(entry.uniqueKey);
                this.known.add(entry.uniqueKey);
            }
            const dropped = this.dropReason(entry);
            if (!dropped) return { entry, score };
            this.count(dropped, entry.url);
        }
    }

    /**
     * The entry `fetchNextRequest()` would take now, moved to the parking lot; `undefined` when every queued
     * host is busy. `isEmpty()` calls it too, so both agree exactly.
     */
    private nextTakeable(): RankedEntry<FrontierEntry> | undefined {
        this.refillFromReserve();
        for (;;) {
            this.resortIfTrapsChanged();
            const candidate = this.queue.next(this.gate());
            if (!candidate) return candidate;
            const dropped = this.dropReason(candidate.entry);
            if (!dropped) return candidate;
            this.queue.unpark(candidate);
            this.count(dropped, candidate.entry.url);
        }
    }

    /** What decides which queued link may go out now: free hosts, the cluster cap, and (breadth-first) demoted URLs last. */
    private gate(): PoliteGate {
        return {
            isBusy: (host, url) => this.isBusy(host, url),
            diversity: this.diversityRule(),
            // Demoted URLs wait while normal pages are in flight: those may still discover normal links.
            allowLow: this.flights.isIdle,
        };
    }

    /** Why a link taken from the frontier is dropped unfetched, or null: it must be checked again whichever way it was taken. */
    private dropReason(entry: FrontierEntry): 'duplicate-spelling' | 'robots-disallowed' | null {
        return this.isKnownSpelling(entry) ? 'duplicate-spelling' : this.isRobotsDisallowed(entry) ? 'robots-disallowed' : null;
    }

    /**
     * Rewrite rules learned after a URL was queued apply when it is taken: a spelling of a page already known is
     * dropped, any other is fetched under its canonical spelling.
     */
    private isKnownSpelling(entry: FrontierEntry): boolean {
        this.rekeyTakenPages();
        const canonical = this.trapLearner.rewrite(entry.url);
        const key = this.trapLearner.keyOf(canonical);
        if (key !== entry.uniqueKey) {
            if (this.known.has(key)) return true;
            this.known.add(key);
        }
        entry.url = canonical;
        entry.uniqueKey = key;
        return false;
    }

    /**
     * A rule learned after a page was taken changes that page's key (`/p/index.html` was keyed as such, and is
     * `/p/index` once `.html` is known to be droppable), so its spellings linked afterwards were not known and the
     * page was fetched again (openehr's partner list, twice in 50 pages). Each taken page's key under the new rules
     * becomes known too; queued pages keep theirs and are checked when taken.
     */
    protected rekeyTakenPages(): void {
        const rules = this.trapLearner.ruleCount;
        if (rules === this.keyedUnderRules) return;
        this.keyedUnderRules = rules;
        for (const key of this.takenKeys()) {
            const rekeyed = this.trapLearner.keyOf(key);
            this.known.add(rekeyed);
            this.takenPageKeys.add(rekeyed);
        }
    }

    /** The keys (or URLs) of the pages taken so far: handled, in flight or waiting for a retry. */
    protected *takenKeys(): Iterable<string> {
        yield* this.handled;
        for (const { entry } of this.flights.all()) yield entry.uniqueKey;
    }

    /** Queued before its host's robots.txt had been read, and disallowed by it: dropped, never fetched. */
    private isRobotsDisallowed(entry: FrontierEntry): boolean {
        return this.robots?.policyFor(entry.url)?.isAllowed(entry.url) === false;
    }

    /** A page of the URL's cluster was taken: it counts towards the cluster's cap ({@link diversityRule}). */
    protected noteClusterTaken(url: string): void {
        const cluster = clusterKey(url);
        this.clusterScheduled.set(cluster, (this.clusterScheduled.get(cluster) ?? 0) + 1);
    }

    /** How the best-first frontier spreads the budget over clusters: pages taken per cluster, the cap, proven clusters. */
    protected diversityRule(): DiversityRule {
        return {
            scheduled: (cluster) => this.clusterScheduled.get(cluster) ?? 0,
            cap: this.options.clusterCap,
            proven: (cluster) => this.focus?.isClusterProven(cluster) ?? false,
        };
    }

    /**
     * Whether the host may not take another request now. A host none of whose requests has ended takes one at a time
     * (`HostSchedule`), so a subdomain that is down costs one page of the budget. A host waits for its robots.txt; given a URL of it, the
     * file is requested if nobody has yet (a request restored from a snapshot may be the first of its host this
     * run), so a wait always has a fetch behind it.
     */
    private isBusy(host: string, url?: string): boolean {
        if (this.hosts.isFull(host)) return true;
        if (this.robots && !this.robots.isLoaded(host)) {
            if (url !== undefined) this.robots.policyFor(url);
            return true;
        }
        return this.hosts.allowedAt(host) > Date.now();
    }

    /** When the trap learner demotes or restores a template, queued scores must follow. */
    private resortIfTrapsChanged(): void {
        if (this.trapLearner.generation === this.seenGeneration) return;
        this.seenGeneration = this.trapLearner.generation;
        this.rescore();
    }

    /** Recomputes every queued score from its stored signal (term weights or the link model moved). */
    rescore(): void {
        const focus = this.focus;
        if (!focus || !this.queue.isBestFirst) return;
        const failing = this.queue.rescore((entry) => (entry.signal ? this.ranking.adjust(focus.score(entry.signal), entry.shape, entry.url) : undefined), FOREFRONT_SCORE);
        this.unparkFailing(failing);
        this.promoteFromReserve();
    }

    /**
     * A parked link that started failing (score 0) gives its room back: in the reserve it ranks last among the links
     * set aside for want of room, instead of being handed out before them once the queue runs dry. A 50-page crawl
     * spent its last page on a subdomain known to be missing while 268 links waited in the reserve.
     */
    private unparkFailing(failing: FrontierEntry[]): void {
        for (const entry of failing) {
            this.noteDropped(entry.uniqueKey, entry);
            this.known.delete(entry.uniqueKey);
            this.count('evicted', entry.url);
        }
    }

    /**
     * After a re-score, links set aside for want of room compete again: one that now outscores the queue's worst takes
     * its place, and the worst is set aside. A link is dropped by the scores of its moment; once the model learns
     * that its kind pays (posts welcoming a new partner, say), it must not wait behind links the queue kept only for
     * having come earlier. So the queue holds the best links known under the current scores.
     */
    private promoteFromReserve(): void {
        if (!this.queue.isBestFirst || this.reserve.size === 0 || this.stopped || this.halted) return;
        for (const { entry, score } of this.reserveRanked()) {
            // Asked only of links that get this far: asking reads (and may fetch) the host's robots.txt.
            if (!this.mayRequeue(entry)) continue;
            // Best first: once one does not beat the queue's worst, none after it will.
            if (!this.enqueue(entry, score)) break;
            this.refilledCount++;
        }
    }

    /** Links set aside for want of room that no one has queued, taken or handled meanwhile, best first under the current scores. */
    protected reserveRanked(): Array<{ entry: FrontierEntry; score: number }> {
        const ranked: Array<{ entry: FrontierEntry; score: number }> = [];
        for (const { payload } of this.reserve.links('no-room')) if (!this.known.has(payload.uniqueKey)) ranked.push({ entry: payload, score: this.ranking.rankOf(payload) });
        return ranked.sort((a, b) => b.score - a.score);
    }

    protected toRequest(entry: FetchedEntry): Request {
        const request = new Request({
            url: entry.url,
            uniqueKey: entry.uniqueKey,
            userData: { ...entry.userData },
        });
        request.id = requestIdOf(entry.uniqueKey);
        request.crawlDepth = entry.depth;
        this.prepareRequest?.(request);
        return request;
    }

    /** The frontier entry behind a request that is in flight (its signal, parent, anchor and score). */
    entryOf(request: Request): FetchedEntry | undefined {
        return this.flights.get(request.id!)?.entry;
    }

    // ------------------------------------------------------------- finishing

    async markRequestHandled(request: Request): Promise<OperationInfo> {
        const id = request.id!;
        this.lastActivityAt = Date.now();
        const flight = this.release(id) ?? this.flights.dropRetry(id); // a request the watchdog reclaimed may finish after all
        const uniqueKey = flight?.entry.uniqueKey ?? request.uniqueKey;
        this.hosts.answered(flight?.host ?? politenessHost(request.url));
        const wasAlreadyHandled = this.handled.has(uniqueKey);
        this.handled.add(uniqueKey);
        this.known.add(uniqueKey);
        request.handledAt ??= new Date().toISOString();
        await this.onRequestHandled?.(request);
        return { requestId: id, uniqueKey, wasAlreadyPresent: true, wasAlreadyHandled, forefront: false } as OperationInfo;
    }

    async reclaimRequest(request: Request, options: RequestQueueOperationOptions = {}): Promise<OperationInfo | null> {
        const id = request.id!;
        this.lastActivityAt = Date.now();
        const flight = this.release(id);
        if (!flight) return null;
        this.flights.retry({ ...flight, request }, options.forefront);
        return { requestId: id, uniqueKey: request.uniqueKey, wasAlreadyPresent: true, wasAlreadyHandled: false, forefront: !!options.forefront } as OperationInfo;
    }

    /**
     * Gives a failed request's page back to the budget: no attempt of it left the crawler, so the site was never asked
     * and another page may take its place. Crawlee marks a failed request handled before its failed-request handler
     * runs, so this applies to handled requests, once each.
     */
    refund(request: Request): void {
        const uniqueKey = request.uniqueKey;
        if (!this.handled.has(uniqueKey) || this.refunded.has(uniqueKey)) return;
        this.refunded.add(uniqueKey);
        this.scheduled = Math.max(0, this.scheduled - 1);
        const cluster = clusterKey(request.url);
        const taken = (this.clusterScheduled.get(cluster) ?? 1) - 1;
        if (taken > 0) this.clusterScheduled.set(cluster, taken);
        else this.clusterScheduled.delete(cluster);
    }

    private release(id: string): InFlight | undefined {
        const flight = this.flights.land(id);
        if (flight) this.hosts.finish(flight.host);
        return flight;
    }

    /** Keeps a host idle until the given time (a 429/503 with `Retry-After`). Other hosts are unaffected. */
    backOffHost(url: string, untilMillis: number): void {
        this.hosts.holdUntil(politenessHost(url), untilMillis);
    }

    // --------------------------------------------------------------- stalls

    /** For the stall watchdog (see watchdog.ts). */
    stallState(now = Date.now()): StallState {
        const budgetLeft = !this.stopped && this.scheduled < this.maxPages && this.frontierSize() > 0;
        const pending = !this.halted && (!this.flights.isIdle || budgetLeft);
        return { pending, idleMillis: now - this.hosts.latestWait(this.lastActivityAt, now) };
    }

    /**
     * Hands out again the requests held in flight for more than `olderThanMillis` (a crawler that lost them) and asks
     * again for the robots.txt of every host that waits for one. Returns how many requests came back.
     */
    reclaimStalled(olderThanMillis: number, now = Date.now()): number {
        const stalled = this.flights.reclaimOlderThan(olderThanMillis, now);
        for (const { host } of stalled) this.hosts.finish(host);
        for (const { url } of [...this.flights.retries().map((r) => r.entry), ...this.queue.parkedEntries()]) this.isBusy(politenessHost(url), url);
        return stalled.length;
    }

    /** The watchdog gave up: nothing more is handed out; pending requests stay in the snapshot, so a resume retries them. */
    halt(): void {
        this.halted = true;
    }

    /**
     * Stops handing out new pages; requests in flight and retries still complete. `reason` matters only to a shared
     * frontier ({@link SharedRequestManager}), which stops every worker of the crawl with it.
     */
    stop(_reason?: string): void {
        this.stopped = true;
    }

    // ----------------------------------------------- shared frontier (hooks)
    // No-ops here: the page hook calls them only when `isShared`, so the in-process crawl runs exactly as before.

    /** Whether the frontier lives in a store shared by several workers (see shared-request-manager.ts). */
    get isShared(): boolean {
        return false;
    }

    /** The crawl-wide stop reason of a shared frontier, the same for every worker; `null` in process. */
    get sharedStopReason(): string | null {
        return null;
    }

    /** Sends the links offered since the last call to a shared store; returns how many it queued (`null` in process). */
    async flushOffers(): Promise<number | null> {
        return null;
    }

    /**
     * Ends the request's lease in a shared store before its page is delivered; `stale` means another worker owns it.
     * With `item`, the store keeps the page's dataset item until {@link acknowledgeDelivery}, so that another worker
     * delivers it if this one dies before writing it.
     */
    async settle(_request: Request, _item?: unknown): Promise<'ok' | 'stale'> {
        return 'ok';
    }

    /** The item given to {@link settle} is written (or declined): a shared store owes it no more. */
    async acknowledgeDelivery(_request: Request): Promise<void> {}

    /** Releases what the frontier holds outside the process (a connection). */
    async close(): Promise<void> {}

    get isStopped(): boolean {
        return this.stopped;
    }

    /** True exactly when `fetchNextRequest()` would return `null` now (requests in flight do not count). */
    async isEmpty(): Promise<boolean> {
        if (this.halted) return true;
        if (this.flights.hasRetry((r) => !this.isBusy(r.host, r.entry.url))) return false;
        if (this.stopped || this.scheduled >= this.maxPages) return true;
        const best = this.nextTakeable();
        return best === undefined || this.waitsForSlowerPage(() => best.score);
    }

    async isFinished(): Promise<boolean> {
        if (this.halted) return this.flights.flying === 0;
        if (!this.flights.isIdle) return false;
        if (this.robots?.hasPendingWork) return false; // a robots.txt or sitemap may still queue pages
        if (!this.stopped && this.scheduled < this.maxPages) this.refillFromReserve();
        return this.stopped || this.scheduled >= this.maxPages || this.frontierSize() === 0;
    }

    /** Why the frontier ended, if it has; `null` while there is work. */
    get finishReason(): 'stalled' | 'cancelled' | 'limit_reached' | 'exhausted' | null {
        if (this.halted) return 'stalled';
        if (!this.flights.isIdle) return null;
        if (this.stopped) return 'cancelled';
        if (this.scheduled >= this.maxPages) return 'limit_reached';
        if (this.frontierSize() === 0) return 'exhausted';
        return null;
    }

    async handledCount(): Promise<number> {
        return this.handled.size;
    }

    getTotalCount(): number {
        return this.handled.size + this.flights.flying + this.flights.waiting + this.frontierSize();
    }

    getPendingCount(): number {
        return this.flights.flying + this.flights.waiting + this.frontierSize();
    }

    async *[Symbol.asyncIterator](): AsyncGenerator<Request> {
        for (;;) {
            const request = await this.fetchNextRequest();
            if (!request) return;
            yield request;
        }
    }

    // --------------------------------------------------------------- reports

    /** Pages taken from the frontier so far (each counts once against `maxPages`). */
    get pagesScheduled(): number {
        return this.scheduled;
    }

    get inFlightCount(): number {
        return this.flights.flying;
    }

    /** Sections of the site (a host's first directory) a fetch has opened. */
    get sectionsOpened(): number {
        return this.sections.sectionsOpened;
    }

    /** Pages taken by exploration (`FOCUS_REPORT.exploration`). */
    get explorations(): number {
        return this.sections.pages;
    }

    /** Links queued again from the reserve (after the queue ran empty, or after a re-score ranked them higher). */
    get refilled(): number {
        return this.refilledCount;
    }

    /** Links held in the reserve (dropped for room or found in a dry subtree). */
    get reserveSize(): number {
        return this.reserve.size;
    }

    frontierSize(): number {
        return this.queue.size;
    }

    /** Skipped or evicted links counted by reason. */
    skippedCounts(): Record<string, number> {
        return this.skips.counts();
    }

    /** Examples of skipped links, per reason (at most `samplesPerReason` each). */
    skippedLinks(reason?: FrontierSkipReason): Record<string, string[]> | string[] {
        return reason ? this.skips.samples(reason) : this.skips.samples();
    }

    // ------------------------------------------------------------ persistence

    /** The whole frontier as JSON. Requests in flight are saved as pending, so a resumed crawl fetches them again. */
    toJSON(): FocusedRequestManagerState {
        const pending = this.flights.all().map((f) => ({
            entry: f.entry,
            request: { retryCount: f.request.retryCount, userData: f.request.userData },
        }));
        return {
            version: 1,
            scheduled: this.scheduled,
            handled: [...this.handled],
            known: [...this.known],
            scopeHosts: this.scope.hosts(),
            ...this.queue.toJSON(),
            pending,
            clusterScheduled: [...this.clusterScheduled],
            ...this.skips.toJSON(),
            stopped: this.stopped,
            ...this.reserveJSON(),
            refilled: this.refilledCount,
            ...this.sections.toJSON(),
            discovery: this.ranking.toJSON(),
            answeredHosts: this.hosts.answeredHosts(),
        };
    }

    /**
     * The reserve's best links, as many as the budget left could fetch; the others' signals are not saved (they
     * would grow every snapshot), only the relevant pages expected behind those dropped for room.
     */
    private reserveJSON(): Pick<FocusedRequestManagerState, 'reserve' | 'droppedEarlier'> {
        const budgetLeft = Math.max(0, this.maxPages - this.scheduled);
        const reserve = this.reserve.toJSON(Math.min(budgetLeft, MAX_RESERVE_SAVED), this.scoreOfEntry);
        const saved = new Set(reserve.links.map((l) => l.key));
        const unsaved = [...this.reserve.links('no-room')].filter((l) => !saved.has(l.key)).map((l) => l.payload);
        return { reserve, droppedEarlier: addCounts(this.droppedEarlier, this.expectedBehind(unsaved)) };
    }
}
