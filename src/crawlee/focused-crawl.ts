import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import { Configuration, Dataset, KeyValueStore, log, purgeDefaultStorages } from 'crawlee';
import type { CrawlingContext, Dictionary, Request, RequestProvider } from 'crawlee';

import { collapseWhitespace, extractPage, MAX_HTML_CHARS } from '../extract/index.js';
import type { PageData } from '../extract/index.js';
import { Focus, MIN_RELEVANCE, isHub } from '../focus/index.js';
import type { AdaptiveOptions, FocusPage, FocusState, LinkSignal, PageVerdict, RecallEstimate } from '../focus/index.js';
import { TrapLearner, textPrints } from '../frontier/index.js';
import type { TextPrints } from '../frontier/index.js';
import { NearDuplicateIndex, simHash } from '../frontier/near-duplicate.js';
import type { SimHash } from '../frontier/near-duplicate.js';
import type { Seen, TrapLearnerJSON } from '../frontier/index.js';
import type { SkipOptions } from '../url/index.js';
import { hostOf } from '../url/index.js';
import { DOCUMENT_CONTENT_TYPES, type DocumentKind } from '../extract/documents/index.js';
import { changedAfterLoad, hasPendingData, settleRenderedPage, waitForLoad } from './browser.js';
import { SettleMemory } from './settle-memory.js';
import { DocumentFetchError, DocumentReader, markAsDocument } from './documents.js';
import { browserPageOf, isAdaptivePlainHttpRun, RenderingLedger } from './rendering.js';
import { mergeGotHooks } from './got-hooks.js';
import type { GotGuardHooks } from './got-hooks.js';
import { PhaseClock } from './timings.js';
import { HarvestCurve, TopPages, buildReport, learnedRules, reportHtml } from '../report/index.js';
import type { CrawlStopReason, FocusReport, HarvestCurveJSON, SharedCrawlSummary } from '../report/index.js';
import { FocusedRequestManager } from './request-manager.js';
import type { FetchedEntry, FocusedRequestManagerState } from './request-manager.js';
import { SharedLearning } from './shared-learning.js';
import type { CrawlEvent, ReadPageEvent } from './shared-learning.js';
import { SharedRequestManager } from './shared-request-manager.js';
import { optionsHash } from '../frontier/index.js';
import type { FrontierStore } from '../frontier/index.js';
import { localDatasetDirectory, repairTornDatasetItems } from './dataset-repair.js';
import { RobotsCache } from './robots-cache.js';
import type { TextFetcher } from './robots-cache.js';
import { StateStore } from './state-store.js';
import { StallWatchdog } from './watchdog.js';

/** What the page hook learned about a page; the user's handler reads it with {@link pageFocus}. */
export interface PageFocus {
    relevance: number;
    hit: boolean;
    delivered: boolean;
    duplicateOf: string | null;
    depth: number;
    linkScore: number | null;
    linksQueued: number;
}

/** Live figures for a progress line. */
export interface FocusProgress {
    pagesFetched: number;
    maxPages: number;
    relevantPages: number;
    harvestRate: number;
    queueSize: number;
    /** Focused crawls: how much of the site's relevant content has been found (see recall.ts). */
    estimatedRecall: RecallEstimate | null;
}

/** A relevant page about to be delivered, as {@link FocusedCrawlOptions.deliveryGate} sees it. */
export interface DeliveryCandidate {
    url: string;
    title: string;
    relevance: number;
    depth: number;
}

/** `deliver`: push the page to the dataset; `stop`: end the crawl after it, as `delivery-limit`. */
export interface DeliveryDecision {
    deliver: boolean;
    stop?: boolean;
}

/**
 * Decides which relevant pages are delivered, e.g. a pay-per-event Actor's charge limit: `admit` is asked before the
 * push, one page at a time, and `delivered` told after it (the page is in the dataset: charge it there, so that a crash
 * between the two never charges a page twice).
 */
export interface DeliveryGate {
    admit(page: DeliveryCandidate): DeliveryDecision | Promise<DeliveryDecision>;
    delivered?(page: DeliveryCandidate): void | Promise<void>;
}

export interface FocusedCrawlOptions {
    /** The topic. Without it the crawl is a trap-aware breadth-first crawl that delivers every page. @default null */
    query?: string | null;
    /** Seed URLs: they define the crawl's scope (their hosts and subdomains) and its identity for resuming. */
    startUrls: string[];
    /** Pages to fetch at most (enforced exactly, at any concurrency). @default 100 */
    maxPages?: number;
    /** `adaptive`: stop when crawling stops paying off (§7.3); `never`: spend the whole budget. @default 'adaptive' */
    stop?: 'adaptive' | 'never';
    /** Pages at or above this relevance are delivered to the dataset. @default MIN_RELEVANCE (0.05) */
    minRelevance?: number;
    /** Options of the adaptive stop rule. @default DEFAULT_ADAPTIVE_OPTIONS */
    adaptive?: AdaptiveOptions;
    /**
     * Hosts in scope (with subdomains when `allowSubdomains`). Given, they are the whole scope; by default it is the
     * seed hosts, and the host a seed redirects to joins them.
     * @default the seed hosts
     */
    allowedHosts?: string[];
    /** @default true */
    allowSubdomains?: boolean;
    /** Requests in flight per host at most. @default 4 */
    maxRequestsPerHost?: number;
    /** Minimum delay between two requests to one host. @default 0 */
    minDelayPerHostMillis?: number;
    /** Upper bound on queued URLs. @default 100_000 */
    maxFrontierSize?: number;
    /** Limits of the URL filter. @default DEFAULT_SKIP_OPTIONS */
    skip?: SkipOptions;
    /**
     * `auto`: continue a crawl with the same seeds, query, mode and {@link STATE_FORMAT} found in storage, else start
     * afresh (purging the default storages); `true`: always continue what is there (a state of another format throws
     * and changes nothing); `false`: always start afresh.
     * @default 'auto'
     */
    resume?: 'auto' | boolean;
    /** A label that must match for `resume: 'auto'` (e.g. the crawler mode). @default '' */
    identity?: string;
    /**
     * Browser pages: how long the DOM must stay quiet (after the load event too) before it is read. Pages of a kind
     * that has not changed after load are read at load instead (`SettleMemory`). @default 250
     */
    domQuietMillis?: number;
    /** Browser pages: the longest wait for a quiet DOM (pages that never settle). @default 3000 */
    domSettleTimeoutMillis?: number;
    /**
     * Browser pages: images, fonts and media are not downloaded. They carry no text or links (an image's alt text is in
     * the DOM either way), and loading them cost Chromium and the network more than any other subresource. Chromium is
     * launched not to request images and web fonts at all (`mediaBlockingArgs`); what it still requests of them, and
     * audio and video, is failed at the request.
     * @default true
     */
    blockMedia?: boolean;
    /** Crawlee configuration whose storages are used. @default Configuration.getGlobalConfig() */
    config?: Configuration;
    /** Called after every page. */
    onProgress?: (progress: FocusProgress) => void;
    /**
     * Obey each host's robots.txt (Allow/Disallow, Crawl-delay) as the user agent `crawlee-focus`; disallowed links
     * are counted as skipped `robots-disallowed`.
     * @default true
     */
    respectRobotsTxt?: boolean;
    /** Queue the URLs of the sitemaps robots.txt names, scored like any link (only while robots.txt is read). @default true */
    useSitemaps?: boolean;
    /** Reads robots.txt and sitemap files. @default createTextFetcher() (got-scraping, crawlee-focus User-Agent) */
    fetchText?: TextFetcher;
    /** Links deeper than this (start URLs are depth 0) are not followed (`skipped['beyond-max-depth']`). @default no limit */
    maxDepth?: number;
    /** URL globs a discovered link must match one of to be crawled (`https://example.com/docs/**`). @default [] (all) */
    includeUrlGlobs?: string[];
    /** URL globs whose links are not crawled. @default [] */
    excludeUrlGlobs?: string[];
    /** HTML read per page at most, in characters: longer pages are cut there and counted as failure `truncated`. @default MAX_HTML_CHARS */
    maxHtmlChars?: number;
    /**
     * Read documents (PDF, DOCX, XLSX, PPTX, ODT/ODS/ODP, CSV, plain text) as pages: converted to Markdown, scored and
     * delivered like HTML. In browser modes they are fetched over HTTP with the crawler's proxy and session.
     * @default true
     */
    documents?: boolean;
    /** Largest document read, in bytes; a larger one fails as `document-too-large`. @default MAX_DOCUMENT_BYTES (20 MiB) */
    maxDocumentBytes?: number;
    /** Time one document's conversion may take; a slower one fails as `document-timeout`. @default DOCUMENT_TIMEOUT_MILLIS (30 s) */
    documentTimeoutMillis?: number;
    /** User-Agent header of every request, in every mode (robots.txt is matched as `crawlee-focus` regardless). @default CRAWLEE_FOCUS_USER_AGENT */
    userAgent?: string;
    /** Accept invalid TLS certificates (self-signed test servers, intercepting proxies). @default false */
    ignoreHttpsErrors?: boolean;
    /**
     * How long requests may be pending with nothing taken, handled or retried before the stall watchdog hands them out
     * again; after as long again with no progress the crawl stops as `stalled` (its pending requests are kept, so a
     * resume retries them). Waits the crawl knows the end of (Retry-After, Crawl-delay) do not count.
     * @default the crawler's navigation + request handler timeouts + 30 s, at least 60 s
     */
    stallTimeoutSecs?: number;
    /**
     * Asked before each relevant page is pushed to the dataset whether it is delivered, and whether the crawl ends
     * after it (stop reason `delivery-limit`). The Actor charges pay-per-event runs through it and stops at the user's
     * charge limit. @default every relevant page is delivered
     */
    deliveryGate?: DeliveryGate;
    /**
     * Share the crawl with other worker processes, on this machine or others, through one Redis (≥ 7.0): the frontier,
     * dedup, page budget, leases, per-host politeness, retries and the stop decision live there (see
     * docs/frontier-store.md). Every worker of a crawl must have the same query, seeds, mode and crawl options, or it is
     * refused. Each worker delivers to its own dataset. Without it the crawl is one process and Redis is never loaded.
     * @default null
     */
    redis?: SharedCrawlOptions | null;
}

/** Where the shared frontier lives and which crawl this worker joins. */
export interface SharedCrawlOptions {
    /** `redis://host:6379/0` */
    url: string;
    /** Names the crawl; every worker of it uses the same id. Letters, digits and `-_.:`. */
    crawlId: string;
    /**
     * How long a page stays leased to a worker without a heartbeat: a killed worker's pages are handed out again after
     * this long. Every worker of a crawl must use the same.
     * @default 60_000
     */
    leaseMillis?: number;
}

/** The store a worker's frontier sits on, and its name in the store's leases. */
interface SharedFrontier {
    store: FrontierStore<FetchedEntry>;
    workerId: string;
}

/** How long past a lease a finished worker waits for the others' pages before it writes the crawl's report. */
const SHARED_FINISH_GRACE_MILLIS = 5_000;

/** Attempts of a page in a shared store at most; Crawlee's `maxRequestRetries` normally ends a page first. */
const SHARED_MAX_ATTEMPTS = 20;

/** The options that change what a crawl fetches: every worker of a shared crawl must have the same. */
function sharedCrawlOptions(options: FocusedCrawlOptions): Record<string, unknown> {
    return {
        maxPages: options.maxPages ?? 100,
        stop: options.stop ?? 'adaptive',
        minRelevance: options.minRelevance,
        adaptive: options.adaptive,
        allowedHosts: options.allowedHosts,
        allowSubdomains: options.allowSubdomains,
        maxRequestsPerHost: options.maxRequestsPerHost,
        minDelayPerHostMillis: options.minDelayPerHostMillis,
        maxFrontierSize: options.maxFrontierSize,
        skip: options.skip,
        respectRobotsTxt: options.respectRobotsTxt,
        useSitemaps: options.useSitemaps,
        maxDepth: options.maxDepth,
        includeUrlGlobs: options.includeUrlGlobs,
        excludeUrlGlobs: options.excludeUrlGlobs,
        documents: options.documents,
        leaseMillis: options.redis?.leaseMillis,
    };
}

/** Failures before navigation that a request may have without using up its retries (see `spareRetry`). */
const MAX_LOCAL_FAILURES = 5;

/** What the error handler reads and changes of a failed request. */
interface RetriedRequest {
    url: string;
    /** Depth of the page (seeds 0); absent on requests made outside the frontier. */
    crawlDepth?: number;
    noRetry: boolean;
    retryCount: number;
    userData: Dictionary;
}

/** Share of control or replacement characters above which a "text/html" body is taken for binary data. */
const BINARY_CHARACTER_SHARE = 0.1;

/**
 * Version of the snapshot layout and of the keys in it. Raise it when either changes: 2 = URL-template keys from
 * `hashHex` (1 used FNV-1a). A snapshot of another format is never mixed with this code's state.
 */
export const STATE_FORMAT = 2;

/** The key-value store record of the crawl's report page (see src/report/report-html.ts). */
export const REPORT_HTML_KEY = 'REPORT.html';

interface FocusedCrawlState {
    /** {@link STATE_FORMAT} of the code that wrote it; absent before format 2. */
    format?: number;
    identity: string;
    manager: FocusedRequestManagerState;
    trapLearner: TrapLearnerJSON;
    focus: FocusState | null;
    delivered: Array<[number, string]>;
    duplicates: Array<[string, string]>;
    pagesProcessed: number;
    relevantPages: number;
    failures: Array<[string, number]>;
    stopReason: CrawlStopReason | null;
    /** Absent in snapshots written before REPORT.html. */
    curve?: HarvestCurveJSON;
}

/** Why a crawling context cannot be read, in words a user can act on. */
class UnsupportedContextError extends Error {}

/**
 * The focused-crawl plugin for one Crawlee crawler: its request queue, its page hook and its report.
 *
 * ```ts
 * const focus = await FocusedCrawl.open({ query: 'graduate admissions', startUrls, maxPages: 50 });
 * const crawler = new CheerioCrawler({ requestQueue: focus.requestQueue, requestHandler: focus.handler() });
 * const report = await focus.run(crawler);
 * ```
 */
export class FocusedCrawl {
    readonly manager: FocusedRequestManager;
    readonly focus: Focus | null;
    readonly trapLearner: TrapLearner;
    readonly config: Configuration;
    readonly resumed: boolean;

    private readonly minRelevance: number;
    private readonly stopPolicy: 'adaptive' | 'never';
    private readonly maxHtmlChars: number;
    /** AdaptivePlaywrightCrawler's double runs of one request (see rendering.ts). */
    readonly renderings = new RenderingLedger();
    /** Which rendered pages wait for a quiet DOM before they are read. */
    readonly settling = new SettleMemory();
    /** PDF, Office and other documents: how they are fetched and converted, and their counts by type. */
    readonly documents: DocumentReader;
    /** Where this process's time per page went, by phase (`FOCUS_REPORT.timings`). */
    readonly clock = new PhaseClock();
    /**
     * Whether the crawler's fetches pass the scope guard, which marks a request sent when it leaves the crawler
     * (`__focusSent`); only then can a failure that never left be told apart and its page given back to the budget.
     */
    private tracksSending = false;
    /** When each request's navigation began (after the scope guard), to time the navigation itself. */
    private readonly navigationStarted = new WeakMap<object, number>();
    /** The signal of the link each request was fetched through, kept from its navigation for its failed-request handler (the frontier has let go of it by then). */
    private readonly fetchedVia = new WeakMap<object, LinkSignal | null>();
    /** Text fingerprint of every delivered page → its URL: one text is delivered once. */
    private readonly delivered = new Map<number, string>();
    private readonly deliveredUrls = new Set<string>();
    private readonly duplicates = new Map<string, string>();
    /** SimHashes of delivered pages (rebuilt from the dataset on resume): a near-identical text is delivered once too. */
    private readonly nearDuplicates: NearDuplicateIndex;
    private readonly failures = new Map<string, number>();
    private pagesProcessed = 0;
    private relevantPages = 0;
    /** Relevant pages against pages fetched, and the best delivered pages: REPORT.html's chart and list. */
    private curve = new HarvestCurve();
    private readonly topPages = new TopPages();
    /** The delivery gate's answers come one at a time, in the order the pages asked. */
    private gateTurn: Promise<unknown> = Promise.resolve();
    private stopReason: CrawlStopReason | null = null;
    /** A shared crawl's counters, read from the store when this worker ends. */
    private sharedCrawl: SharedCrawlSummary | null = null;
    /** A shared crawl's learning from the other workers' pages (null in one process). */
    private readonly learning: SharedLearning | null;
    /** Requests handled by every worker of a shared crawl, this one's and the replayed (the harvest curve's x). */
    private crawlPagesHandled = 0;
    /** Pages this worker delivered to its own dataset. */
    private deliveredHere = 0;
    private readonly startedAt = Date.now();

    private constructor(
        private readonly options: FocusedCrawlOptions,
        private readonly store: StateStore<FocusedCrawlState>,
        private readonly identity: string,
        saved: FocusedCrawlState | null,
        shared: SharedFrontier | null = null,
    ) {
        this.config = options.config ?? Configuration.getGlobalConfig();
        this.minRelevance = options.minRelevance ?? MIN_RELEVANCE;
        this.stopPolicy = options.stop ?? 'adaptive';
        this.maxHtmlChars = options.maxHtmlChars ?? MAX_HTML_CHARS;
        this.documents = new DocumentReader({
            enabled: options.documents ?? true,
            ...(options.maxDocumentBytes !== undefined ? { maxBytes: options.maxDocumentBytes } : {}),
            ...(options.documentTimeoutMillis !== undefined ? { timeoutMillis: options.documentTimeoutMillis } : {}),
            ...(options.userAgent !== undefined ? { userAgent: options.userAgent } : {}),
            ignoreHttpsErrors: options.ignoreHttpsErrors ?? false,
            inScope: (url) => this.manager.isInScope(url),
        });
        this.resumed = saved !== null;
        this.trapLearner = saved ? TrapLearner.fromJSON(saved.trapLearner) : new TrapLearner();
        const query = options.query?.trim() ? options.query.trim() : null;
        this.focus = saved?.focus
            ? Focus.fromJSON(saved.focus)
            : query
              ? new Focus(query, { seedUrls: options.startUrls, adaptive: options.adaptive })
              : null;
        const managerOptions = {
            focus: this.focus,
            trapLearner: this.trapLearner,
            maxPages: options.maxPages ?? 100,
            maxFrontierSize: options.maxFrontierSize,
            allowedHosts: options.allowedHosts,
            allowSubdomains: options.allowSubdomains,
            maxDepth: options.maxDepth,
            includeUrlGlobs: options.includeUrlGlobs,
            excludeUrlGlobs: options.excludeUrlGlobs,
            maxRequestsPerHost: options.maxRequestsPerHost,
            minDelayPerHostMillis: options.minDelayPerHostMillis,
            skip: options.skip,
            robots:
                options.respectRobotsTxt === false
                    ? null
                    : new RobotsCache({
                          fetchText: options.fetchText,
                          useSitemaps: options.useSitemaps,
                          onSitemapUrls: (urls, sitemapUrl) => this.queueSitemapUrls(urls, sitemapUrl),
                      }),
            onRequestHandled: () => this.clock.time('snapshot', () => this.persist()),
            // Chromium downloads a document instead of rendering it: fetch it over HTTP. (Plain HTTP crawls read it
            // directly; AdaptivePlaywrightCrawler cannot skip a navigation, and fetches it after Chromium opened it.)
            prepareRequest: (request: Request) => {
                if (options.identity === 'browser' && this.documents.isDocumentUrl(request.url)) markAsDocument(request);
            },
        };
        this.manager = shared
            ? new SharedRequestManager({ ...managerOptions, ...shared, catchUp: () => this.learning!.sync() })
            : saved
              ? FocusedRequestManager.fromJSON(saved.manager, managerOptions)
              : new FocusedRequestManager(managerOptions);
        this.learning = shared ? new SharedLearning(shared.store, shared.workerId, (event) => this.applyEvent(event)) : null;
        this.nearDuplicates = new NearDuplicateIndex(); // filled from the dataset when resuming
        if (saved) {
            for (const [hash, url] of saved.delivered) this.remember(hash, url);
            for (const [url, of] of saved.duplicates) this.duplicates.set(url, of);
            for (const [reason, count] of saved.failures) this.failures.set(reason, count);
            this.pagesProcessed = saved.pagesProcessed;
            this.relevantPages = saved.relevantPages;
            this.curve = HarvestCurve.fromJSON(saved.curve);
            // A stalled crawl is tried again: the cause (a dead server, a lost request) may be gone.
            this.stopReason = saved.stopReason === 'stalled' ? null : saved.stopReason;
        }
    }

    /**
     * Opens the plugin's storages and either resumes the crawl found there or starts afresh.
     * Call it before constructing the crawler, and pass {@link requestQueue} to the crawler.
     */
    static async open(options: FocusedCrawlOptions): Promise<FocusedCrawl> {
        if (!options.startUrls?.length) throw new TypeError('FocusedCrawl needs at least one start URL (options.startUrls).');
        const config = options.config ?? Configuration.getGlobalConfig();
        // The plugin decides what to purge: Crawlee's purge-on-start would delete the snapshot it resumes from.
        config.set('purgeOnStart', false);
        if (options.redis) return FocusedCrawl.openShared(options, options.redis, config);
        const identity = JSON.stringify({ seeds: [...options.startUrls].sort(), query: options.query ?? null, id: options.identity ?? '' });
        const resume = options.resume ?? 'auto';
        if (resume === false) await purgeDefaultStorages({ config, onlyPurgeOnce: false });
        let kv = await KeyValueStore.open(undefined, { config });
        let saved = resume === false ? null : await new StateStore<FocusedCrawlState>(kv).load();
        if (saved && resume === 'auto' && (saved.identity !== identity || saved.format !== STATE_FORMAT)) {
            // Said aloud: the storage is purged for the new crawl, and a changed default (the mode) must not do that unseen.
            log.warning(
                saved.identity !== identity
                    ? `crawlee-focus: the storage holds a crawl of other seeds, query or mode (${describeIdentity(saved.identity)}); starting afresh, which purges it. ` +
                          'To continue that crawl instead, run it with the seeds, query and mode it began with.'
                    : `crawlee-focus: the storage holds a crawl saved in state format ${saved.format ?? 1}, which this version does not read (${STATE_FORMAT}); starting afresh, which purges it.`,
            );
            saved = null;
        }
        if (saved && saved.format !== STATE_FORMAT) {
            throw new Error(
                `crawlee-focus: the crawl state in storage has format ${saved.format ?? 1}, this version reads format ${STATE_FORMAT}. ` +
                    "Start afresh with resume: 'auto' or false (this purges the default storages), or finish the crawl with the version that began it.",
            );
        }
        if (!saved && resume !== false) {
            // Start afresh, as Crawlee's purge-on-start would; drop() also forgets Crawlee's cached handles.
            await kv.drop();
            await (await Dataset.open(undefined, { config })).drop();
            kv = await KeyValueStore.open(undefined, { config });
        }
        const store = new StateStore<FocusedCrawlState>(kv);
        await store.load(); // picks this run's snapshot keys after any found
        const crawl = new FocusedCrawl({ ...options, config }, store, identity, saved);
        if (saved) {
            const directory = localDatasetDirectory(config);
            const dropped = directory ? await repairTornDatasetItems(directory) : 0;
            if (dropped > 0) log.warning(`crawlee-focus: dropped ${dropped} dataset item(s) cut by the crash; their pages are delivered again.`);
            await crawl.recoverDeliveries();
        }
        config.getEventManager().on('persistState', () => void crawl.persist());
        return crawl;
    }

    /**
     * A worker of a crawl shared through Redis. The crawl's state is in Redis, so no local snapshot is read or written;
     * the worker's own dataset is kept (its pages are done in the store and are not fetched again) and read, so that a
     * restarted worker does not deliver a page twice.
     */
    private static async openShared(options: FocusedCrawlOptions, redis: SharedCrawlOptions, config: Configuration): Promise<FocusedCrawl> {
        // Loaded only here: a crawl in one process never needs Redis, nor ioredis.
        const { RedisFrontierStore } = await import('../redis/index.js');
        const store = await RedisFrontierStore.open<FetchedEntry>({
            redis: redis.url,
            crawlId: redis.crawlId,
            maxPages: options.maxPages ?? 100,
            maxQueued: options.maxFrontierSize ?? 100_000,
            maxInFlightPerHost: options.maxRequestsPerHost ?? 4,
            minDelayPerHostMillis: options.minDelayPerHostMillis ?? 0,
            ...(redis.leaseMillis !== undefined ? { leaseMillis: redis.leaseMillis } : {}),
            // Crawlee decides when a page has had its retries; the store's own limit only bounds a runaway.
            maxAttempts: SHARED_MAX_ATTEMPTS,
        });
        try {
            await store.claimIdentity({
                query: options.query?.trim() ? options.query.trim() : null,
                seeds: options.startUrls,
                mode: options.identity ?? '',
                optionsHash: optionsHash(sharedCrawlOptions(options)),
            });
        } catch (error) {
            await store.close();
            throw error;
        }
        const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
        const kv = await KeyValueStore.open(undefined, { config });
        const crawl = new FocusedCrawl({ ...options, config }, new StateStore<FocusedCrawlState>(kv), '', null, { store, workerId });
        await crawl.recoverDeliveries();
        return crawl;
    }

    /** The frontier, typed as Crawlee's `requestQueue` option expects (3.18 rejects `requestManager`). */
    get requestQueue(): RequestProvider {
        return this.manager as unknown as RequestProvider;
    }

    /**
     * Wraps a request handler: the page is scored, its links are offered to the frontier and it is delivered
     * before `userHandler` runs; the handler reads the result with {@link pageFocus}. It runs once per page: not in
     * the plain-HTTP rerun by which AdaptivePlaywrightCrawler learns how a page renders (Crawlee drops that run's
     * results, but not what a handler does outside them, such as counting pages or writing to a database).
     */
    handler<Context extends CrawlingContext>(userHandler?: (context: Context) => Promise<unknown> | unknown) {
        return async (context: Context): Promise<void> => {
            const rerun = this.renderings.isDetectionRerun(context);
            if (!(await this.processPage(context)) || rerun) return;
            // A page the hook did not read (an error status) is done too, before the user's handler may fail.
            if (this.manager.isShared) await this.manager.settle(context.request);
            await userHandler?.(context);
        };
    }

    /**
     * The same page hook as a router middleware: `router.use(focus.middleware())`. Unlike {@link handler}, it cannot
     * keep the route handler from running on a plain-HTTP page that AdaptivePlaywrightCrawler renders next (an app
     * shell, a thin page; `pageFocus` is undefined there), nor in the plain-HTTP rerun of a detection. Crawlee
     * discards both runs' results, but not what a route handler does outside them.
     */
    middleware<Context extends CrawlingContext>() {
        return async (context: Context): Promise<void> => {
            if ((await this.processPage(context)) && this.manager.isShared) await this.manager.settle(context.request);
        };
    }

    /** Counts a request that failed for good; pass it as (or call it from) `failedRequestHandler`. */
    failedRequestHandler() {
        return async ({ request }: { request: Request }, error: Error): Promise<void> => {
            const sent = !this.tracksSending || request.userData.__focusSent === true;
            if (!sent) {
                // No attempt ever left the crawler (Chromium could not open a page on a loaded machine): the site
                // was not asked, so the page does not use up the budget, and it says nothing of the site.
                this.manager.refund(request);
                this.countFailure('not-sent', undefined, request);
            } else {
                if (request.userData.__focusFailureCounted !== true) {
                    this.countFailure(error instanceof DocumentFetchError ? error.reason : failureReason(error, request.errorMessages), request.url, request);
                }
                const via = this.fetchedVia.get(request) ?? null;
                this.focus?.observeUnproductiveLink(via);
                // A page that failed for good was fetched all the same: it counts on the harvest curve of a shared crawl.
                if (this.learning) {
                    this.logEvent(request, { kind: 'unread', url: request.url, unproductiveVia: via });
                    this.crawlPagesHandled += 1;
                }
            }
            // Crawlee marked it handled before calling this handler; a shared crawl commits it now, with the failure.
            if (this.manager instanceof SharedRequestManager) await this.manager.settleFailed(request, sent);
        };
    }

    /**
     * AdaptivePlaywrightCrawler's `shouldPropagateError`: a plain-HTTP run that failed because the host cannot be reached
     * (no such name, nothing listening, a proxy that cannot reach it) fails the attempt at once. The browser cannot reach
     * that host either, and trying it delays the failure by a page load, while other links of the host are taken. So
     * does a failure the browser would only repeat at the site's cost: a redirect the scope guard blocked, a redirect
     * loop, and a 429/503 whose `Retry-After` the host is now waiting out (the retry comes after the wait).
     */
    unreachableHostCheck(): (error: Error) => boolean {
        return (error) => {
            const reason = failureReason(error, []);
            return HOST_FAILURE.test(reason) || reason === 'redirect-blocked' || reason === 'redirect' || RETRY_AFTER_FAILURE.test(error?.message ?? '');
        };
    }

    /**
     * A post-navigation hook: a 429 or 503 answer with `Retry-After` keeps that host (only) idle for the time asked.
     */
    retryAfterHook() {
        return async (context: CrawlingContext): Promise<void> => this.backOffOnRetryAfter(context.request, responseStatus(context), responseHeader(context, 'retry-after'));
    }

    /**
     * A 429 or 503 with `Retry-After` keeps the request's host idle for the time asked, and fails the attempt (a browser
     * would read the error page as the page) so that it is retried after the wait. Adaptive mode's plain-HTTP runs call
     * it on their response (`ProxiedAdaptivePlaywrightCrawler`), since Crawlee runs their post-navigation hooks only
     * after the request handler.
     */
    backOffOnRetryAfter(request: Request, status: number | null, retryAfter: string | undefined): void {
        if (status !== 429 && status !== 503) return;
        const wait = retryAfterMillis(retryAfter);
        if (wait === null) return;
        this.manager.backOffHost(request.url, Date.now() + wait);
        log.info(`crawlee-focus: ${status} from ${new URL(request.url).host}; backing off ${Math.round(wait / 1000)} s.`);
        throw new Error(`crawlee-focus: status code ${status} with Retry-After; retried after ${Math.round(wait / 1000)} s`);
    }

    /**
     * A pre-navigation hook that keeps every fetch inside the crawl's scope, redirects included, so that no page
     * outside it is ever requested:
     * - http mode: each redirect hop is checked before it is followed (got's `beforeRedirect`);
     * - browser mode: a document's redirect is checked when its response arrives, before Chromium follows it (the
     *   Fetch domain; Playwright's `page.route` sees only the first URL of a redirect chain), and a script that
     *   navigates the main frame away is answered 204, so the page stays. Subresources such as CDN scripts still load.
     * - adaptive mode: its browser runs as in browser mode; its plain-HTTP runs get the hooks of {@link httpGuardHooks}
     *   from the crawler (`ProxiedAdaptivePlaywrightCrawler.httpGuard`): this hook is given a page's goto options
     *   there, not got's.
     *
     * A blocked redirect fails the page without retries (failure `redirect-blocked`) and counts its target as skipped
     * (`out-of-scope`, or `unsupported-scheme` for `file:` and the like).
     */
    scopeGuardHook() {
        this.tracksSending = true;
        return async (context: CrawlingContext, gotOptions?: Dictionary): Promise<void> => {
            const page = browserPageOf(context);
            if (page) await this.clock.time('guard', () => this.guardBrowserPage(context, page));
            else if (gotOptions && !isAdaptivePlainHttpRun(context)) this.guardHttpRedirects(context.request, gotOptions);
            context.request.userData.__focusNavigated = true; // from here on, a failure may be the site's
            this.navigationStarted.set(context.request, performance.now());
            this.fetchedVia.set(context.request, this.manager.entryOf(context.request)?.signal ?? null);
        };
    }

    /** An attempt of the request leaves for the network: the host's politeness delay counts from now. */
    private noteSent(request: Request): void {
        markSent(request);
        this.manager.noteSent(request);
    }

    private guardHttpRedirects(request: Request, gotOptions: Dictionary): void {
        gotOptions.hooks = mergeGotHooks(gotOptions.hooks as GotGuardHooks | undefined, this.httpGuardHooks(request));
    }

    /**
     * got hooks for a plain-HTTP fetch of the request: the politeness delay counts from when it is sent, and each
     * redirect hop is checked against the scope before it is followed.
     */
    httpGuardHooks(request: Request): GotGuardHooks {
        return {
            beforeRequest: [() => this.noteSent(request)],
            beforeRedirect: [
                (options) => {
                    const target = String(options.url ?? '');
                    const reason = this.redirectBlockReason(target, request);
                    if (reason) throw this.blockRedirect(request, target, reason);
                },
            ],
        };
    }

    /**
     * Keeps the page's main frame in scope: a navigation there (a script setting `location`, a meta refresh) to a host
     * outside the scope is answered 204 before it is sent, so the page stays, and a redirect to one is failed before
     * it is followed. With `blockMedia`, images, fonts and media that Chromium still requests are failed there. Only
     * those and documents are paused (Chromium's Fetch domain), so the page's scripts, styles and data load as they
     * would without crawlee-focus; a `page.route` matcher would send every request through Node first.
     */
    private async guardBrowserPage(context: CrawlingContext, page: import('playwright').Page): Promise<void> {
        const cdp = await page.context().newCDPSession(page);
        // Both round trips at once: no document is requested before this hook returns, so the frame id is known by then.
        let mainFrameId = '';
        cdp.on('Fetch.requestPaused', (event: PausedResponse) => {
            if (event.resourceType !== 'Document') {
                void cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
                return;
            }
            const reason = event.responseStatusCode === undefined ? this.navigationBlockReason(event, mainFrameId) : this.redirectReasonOf(event, context.request);
            if (reason?.redirect) {
                void cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
                context.log.warning(this.blockRedirect(context.request, reason.target, reason.why).message);
            } else if (reason) {
                // A 204 ends a navigation and leaves the page as it was (HTML: "no content" responses are not
                // navigated to); a failed request would replace it with Chromium's error page before it is read.
                void cdp.send('Fetch.fulfillRequest', { requestId: event.requestId, responseCode: 204, responseHeaders: [] }).catch(() => undefined);
                this.manager.reject(reason.target, reason.why);
            } else {
                // Noted when it leaves, and again when its answer comes: the site has it by then for sure, and a
                // plain-HTTP fetch sent a delay after the first note reached the site up to ~60 ms short of the delay.
                if (event.frameId === mainFrameId) this.noteSent(context.request);
                void cdp.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => undefined);
            }
        });
        const [{ frameTree }] = await Promise.all([
            cdp.send('Page.getFrameTree') as Promise<{ frameTree: { frame: { id: string } } }>,
            cdp.send('Fetch.enable', {
                patterns: [
                    { resourceType: 'Document', requestStage: 'Request' },
                    { resourceType: 'Document', requestStage: 'Response' },
                    ...(this.options.blockMedia === false ? [] : MEDIA_TYPES.map((resourceType) => ({ resourceType, requestStage: 'Request' as const }))),
                ],
            }),
        ]);
        mainFrameId = frameTree.frame.id;
    }

    /** A main-frame document request to a host outside the scope (frames of other sites, such as videos, may load). */
    private navigationBlockReason(event: PausedResponse, mainFrameId: string): BlockedNavigation | null {
        if (event.frameId !== mainFrameId || this.manager.isInScope(event.request.url)) return null;
        return { target: event.request.url, why: 'out-of-scope', redirect: false };
    }

    /** A document response that redirects where the crawl must not go. */
    private redirectReasonOf(event: PausedResponse, request: Request): BlockedNavigation | null {
        const location = event.responseHeaders?.find((header) => header.name.toLowerCase() === 'location')?.value;
        const status = event.responseStatusCode ?? 0;
        if (!(status >= 300 && status < 400 && location)) return null;
        let target: string;
        try {
            target = new URL(location, event.request.url).href;
        } catch {
            target = location;
        }
        const why = this.redirectBlockReason(target, request);
        return why ? { target, why, redirect: true } : null;
    }

    /** Why a redirect to `target` must not be followed, or `null` if it may. */
    private redirectBlockReason(target: string, request: Request): 'unsupported-scheme' | 'out-of-scope' | null {
        if (!/^https?:/i.test(target)) return 'unsupported-scheme';
        if (this.manager.isInScope(target)) return null;
        if (!this.manager.adoptStartRedirect(request, target)) return 'out-of-scope';
        log.info(`crawlee-focus: the start URL ${request.url} redirects to ${target.slice(0, 300)}; its host joins the crawl's scope.`);
        return null;
    }

    private blockRedirect(request: Request, target: string, reason: 'unsupported-scheme' | 'out-of-scope'): Error {
        this.manager.reject(target, reason);
        request.noRetry = true;
        return new Error(`crawlee-focus: redirect blocked (${reason}): ${request.url} redirects to ${target.slice(0, 300)}`);
    }

    /**
     * An `errorHandler`: failures a retry cannot fix (a PDF or other non-HTML answer, a file download) are not
     * retried, so they cost one fetch and not three.
     */
    errorHandler() {
        return async ({ request }: { request: RetriedRequest }, error: Error): Promise<void> => {
            const reason = error instanceof DocumentFetchError ? error.reason : failureReason(error, []);
            // The network answered for the host (no such name, refused, a proxy that cannot reach it): the request left
            // the crawler, even when it failed before the page's own request was made (a proxy tunnel refused).
            const hostFailure = HOST_FAILURE.test(reason);
            if (hostFailure) markSent(request);
            const navigated = request.userData.__focusNavigated === true || hostFailure;
            request.userData.__focusNavigated = false; // the next attempt sets it anew
            // A file the URL did not announce: fetch it as a document next time, without using up a retry.
            if (this.documents.switchToFetch(request, error)) request.retryCount -= 1;
            else if (error instanceof DocumentFetchError) request.noRetry = true;
            else if (PERMANENT_FAILURE.test(error?.message ?? '')) request.noRetry = true;
            else if (hostFailure && this.isNewHost(request)) {
                // Counted now, not in failedRequestHandler: Crawlee frees the request's host slot before calling it,
                // and the host's other links must sink before another of them is taken.
                request.noRetry = true;
                request.userData.__focusFailureCounted = true;
                this.countFailure(reason, request.url, request as unknown as Request);
            } else if (!navigated) this.spareRetry(request);
            // A host most of whose fetches fail (down, or not there at all) is not worth a second try per page.
            else if (this.trapLearner.isFailingHost(request.url)) request.noRetry = true;
        };
    }

    /**
     * A linked page on a host none of whose fetches has succeeded. When it fails as a host does (its name does not
     * resolve, nothing listens, the gateway cannot reach it), a retry would ask the same host again at once, so the
     * page fails now and the host is learned as failing (`countFailure`). A seed keeps its retries: the user asked for it.
     */
    private isNewHost(request: RetriedRequest): boolean {
        return (request.crawlDepth ?? 0) > 0 && URL.canParse(request.url) && !this.trapLearner.hasSucceededOnHost(hostOf(request.url));
    }

    /**
     * A failure before the request left the crawler (Chromium slow to start or to open a page on a loaded machine) says
     * nothing about the page: it does not use up one of the page's retries, up to {@link MAX_LOCAL_FAILURES} times, so
     * that load never turns into a lost page. Crawlee adds one to `retryCount` after the error handler returns.
     */
    private spareRetry(request: RetriedRequest): void {
        const failures = Number(request.userData.__focusLocalFailures ?? 0);
        if (failures >= MAX_LOCAL_FAILURES) return;
        request.userData.__focusLocalFailures = failures + 1;
        request.retryCount -= 1;
    }

    /** A sitemap's URLs enter the frontier as the links of a hub page would, scored like any link. */
    private queueSitemapUrls(urls: string[], sitemapUrl: string): void {
        const { queued: offered } = this.manager.offerLinks(
            urls.map((url) => ({ url })),
            { url: sitemapUrl, depth: 0, relevance: 0, isHub: true },
        );
        if (this.manager.isShared) {
            void this.manager.flushOffers().then(
                (queued) => log.info(`crawlee-focus: sitemap ${sitemapUrl}: ${queued} of ${urls.length} URLs queued in the shared frontier.`),
                (error: Error) => log.warning(`crawlee-focus: sitemap ${sitemapUrl}: its URLs could not be queued (${error.message}).`),
            );
            return;
        }
        const queued = offered;
        log.info(`crawlee-focus: sitemap ${sitemapUrl}: ${queued} of ${urls.length} URLs queued.`);
    }

    /** Runs the crawler from the start URLs (or from where a resumed crawl stopped) and returns the report. */
    async run(crawler: RunnableCrawler): Promise<FocusReport> {
        const stallTimeoutMillis = this.options.stallTimeoutSecs !== undefined ? this.options.stallTimeoutSecs * 1000 : defaultStallTimeoutMillis(crawler);
        let abortTimer: NodeJS.Timeout | undefined;
        const watchdog = new StallWatchdog(this.manager, {
            stallTimeoutMillis,
            onReclaim: (reclaimed) =>
                log.warning(`crawlee-focus: nothing moved for ${Math.round(stallTimeoutMillis / 1000)} s with requests pending; ${reclaimed} request(s) held in flight handed out again.`),
            onStall: () => {
                this.stopReason = 'stalled';
                this.manager.halt();
                log.error(
                    `crawlee-focus: still no progress ${Math.round(stallTimeoutMillis / 1000)} s after reclaiming; stopping (stalled). ` +
                        'Pending requests are kept: run the crawl again on the same storage to retry them.',
                );
                crawler.stop?.('crawlee-focus: stalled');
                // A request that never returns would keep the pool open: abort it if it has not ended in time.
                abortTimer = setTimeout(() => void crawler.autoscaledPool?.abort(), stallTimeoutMillis);
                abortTimer.unref();
            },
        });
        watchdog.start();
        try {
            try {
                // A resumed frontier already holds its seeds; adding them again is a no-op.
                await crawler.run(this.resumed ? [] : this.options.startUrls);
            } catch (error) {
                throw this.sharedRunError(error);
            } finally {
                watchdog.stop();
                clearTimeout(abortTimer);
            }
            return await this.finish();
        } finally {
            // A shared frontier's connection would keep the process alive, even after a failed run.
            await this.manager.close().catch(() => undefined);
        }
    }

    /** A shared crawl fails when its store does (Redis down): say so, and what to do. */
    private sharedRunError(error: unknown): unknown {
        const redis = this.options.redis;
        if (!redis || !this.manager.isShared) return error;
        const message = error instanceof Error ? error.message : String(error);
        return new Error(
            `crawlee-focus: this worker lost the shared crawl "${redis.crawlId}" at ${redis.url} (${message}). ` +
                'Start it again with the same command once Redis answers: with Redis persistence on, the crawl continues where it was; ' +
                'pages this worker had taken are handed out again when their leases expire.',
            { cause: error },
        );
    }

    /** Writes `FOCUS_REPORT`, `LEARNED_RULES` and `REPORT.html` to the default key-value store and returns the report. */
    async finish(): Promise<FocusReport> {
        const report = this.manager instanceof SharedRequestManager ? await this.sharedReport(this.manager) : this.report();
        await this.persist();
        const kv = await KeyValueStore.open(undefined, { config: this.config });
        await kv.setValue('FOCUS_REPORT', report);
        await kv.setValue('LEARNED_RULES', learnedRules(report));
        await kv.setValue(REPORT_HTML_KEY, reportHtml(report), { contentType: 'text/html; charset=utf-8' });
        return report;
    }

    /**
     * The whole crawl's report, the same for every worker: the first worker to finish records it in the store, once the
     * other workers' leases are in (or expired) and their pages replayed; a later one takes that report, with its own
     * part in `sharedCrawl.worker`.
     */
    private async sharedReport(manager: SharedRequestManager): Promise<FocusReport> {
        const { store } = manager;
        const waitUntil = Date.now() + store.options.leaseMillis + SHARED_FINISH_GRACE_MILLIS;
        let status = await manager.sharedStatus();
        // After a stop, other workers may still be finishing their pages; a dead worker's leases expire meanwhile.
        while (status.leased > 0 && Date.now() < waitUntil) {
            await new Promise((resolve) => setTimeout(resolve, 250));
            await store.reclaimExpired();
            status = await manager.sharedStatus();
        }
        await this.drainOwedDeliveries(manager);
        status = await manager.sharedStatus();
        await this.learning!.sync();
        const worker = { id: manager.workerId, requests: manager.pagesScheduled, delivered: this.deliveredHere, replayed: this.learning!.replayed };
        this.sharedCrawl = {
            crawlId: this.options.redis!.crawlId,
            worker,
            charged: status.charged,
            budget: Number.isFinite(status.budget) ? status.budget : null,
            done: status.done,
            failed: status.failed,
            reclaimed: status.reclaimed,
            stale: status.stale,
            redelivered: status.redelivered,
            queued: status.queued,
            leased: status.leased,
        };
        const crawlReport = (await store.publishReport(this.report())) as FocusReport;
        return { ...crawlReport, sharedCrawl: { ...crawlReport.sharedCrawl!, worker } };
    }

    report(): FocusReport {
        return buildReport({
            // The user's words ("robotics research"), not the terms they were normalised to ("robotic research").
            query: this.focus ? collapseWhitespace(this.focus.query.text) : null,
            // A shared crawl has one stop reason, the first any worker gave, so every worker reports the same.
            stopReason: (this.manager.sharedStopReason as CrawlStopReason | null) ?? this.stopReason ?? this.manager.finishReason ?? 'cancelled',
            pagesFetched: this.pagesFetched(),
            maxPages: this.manager.maxPages,
            curve: this.curve.toArray({ fetched: this.pagesFetched(), relevant: this.relevantPages }),
            topPages: this.topPages.toArray(),
            pagesProcessed: this.pagesProcessed,
            relevantPages: this.relevantPages,
            focus: this.focus,
            trapLearner: this.trapLearner,
            skipped: this.manager.skippedCounts(),
            failures: Object.fromEntries(this.failures),
            duplicates: [...this.duplicates].map(([url, duplicateOf]) => ({ url, duplicateOf })),
            frontierLeft: this.manager.frontierSize(),
            reserve: { held: this.manager.reserveSize, refilled: this.manager.refilled },
            exploration: { pages: this.manager.explorations, sectionsOpened: this.manager.sectionsOpened },
            rendering: { ...this.renderings.scored, readAtLoad: this.settling.counts.skipped },
            documents: this.documents.summary(),
            timings: this.clock.summary(),
            estimatedRecall: this.focus?.estimateRecall(this.manager) ?? null,
            elapsedMillis: Date.now() - this.startedAt,
            ...(this.sharedCrawl ? { sharedCrawl: this.sharedCrawl } : {}),
        });
    }

    /** Pages fetched: a shared crawl's by all workers, as last read from the store. */
    private pagesFetched(): number {
        return this.manager instanceof SharedRequestManager ? this.manager.crawlPagesFetched : this.manager.pagesScheduled;
    }

    progress(): FocusProgress {
        const fetched = this.pagesFetched();
        return {
            pagesFetched: fetched,
            maxPages: this.manager.maxPages,
            relevantPages: this.relevantPages,
            harvestRate: this.pagesProcessed > 0 ? this.relevantPages / this.pagesProcessed : 0,
            queueSize: this.manager.frontierSize(),
            estimatedRecall: this.focus?.estimateRecall(this.manager) ?? null,
        };
    }

    // ------------------------------------------------------------------ page

    /**
     * The page hook. False when this run of the handler is one AdaptivePlaywrightCrawler will throw away (a plain-HTTP
     * fetch of an app shell or a thin page, rendered in the browser next): the user's handler is then not run either.
     */
    private async processPage(context: CrawlingContext): Promise<boolean> {
        if (this.renderings.isDetectionRerun(context)) {
            // The page was scored in the browser a moment ago: only read it again, for the rendering comparison, which
            // looks at links and text alone (without the Markdown, a sixth of the time: 10 ms against 62 on a calendar page).
            const url = context.request.loadedUrl ?? context.request.url;
            this.renderings.record(context, extractPage(await readHtml(context, this.options), url, { maxHtmlChars: this.maxHtmlChars, markdown: false }));
            return true;
        }
        const scored = await this.scorePage(context);
        if (scored) {
            this.renderings.markHandled(context);
            this.crawlPagesHandled += 1;
            this.recordCurve();
        }
        return scored;
    }

    /** Reads, scores and delivers the page and offers its links: every change a handled page makes to the crawl. */
    private async scorePage(context: CrawlingContext): Promise<boolean> {
        const { request } = context;
        const navigationStarted = this.navigationStarted.get(request);
        if (navigationStarted !== undefined) this.clock.add('navigate', performance.now() - navigationStarted);
        const entry = this.manager.entryOf(request);
        /** `unproductiveVia`: the link the fetch taught the calibration did not pay (an error status), if it did. */
        const unread = (unproductiveVia?: LinkSignal | null) => {
            this.logEvent(request, { kind: 'unread', url: request.loadedUrl ?? request.url, ...(unproductiveVia === undefined ? {} : { unproductiveVia }) });
            this.setPageFocus(context, { relevance: 0, hit: false, delivered: false, duplicateOf: null, depth: entry?.depth ?? 0, linkScore: entry?.linkScore ?? null, linksQueued: 0 });
            return true;
        };
        const status = responseStatus(context);
        // Not the site's answer: the proxy in between could not reach it. Thrown, so Crawlee retries it as it would a reset.
        if (status !== null && PROXY_TRANSPORT_ERRORS[status]) throw new Error(`crawlee-focus: ${PROXY_TRANSPORT_ERRORS[status]}: the proxy could not reach ${request.url} (it answered ${status})`);
        if (status !== null && status >= 400) {
            this.manager.noteAnswered(request);
            this.countFailure(`http-${status}`, request.loadedUrl ?? request.url, request);
            this.focus?.observeUnproductiveLink(entry?.signal ?? null);
            return unread(entry?.signal ?? null);
        }
        const read = await this.readPage(context);
        if (read === 'needs-browser') return false;
        this.manager.noteAnswered(request); // its host may take more requests while the crawl works on this one
        if (read === null) return unread();
        const { page, documentKind } = read;
        const url = request.loadedUrl ?? request.url;
        const scoringStarted = performance.now();
        // What the other workers of a shared crawl have learned meanwhile, before this page is judged.
        await this.learning?.sync();
        const depth = entry?.depth ?? request.crawlDepth ?? 0;
        const focusPage: FocusPage = { url, title: page.title, markdown: page.markdown, linkCount: page.links.length, proseWords: page.proseWords, lang: page.lang };
        const prints = textPrints(page.text);
        const fingerprint = simHash(page.markdown);
        const via = entry?.signal ?? null;
        const { seen, nearDuplicateOf, verdict, relevance, duplicate } = this.learnPage({ page: focusPage, prints, simHash: fingerprint, via, depth });

        const offered = duplicate ? { queued: 0, revealed: null } : this.manager.offerLinks(page.links, { url, depth, relevance, isHub: isHub(page.links.length, page.proseWords), via });
        let linksQueued = offered.queued;
        this.clock.add('score', performance.now() - scoringStarted);
        const planned = this.planDelivery(focusPage, prints.exact, seen, nearDuplicateOf, relevance);
        const item = planned.deliver
            ? datasetItem(page, { documentKind, relevance, depth, parentUrl: entry?.parentUrl ?? null, anchorText: entry?.anchorText ?? '', linkScore: entry?.linkScore ?? null })
            : null;
        if (this.manager instanceof SharedRequestManager) {
            this.logEvent(request, {
                kind: 'page', ...focusPage, lang: page.lang ?? null, depth, prints, simHash: fingerprint, via, relevance, delivered: planned.deliver,
                ...(offered.revealed === null ? {} : { revealed: offered.revealed }),
            });
            // The page's links reach the shared frontier before the page is done: a worker dying after the commit loses none.
            linksQueued = (await this.manager.flushOffers()) ?? linksQueued;
            // Committed before it is delivered, with its item: a page another worker owns since a reclaim (`stale`) is
            // delivered there, and one this worker dies before writing is delivered by another (drainOwedDeliveries).
            if ((await this.manager.settle(request, item ?? undefined)) === 'stale') {
                if (planned.deliver) this.forgetDelivery(prints.exact, url);
                this.pagesProcessed += 1;
                this.setPageFocus(context, { relevance, hit: false, delivered: false, duplicateOf: null, depth, linkScore: entry?.linkScore ?? null, linksQueued });
                context.log.warning(`crawlee-focus: ${url} belongs to another worker since this worker's lease expired; not delivered here.`);
                return true;
            }
        }
        const delivery = item
            ? await this.clock.time('deliver', () => this.deliver(context, item, prints.exact, fingerprint, documentKind))
            : { delivered: false, duplicateOf: planned.duplicateOf };
        this.pagesProcessed += 1;
        this.clock.countPage();
        this.setPageFocus(context, { relevance, hit: verdict?.hit ?? false, ...delivery, depth, linkScore: entry?.linkScore ?? null, linksQueued });

        if (verdict?.stop && this.stopPolicy === 'adaptive') this.stopCrawl(verdict.stop, context);
        this.options.onProgress?.(this.progress());
        return true;
    }

    /**
     * Teaches the learners one page, read here or (from a shared crawl's log) by another worker: the trap learner and
     * its rewrite rules, the near-duplicate check, and the focus (facets, link model, harvest, adaptive stop).
     */
    private learnPage({ page, prints, simHash: fingerprint, via, depth, judged }: { page: FocusPage; prints: TextPrints; simHash: SimHash | null; via: LinkSignal | null; depth: number; judged?: number }): {
        seen: Seen;
        nearDuplicateOf: string | undefined;
        verdict: PageVerdict | undefined;
        relevance: number;
        duplicate: boolean;
    } {
        const seen = this.trapLearner.observePrints(page.url, prints);
        const similar = fingerprint === null ? undefined : this.nearDuplicates.find(fingerprint);
        const nearDuplicateOf = similar === page.url ? undefined : similar; // the same page, fetched again after a crash
        // A near-duplicate is repeated content too, which the trap learner's exact fingerprints cannot see.
        if (nearDuplicateOf !== undefined && seen.kind === 'new') this.trapLearner.markRepeated(page.url);
        // An exact duplicate is an earlier page under another URL: it carries no new evidence about the topic or
        // about saturation, and its links were offered with the original. A near-duplicate brings no new evidence
        // either, but its links may differ.
        // A soft 404 (the site's error page, served with 200) failed: nothing to judge, follow or deliver.
        if (seen.kind === 'soft-404') this.countFailure('soft-404');
        const duplicate = seen.kind === 'duplicate' || seen.kind === 'soft-404';
        const repeated = duplicate || nearDuplicateOf !== undefined;
        if (repeated) this.focus?.observeUnproductiveLink(via);
        const verdict = repeated ? undefined : this.focus?.observePage(page, via, this.manager, judged);
        if (verdict?.rescore) this.manager.rescore();
        if (verdict?.found) this.manager.noteFound(page.url);
        const relevance = verdict?.relevance ?? judged ?? this.focus?.relevance(page) ?? 0;
        if (depth === 0) this.focus?.noteSeedLanguage(page.lang ?? null);
        return { seen, nearDuplicateOf, verdict, relevance, duplicate };
    }

    /** Replays what another worker of the shared crawl logged: its page teaches this worker's learners too. */
    private applyEvent(event: CrawlEvent): void {
        if (event.kind === 'skipped') {
            this.manager.addSkipCounts(event.counts);
            return;
        }
        if (event.kind === 'setAside') {
            if (this.manager instanceof SharedRequestManager) this.manager.holdSetAsideElsewhere(event.entries);
            return;
        }
        if (this.manager instanceof SharedRequestManager) this.manager.noteRemoteFetch(event.url, event.takenUrl, event.explored === true);
        if (event.kind === 'exploring') return;
        if (event.kind === 'failure') {
            this.countFailure(event.reason, event.url ?? undefined);
            return;
        }
        this.crawlPagesHandled += 1;
        if (event.kind === 'page') this.applyPageEvent(event);
        // What the reader learned from the fetch, every worker learns: one calibration and one ranking for the crawl.
        else if (event.unproductiveVia !== undefined) this.focus?.observeUnproductiveLink(event.unproductiveVia);
        this.recordCurve();
    }

    private applyPageEvent(event: ReadPageEvent): void {
        if (event.revealed !== undefined) this.manager.noteRevealedElsewhere(event.url, event.revealed);
        const page: FocusPage = { url: event.url, title: event.title, markdown: event.markdown, linkCount: event.linkCount, proseWords: event.proseWords, lang: event.lang };
        // Scored once, by the worker that read it.
        const { verdict } = this.learnPage({ page, prints: event.prints, simHash: event.simHash, via: event.via, depth: event.depth, judged: event.relevance });
        this.pagesProcessed += 1;
        if (event.delivered) {
            // Delivered by that worker: its text, and texts nearly like it, are not delivered again here.
            this.remember(event.prints.exact, event.url);
            if (event.simHash !== null) this.nearDuplicates.add(event.simHash, event.url);
            this.relevantPages += 1;
            this.topPages.add({ url: event.url, title: event.title, relevance: event.relevance, depth: event.depth });
        }
        if (verdict?.stop && this.stopPolicy === 'adaptive') this.stopCrawl(verdict.stop);
    }

    /** A point of the harvest curve: the crawl's pages handled (a shared crawl's, by all workers) against relevant pages. */
    private recordCurve(): void {
        this.curve.record(this.learning ? this.crawlPagesHandled : this.manager.pagesScheduled, this.relevantPages);
    }

    /** In a shared crawl, logs what the request's page taught the crawl (see {@link SharedLearning}); nothing otherwise. */
    private logEvent(request: Request, event: DistributiveOmit<CrawlEvent, 'worker'>): void {
        if (this.manager instanceof SharedRequestManager) this.manager.logEvent(request, { ...event, worker: this.manager.workerId });
    }

    /** Ends the crawl for `reason` (the first reason given stands): nothing more is handed out, requests in flight finish. */
    private stopCrawl(reason: CrawlStopReason, context?: CrawlingContext): void {
        if (this.stopReason) return;
        this.stopReason = reason;
        this.manager.stop(reason);
        (context?.log ?? log).info(`crawlee-focus: stopping (${reason}); requests in flight still finish.`);
        // Without a page at hand (a shared crawl's replayed page fired the rule), the shared stop ends the crawl.
        (context as unknown as { crawler?: { stop?: (message?: string) => void } } | undefined)?.crawler?.stop?.(`crawlee-focus: ${reason}`);
    }

    /**
     * The page a handled request holds: HTML read and extracted, or a document fetched and converted. Null when there
     * is nothing to score (an error status, binary data, a document that cannot be read: the failure is counted);
     * `'needs-browser'` for AdaptivePlaywrightCrawler's plain-HTTP run of a page that must be rendered.
     */
    private async readPage(context: CrawlingContext): Promise<{ page: PageData; documentKind: DocumentKind | null } | 'needs-browser' | null> {
        const { request } = context;
        if (request.userData.__focusDocument === true) {
            request.userData.__focusNavigated = true;
            this.noteSent(request);
        }
        const document = await this.clock.time('read', () => this.documents.read(context));
        const url = () => request.loadedUrl ?? request.url;
        if (document) {
            if (document.status >= 400) {
                this.countFailure(`http-${document.status}`, url(), request);
                return null;
            }
            const converted = await this.clock.time('extract', () => this.documents.convert(document));
            if (!converted.ok) {
                this.countFailure(converted.reason, undefined, request);
                context.log.warning(`crawlee-focus: ${url()} (${converted.kind ?? 'unknown type'}) is not read: ${converted.message}.`);
                return null;
            }
            return { page: converted.page, documentKind: converted.kind };
        }
        const html = await this.clock.time('read', () => readHtml(context, this.options, this.settling));
        if (looksBinary(html)) {
            this.countFailure('binary-content', undefined, request);
            context.log.warning(`crawlee-focus: ${url()} is served as HTML but its body is binary data; not read.`);
            return null;
        }
        const page = await this.clock.time('extract', () => extractPage(html, url(), { maxHtmlChars: this.maxHtmlChars }));
        if (this.renderings.refusesPlainHttp(context, html, page)) return 'needs-browser';
        if (page.truncated) {
            this.countFailure('truncated', undefined, request);
            context.log.warning(`crawlee-focus: ${url()} has ${html.length} characters of HTML; only the first ${this.maxHtmlChars} are read (option maxHtmlChars).`);
        }
        this.renderings.record(context, page);
        return { page, documentKind: null };
    }

    /**
     * Whether a page is to be delivered: relevant, not a soft 404, and no copy of its text delivered (or about to be)
     * already. A page to deliver is remembered at once, so that a copy handled meanwhile is not delivered too; the
     * delivery gate may still refuse it ({@link deliver}).
     */
    private planDelivery(page: FocusPage, textHash: number, seen: Seen, nearDuplicateOf: string | undefined, relevance: number): { deliver: boolean; duplicateOf: string | null } {
        const relevant = this.focus ? relevance >= this.minRelevance : true;
        if (!relevant || seen.kind === 'soft-404') return { deliver: false, duplicateOf: null };
        const first = this.delivered.get(textHash) ?? (seen.kind === 'duplicate' ? seen.of : undefined) ?? nearDuplicateOf;
        // The first page with this text may itself have been held back as a near-duplicate: name the delivered one.
        const original = first === undefined ? undefined : (this.duplicates.get(first) ?? first);
        if (original !== undefined && original !== page.url) {
            this.duplicates.set(page.url, original);
            log.debug(`crawlee-focus: ${page.url} repeats the text of ${original}; not delivered again.`);
            return { deliver: false, duplicateOf: original };
        }
        if (this.deliveredUrls.has(page.url)) return { deliver: false, duplicateOf: null }; // re-fetched after a crash
        this.remember(textHash, page.url);
        return { deliver: true, duplicateOf: null };
    }

    /** A planned delivery that did not happen: the text may be delivered from another page. */
    private forgetDelivery(textHash: number, url: string): void {
        this.delivered.delete(textHash);
        this.deliveredUrls.delete(url);
    }

    /** Delivers a page {@link planDelivery} chose, unless the delivery gate refuses it. */
    private async deliver(
        context: CrawlingContext,
        item: DatasetItem,
        textHash: number,
        fingerprint: SimHash | null,
        documentKind: DocumentKind | null,
    ): Promise<{ delivered: boolean; duplicateOf: string | null }> {
        const candidate = candidateOf(item);
        if (this.options.deliveryGate && !(await this.admitted(candidate, context))) {
            this.forgetDelivery(textHash, item.url);
            await this.manager.acknowledgeDelivery(context.request);
            return { delivered: false, duplicateOf: null };
        }
        if (fingerprint !== null) this.nearDuplicates.add(fingerprint, item.url);
        this.relevantPages += 1;
        this.deliveredHere += 1;
        this.topPages.add(candidate);
        if (documentKind !== null) this.documents.noteDelivered(documentKind);
        await context.pushData(item);
        await this.manager.acknowledgeDelivery(context.request);
        await this.options.deliveryGate?.delivered?.(candidate);
        return { delivered: true, duplicateOf: null };
    }

    /**
     * Waits until the shared crawl owes no delivery, writing to this worker's dataset the pages of workers that died
     * between committing a page and writing it (their deadline passed). Each such page is claimed by one worker only.
     */
    private async drainOwedDeliveries(manager: SharedRequestManager): Promise<void> {
        const pause = Math.max(50, Math.min(1000, manager.store.options.leaseMillis / 4));
        let dataset: Dataset | null = null;
        for (;;) {
            for (const owed of await manager.claimOwedDeliveries(100)) {
                const item = owed.item as DatasetItem;
                const candidate = candidateOf(item);
                if (!this.options.deliveryGate || (await this.admitted(candidate))) {
                    dataset ??= await Dataset.open(undefined, { config: this.config });
                    await dataset.pushData(item);
                    this.deliveredHere += 1;
                    await manager.acknowledgeOwed(owed);
                    await this.options.deliveryGate?.delivered?.(candidate);
                    log.info(`crawlee-focus: delivered ${item.url} for a worker that committed it and died before writing it.`);
                } else await manager.acknowledgeOwed(owed);
            }
            if ((await manager.owedDeliveries()) === 0) return;
            await new Promise((resolve) => setTimeout(resolve, pause));
        }
    }

    /** The delivery gate's verdict on one page; asked one page at a time, and never again once it said stop. */
    private admitted(candidate: DeliveryCandidate, context?: CrawlingContext): Promise<boolean> {
        const gate = this.options.deliveryGate!;
        const turn = this.gateTurn.then(async () => {
            if (this.stopReason === 'delivery-limit') return false;
            const decision = await gate.admit(candidate);
            if (decision.stop || !decision.deliver) this.stopCrawl('delivery-limit', context);
            return decision.deliver;
        });
        this.gateTurn = turn.catch(() => undefined);
        return turn;
    }

    private remember(hash: number, url: string): void {
        this.delivered.set(hash, url);
        this.deliveredUrls.add(url);
    }

    private setPageFocus(context: CrawlingContext, focus: PageFocus): void {
        context.request.userData.focus = focus;
    }

    /**
     * Counts a failure by reason; one the server caused also teaches the trap learner that its template (and host) fails.
     * With the request it happened to, a shared crawl logs it for the other workers.
     */
    private countFailure(reason: string, url?: string, request?: Request): void {
        this.failures.set(reason, (this.failures.get(reason) ?? 0) + 1);
        if (url !== undefined && SERVER_FAILURE.test(reason)) this.trapLearner.observeFailure(url, HOST_FAILURE.test(reason));
        if (request) this.logEvent(request, { kind: 'failure', reason, url: url ?? null });
    }

    // ----------------------------------------------------------- persistence

    /** Writes a snapshot of the whole crawl state; resolves when it is durable. */
    persist(): Promise<void> {
        if (this.manager.isShared) return Promise.resolve(); // the crawl's state is in the shared store
        return this.store.save(() => ({
            format: STATE_FORMAT,
            identity: this.identity,
            manager: this.manager.toJSON(),
            trapLearner: this.trapLearner.toJSON(),
            focus: this.focus?.toJSON() ?? null,
            delivered: [...this.delivered],
            duplicates: [...this.duplicates],
            pagesProcessed: this.pagesProcessed,
            relevantPages: this.relevantPages,
            failures: [...this.failures],
            stopReason: this.stopReason,
            curve: this.curve.toJSON(),
        }));
    }

    /**
     * The dataset is the record of what was delivered. Pages delivered after the last snapshot are in it already:
     * never deliver them twice. A page the snapshot counts as delivered whose item the crash cut off is not: its
     * request is still pending, so it is fetched and delivered again. The near-duplicate index is rebuilt from it.
     */
    private async recoverDeliveries(): Promise<void> {
        const dataset = await Dataset.open(undefined, { config: this.config });
        const inDataset = new Set<string>();
        let recovered = 0;
        await dataset.forEach(async (item: Dictionary) => {
            if (typeof item.url !== 'string' || typeof item.markdown !== 'string') return;
            inDataset.add(item.url);
            // A shared crawl's counts, top pages and SimHashes come from its log, which holds this worker's pages too.
            if (this.learning) {
                this.deliveredUrls.add(item.url);
                return;
            }
            if (typeof item.relevance === 'number') {
                this.topPages.add({ url: item.url, title: String(item.title ?? ''), relevance: item.relevance, depth: Number(item.depth ?? 0) });
            }
            const fingerprint = simHash(item.markdown);
            if (fingerprint !== null) this.nearDuplicates.add(fingerprint, item.url);
            if (this.deliveredUrls.has(item.url)) return;
            this.deliveredUrls.add(item.url);
            recovered += 1;
        });
        let lost = 0;
        for (const [hash, url] of this.delivered) {
            if (inDataset.has(url)) continue;
            this.delivered.delete(hash);
            this.deliveredUrls.delete(url);
            lost += 1;
        }
        this.relevantPages += recovered - lost;
    }
}

/** `Omit` applied to each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The parts of a Crawlee crawler that {@link FocusedCrawl.run} uses. */
export interface RunnableCrawler {
    run(requests?: string[]): Promise<unknown>;
    stop?(message?: string): void;
    autoscaledPool?: { abort(): Promise<void> };
}

/** No single request may take longer than its navigation and handler timeouts: past that, nothing is in flight for real. */
function defaultStallTimeoutMillis(crawler: RunnableCrawler): number {
    const timeouts = crawler as unknown as { requestHandlerTimeoutMillis?: number; navigationTimeoutMillis?: number };
    return Math.max(60_000, (timeouts.requestHandlerTimeoutMillis ?? 60_000) + (timeouts.navigationTimeoutMillis ?? 0) + 30_000);
}

/** The page hook's result for a request, for the user's own handler. */
export function pageFocus(request: { userData: Dictionary }): PageFocus | undefined {
    return request.userData.focus as PageFocus | undefined;
}

function responseHeader(context: CrawlingContext, name: string): string | undefined {
    const response = (context as unknown as { response?: { headers?: (() => Record<string, string>) | Record<string, string | string[]> } }).response;
    const headers = typeof response?.headers === 'function' ? response.headers() : response?.headers;
    const value = headers?.[name];
    return Array.isArray(value) ? value[0] : value;
}

/** `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3), capped at ten minutes. */
export function retryAfterMillis(value: string | undefined, now = Date.now()): number | null {
    if (!value) return null;
    const seconds = Number(value.trim());
    const millis = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
    if (!Number.isFinite(millis) || millis < 0) return null;
    return Math.min(millis, 600_000);
}

function responseStatus(context: CrawlingContext): number | null {
    const response = (context as unknown as { response?: { status?: () => number; statusCode?: number } }).response;
    if (!response) return null;
    if (typeof response.status === 'function') return response.status();
    return typeof response.statusCode === 'number' ? response.statusCode : null;
}

/**
 * The page's HTML. A browser page is read once its DOM is quiet, unless `settling` says the pages of its kind do not
 * change after their load event (and it asks for no data): then at load, as plain PlaywrightCrawler reads it.
 */
async function readHtml(context: CrawlingContext, options: FocusedCrawlOptions, settling?: SettleMemory): Promise<string> {
    const browserPage = browserPageOf(context);
    if (browserPage) {
        const url = context.request.loadedUrl ?? context.request.url;
        const timeoutMillis = options.domSettleTimeoutMillis ?? 3000;
        const quietMillis = options.domQuietMillis ?? 250;
        if (!settling || hasPendingData(browserPage) || settling.shouldWait(url)) {
            const changed = await settleRenderedPage(browserPage, { quietMillis, timeoutMillis });
            settling?.record(url, changed);
        } else {
            await waitForLoad(browserPage, timeoutMillis);
            // Its kind was still after load, but this page may not be (its data came later this time): then it waits.
            if (await changedAfterLoad(browserPage, quietMillis)) {
                await settleRenderedPage(browserPage, { quietMillis, timeoutMillis });
                settling.recordLateChange(url);
            }
        }
        return browserPage.content();
    }
    const body = (context as unknown as { body?: string | Buffer }).body;
    if (typeof body === 'string') return body;
    if (Buffer.isBuffer(body)) return body.toString('utf8');
    const parse = (context as unknown as { parseWithCheerio?: () => Promise<{ html(): string }> }).parseWithCheerio;
    if (parse) return (await parse()).html();
    throw new UnsupportedContextError(
        'crawlee-focus cannot read this page: the crawling context has neither `page`, `body` nor `parseWithCheerio`. Use PlaywrightCrawler, CheerioCrawler or AdaptivePlaywrightCrawler.',
    );
}

/** Marks that an attempt of this request left the crawler for the network (it may still fail there). */
function markSent(request: { userData: Dictionary }): void {
    request.userData.__focusSent = true;
}

/** Failure reasons that come from the server (not from our own limits or guards): they teach the trap learner. */
const SERVER_FAILURE = /^(?:http-\d{3}|timeout|connection-error|host-unreachable)$/;

/** Server failures that speak for the whole host: it cannot be reached, or a gateway cannot reach it. */
const HOST_FAILURE = /^(?:host-unreachable|http-502|http-504)$/;

/**
 * Statuses a proxy-chain proxy answers with when it could not reach the site, as the network error they stand for,
 * so that `failureReason` classes them as it would the error itself. Crawlee sends every browser request through a
 * local proxy-chain server (browser-pool's proxy-server.js), so in browser mode a reset between it and the site came
 * back as a page with status 595, counted `http-595` and never retried (a CI run lost a subtree to one under load).
 * (proxy-chain statuses.ts: 590 non-200 from the upstream proxy, 593 not found, 594 refused, 595 reset, 596 broken pipe, 599 other.)
 */
const PROXY_TRANSPORT_ERRORS: Readonly<Record<number, string>> = Object.freeze({
    590: 'ECONNRESET (the upstream proxy refused)',
    593: 'ENOTFOUND',
    594: 'ECONNREFUSED',
    595: 'ECONNRESET',
    596: 'ECONNRESET (broken pipe)',
    599: 'ECONNRESET (proxy error)',
});

/** Errors that say the resource is not a page we can read: retrying cannot help. */
/** The error that fails an attempt answered 429/503 with `Retry-After` ({@link FocusedCrawl.retryAfterHook}). */
const RETRY_AFTER_FAILURE = /^crawlee-focus: status code \d+ with Retry-After/;
const PERMANENT_FAILURE = /served Content-Type|Download is starting|ERR_INVALID_RESPONSE|ERR_UNKNOWN_URL_SCHEME|ERR_TOO_MANY_REDIRECTS|Redirected \d+ times|redirect blocked|ERR_UNSAFE_REDIRECT|Unsupported protocol/i;

/** Subresources a browser page is read without ({@link FocusedCrawlOptions.blockMedia}), as the Fetch domain names them. */
const MEDIA_TYPES = ['Image', 'Font', 'Media'] as const;

/** A request or response paused by Chromium's Fetch domain (the fields the scope guard reads). */
interface PausedResponse {
    requestId: string;
    resourceType: string;
    frameId: string;
    request: { url: string };
    /** Absent at the request stage. */
    responseStatusCode?: number;
    responseHeaders?: Array<{ name: string; value: string }>;
}

/** What the scope guard refused, and why. */
interface BlockedNavigation {
    target: string;
    why: 'unsupported-scheme' | 'out-of-scope';
    /** A redirect (the page's own request fails) rather than a navigation away from it. */
    redirect: boolean;
}

/**
 * Whether a body served as HTML is binary data (an image or archive with the wrong type): many NUL or other control
 * characters, or U+FFFD from undecodable bytes, in its first 4 kB.
 */
function looksBinary(html: string): boolean {
    const sample = html.slice(0, 4096);
    if (sample.length === 0) return false;
    let odd = 0;
    for (let i = 0; i < sample.length; i++) {
        const code = sample.charCodeAt(i);
        if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0xfffd) odd++;
    }
    return odd / sample.length > BINARY_CHARACTER_SHARE;
}

function failureReason(error: Error, messages: string[]): string {
    // The message only: Crawlee's stored error messages carry stack traces, whose frames (addTimeoutToPromise) say "timeout".
    const text = error?.message || messages.at(-1)?.split('\n')[0] || '';
    // Our scope guard, or the client refusing a redirect to another scheme (got: "Unsupported protocol: file:").
    if (/redirect blocked|ERR_BLOCKED_BY_CLIENT|ERR_UNSAFE_REDIRECT|Unsupported protocol/i.test(text)) return 'redirect-blocked';
    if (/timed? ?out|timeout/i.test(text)) return 'timeout';
    if (/redirect/i.test(text)) return 'redirect';
    if (/content-?type|not supported|mime|download is starting/i.test(text)) return 'unsupported-content-type';
    // The host, not the page: its name does not resolve, nothing listens, or the proxy cannot open a tunnel to it
    // (Chromium: ERR_TUNNEL_CONNECTION_FAILED; got-scraping: "Proxy responded with 502 Bad Gateway").
    if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ERR_NAME_NOT_RESOLVED|ERR_CONNECTION_REFUSED|ERR_ADDRESS_UNREACHABLE|ERR_TUNNEL_CONNECTION_FAILED|Proxy responded with 50[24]/.test(text)) return 'host-unreachable';
    if (/ECONNRESET|socket hang up|aborted|ERR_CONNECTION|ERR_EMPTY_RESPONSE/i.test(text)) return 'connection-error';
    const status = /status code:? (\d{3})|\b(\d{3})\b.*(?:error|status)/i.exec(text);
    if (status) return `http-${status[1] ?? status[2]}`;
    return 'error';
}

/** One delivered page, as it is written to the dataset. */
export interface DatasetItem {
    url: string;
    title: string;
    contentType: string;
    markdown: string;
    relevance: number;
    depth: number;
    parentUrl: string | null;
    anchorText: string;
    linkScore: number | null;
    fetchedAt: string;
}

function datasetItem(
    page: PageData,
    how: { documentKind: DocumentKind | null; relevance: number; depth: number; parentUrl: string | null; anchorText: string; linkScore: number | null },
): DatasetItem {
    return {
        url: page.url,
        title: page.title,
        contentType: how.documentKind === null ? 'text/html' : DOCUMENT_CONTENT_TYPES[how.documentKind][0]!,
        markdown: page.markdown,
        relevance: how.relevance,
        depth: how.depth,
        parentUrl: how.parentUrl,
        anchorText: how.anchorText,
        linkScore: how.linkScore,
        fetchedAt: new Date().toISOString(),
    };
}

function candidateOf(item: DatasetItem): DeliveryCandidate {
    return { url: item.url, title: item.title, relevance: item.relevance, depth: item.depth };
}

/** A saved crawl's identity (seeds, query, mode) in words, for the message that it is not resumed. */
function describeIdentity(identity: string): string {
    try {
        const { seeds, query, id } = JSON.parse(identity) as { seeds?: string[]; query?: string | null; id?: string };
        return `seeds ${(seeds ?? []).slice(0, 3).join(' ')}${(seeds?.length ?? 0) > 3 ? ' …' : ''}, query ${query === null || query === undefined ? 'none' : JSON.stringify(query)}, mode ${id || 'unknown'}`;
    } catch {
        return 'unreadable';
    }
}
