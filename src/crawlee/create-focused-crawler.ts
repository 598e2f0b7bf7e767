import { BasicCrawler, CheerioCrawler, Configuration, PlaywrightCrawler, ProxyConfiguration } from 'crawlee';
import type { CrawlingContext } from 'crawlee';

import { InsecureHttpClient, ProxiedAdaptivePlaywrightCrawler } from './adaptive-crawler.js';
import { CHROMIUM_ARGS, chromiumExecutable, mediaBlockingArgs, trackDataRequests, trackDomChanges } from './browser.js';
import { DOCUMENT_MIME_TYPES } from '../extract/documents/index.js';
import { FocusedCrawl } from './focused-crawl.js';
import type { FocusedCrawlOptions } from './focused-crawl.js';
import type { FocusReport } from '../report/index.js';
import { CRAWLEE_FOCUS_USER_AGENT, createTextFetcher } from './robots-cache.js';
import { browserPageOf } from './rendering.js';

/** `browser` = PlaywrightCrawler, `http` = CheerioCrawler, `adaptive` = AdaptivePlaywrightCrawler. */
export type CrawlMode = 'browser' | 'http' | 'adaptive';

export interface BrowserOptions {
    /** Chromium to launch. @default `CRAWLEE_DEFAULT_BROWSER_PATH`, else /usr/bin/chromium when installed */
    executablePath?: string;
    /** Extra Chromium flags, after {@link CHROMIUM_ARGS} and the media flags (a `--blink-settings` here replaces ours). @default [] */
    args?: string[];
    /** @default true */
    headless?: boolean;
}

export interface CreateFocusedCrawlerOptions extends Omit<FocusedCrawlOptions, 'identity' | 'config'> {
    /** Which Crawlee crawler fetches the pages. @default 'browser' */
    mode?: CrawlMode;
    /** Your own handler; it runs after the page was scored and can read `pageFocus(request)`. */
    requestHandler?: (context: CrawlingContext) => Promise<unknown> | unknown;
    /** Proxy URLs for Crawlee's `ProxyConfiguration`. @default none */
    proxyUrls?: string[];
    /**
     * A ready proxy configuration (e.g. `Actor.createProxyConfiguration()`), used instead of `proxyUrls`; robots.txt and
     * sitemaps go through its first URL.
     * @default none
     */
    proxyConfiguration?: ProxyConfiguration;
    /**
     * The Crawlee configuration whose storages the crawl uses (e.g. the Apify SDK's after `Actor.init()`), instead of a
     * new one on `storageDir`.
     * @default a new Configuration on `storageDir`
     */
    configuration?: Configuration;
    /** Pages fetched in parallel at most. @default Crawlee's default (200), autoscaled */
    maxConcurrency?: number;
    /** @default 1 */
    minConcurrency?: number;
    /** Retries of a failing page. @default 2 */
    maxRequestRetries?: number;
    /** @default 30 */
    navigationTimeoutSecs?: number;
    /** @default 60 */
    requestHandlerTimeoutSecs?: number;
    browser?: BrowserOptions;
    /** Folder of Crawlee's storages. @default `CRAWLEE_STORAGE_DIR`, else ./storage */
    storageDir?: string;
    /** How often Crawlee emits `persistState` (the plugin also snapshots after every handled page). @default 60_000 */
    persistStateIntervalMillis?: number;
    /** Any other Crawlee crawler options, passed through unchanged. @default {} */
    crawlerOptions?: Record<string, unknown>;
}

export interface FocusedCrawler {
    crawler: BasicCrawler;
    focus: FocusedCrawl;
    mode: CrawlMode;
    /** Runs the crawl (or resumes it) and returns the report, also stored as `FOCUS_REPORT`. */
    run(): Promise<FocusReport>;
    /**
     * Ends the crawl early (an abort, a shutdown): nothing more is taken, requests in flight finish, and `run()`
     * resolves with the report (stop reason `cancelled`), which is written as for any other end.
     */
    stop(message?: string): void;
}

/**
 * Whether this Crawlee validates a `requestManager` option. 3.18 declares it in its types but rejects it at run time
 * (it is missing from `optionsShape`), so the manager goes in as `requestQueue` until a release accepts it.
 */
export function crawlerAcceptsRequestManager(): boolean {
    const shape = (BasicCrawler as unknown as { optionsShape?: Record<string, unknown> }).optionsShape;
    return shape !== undefined && 'requestManager' in shape;
}

/**
 * Adaptive mode's autoscaling: Crawlee's settings for HTTP crawlers (CheerioCrawler's), not a browser crawler's start at
 * one page in flight, +1 per 10 s. Once a neighbourhood is known static its pages are plain-HTTP fetches; the pool
 * still starts no task while it finds the CPU or memory overloaded, so pages that must be rendered are throttled.
 */
export const ADAPTIVE_POOL_OPTIONS = {
    desiredConcurrency: 10,
    snapshotterOptions: { eventLoopSnapshotIntervalSecs: 2, maxBlockedMillis: 100 },
    systemStatusOptions: { maxEventLoopOverloadedRatio: 0.7 },
} as const;

/** One call for the common case: a Crawlee crawler of the chosen kind with the focused frontier and page hook. */
export async function createFocusedCrawler(options: CreateFocusedCrawlerOptions): Promise<FocusedCrawler> {
    const mode = options.mode ?? 'browser';
    if (!['browser', 'http', 'adaptive'].includes(mode)) {
        throw new TypeError(`Unknown mode "${mode}": use "browser" (Playwright), "http" (Cheerio) or "adaptive".`);
    }
    const config =
        options.configuration ??
        new Configuration({
            ...(options.storageDir ? { storageClientOptions: { localDataDirectory: options.storageDir } } : {}),
            persistStateIntervalMillis: options.persistStateIntervalMillis ?? 60_000,
        });
    const userAgent = options.userAgent ?? CRAWLEE_FOCUS_USER_AGENT;
    const proxyConfiguration = options.proxyConfiguration ?? (options.proxyUrls?.length ? new ProxyConfiguration({ proxyUrls: options.proxyUrls }) : undefined);
    const textProxyUrl = options.proxyConfiguration ? await options.proxyConfiguration.newUrl() : options.proxyUrls?.[0];
    const fetchText = options.fetchText ?? createTextFetcher({ userAgent, proxyUrl: textProxyUrl, ignoreHttpsErrors: options.ignoreHttpsErrors });
    const focus = await FocusedCrawl.open({ ...options, userAgent, fetchText, config, identity: mode });
    const common = {
        ...(crawlerAcceptsRequestManager() ? { requestManager: focus.manager } : { requestQueue: focus.requestQueue }),
        requestHandler: focus.handler(options.requestHandler),
        errorHandler: focus.errorHandler(),
        failedRequestHandler: focus.failedRequestHandler(),
        postNavigationHooks: [focus.retryAfterHook()],
        maxRequestRetries: options.maxRequestRetries ?? 2,
        navigationTimeoutSecs: options.navigationTimeoutSecs ?? 30,
        requestHandlerTimeoutSecs: options.requestHandlerTimeoutSecs ?? 60,
        ...(options.maxConcurrency ? { maxConcurrency: options.maxConcurrency } : {}),
        ...(options.minConcurrency ? { minConcurrency: options.minConcurrency } : {}),
        ...(proxyConfiguration ? { proxyConfiguration } : {}),
    };
    // Counts the page's in-scope data requests, so the page hook reads the lists scripts build from them.
    const settleHook = async (context: object, gotoOptions?: { waitUntil?: string }) => {
        const page = browserPageOf(context as CrawlingContext);
        if (!page) return;
        trackDataRequests(page, (url) => focus.manager.isInScope(url));
        await trackDomChanges(page);
        // The page hook waits for a quiet DOM itself; 'load' would add a wait for every image.
        if (gotoOptions) gotoOptions.waitUntil = 'domcontentloaded';
    };
    const headless = options.browser?.headless ?? true;
    const browserArgs = [
        ...CHROMIUM_ARGS,
        ...(options.ignoreHttpsErrors ? ['--ignore-certificate-errors'] : []),
        ...(options.blockMedia === false ? [] : mediaBlockingArgs(headless)),
        ...(options.browser?.args ?? []), // last: a flag of the user's wins
    ];
    const browserOptions = {
        launchContext: {
            launchOptions: {
                executablePath: chromiumExecutable(options.browser?.executablePath),
                args: browserArgs,
                headless,
            },
            userAgent,
        },
        browserPoolOptions: { useFingerprints: false },
        preNavigationHooks: [focus.scopeGuardHook(), settleHook],
    };
    const passThrough = options.crawlerOptions ?? {};
    let crawler: BasicCrawler;
    if (mode === 'http') {
        const httpHooks = [
            focus.scopeGuardHook(),
            async (_context: unknown, gotOptions?: { headers?: Record<string, string> }) => {
                if (gotOptions) gotOptions.headers = { ...gotOptions.headers, 'user-agent': userAgent };
            },
        ];
        crawler = new CheerioCrawler(
            {
                ...common,
                preNavigationHooks: httpHooks,
                ...(options.ignoreHttpsErrors ? { ignoreSslErrors: true } : {}),
                // Documents arrive as a body like a page and are converted (src/crawlee/documents.ts); one announced
                // larger than the limit fails before its body is read.
                ...(focus.documents.enabled
                    ? { additionalMimeTypes: [...DOCUMENT_MIME_TYPES], postNavigationHooks: [...common.postNavigationHooks, focus.documents.sizeGuardHook()] }
                    : {}),
                ...passThrough,
            } as never,
            config,
        ) as unknown as BasicCrawler;
    } else if (mode === 'browser') {
        crawler = new PlaywrightCrawler({ ...common, ...browserOptions, ...passThrough } as never, config) as unknown as BasicCrawler;
    } else {
        const adaptive = new ProxiedAdaptivePlaywrightCrawler(
            {
                ...common,
                // The browser runs must count data requests too, or a list built from a slow fetch is read unbuilt and
                // the detection finds it "static" (acl2020: recall 0.00); the settle hook skips the plain-HTTP runs.
                // The scope guard covers both: Chromium's through the Fetch domain, plain HTTP's through got hooks
                // (`httpGuard` below).
                ...browserOptions,
                ...(options.ignoreHttpsErrors ? { httpClient: new InsecureHttpClient() } : {}),
                // Static or not is judged on the links and text the focused crawl reads, not on dataset items, and an
                // app shell fetched over plain HTTP is rendered in the browser (see src/crawlee/rendering.ts).
                resultComparator: focus.renderings.comparator(),
                // Renders what its neighbourhood has not shown to be static (src/crawlee/rendering-predictor.ts).
                renderingTypePredictor: focus.renderings.predictor,
                resultChecker: focus.renderings.checker(),
                shouldPropagateError: focus.unreachableHostCheck(),
                ...passThrough,
                autoscaledPoolOptions: {
                    ...ADAPTIVE_POOL_OPTIONS,
                    desiredConcurrency: Math.max(ADAPTIVE_POOL_OPTIONS.desiredConcurrency, options.minConcurrency ?? 1),
                    ...(passThrough.autoscaledPoolOptions as object | undefined),
                },
            } as never,
            config,
        );
        adaptive.userAgent = userAgent;
        adaptive.httpGuard = {
            hooks: (request) => focus.httpGuardHooks(request),
            sendAt: (context) => (focus.renderings.wasRenderedInThisHandling(context) ? focus.manager.reserveHostTurn(context.request) : 0),
            checkResponse: (request, response) => {
                const retryAfter = response.headers['retry-after'];
                focus.backOffOnRetryAfter(request, response.statusCode, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
            },
        };
        crawler = adaptive as unknown as BasicCrawler;
    }
    return {
        crawler,
        focus,
        mode,
        run: () => focus.run(crawler),
        stop: (message = 'crawlee-focus: stopped') => {
            focus.manager.stop();
            (crawler as unknown as { stop?: (message?: string) => void }).stop?.(message);
        },
    };
}
