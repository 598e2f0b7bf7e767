import { AdaptivePlaywrightCrawler, CheerioCrawler, Configuration, PlaywrightCrawler, ProxyConfiguration } from 'crawlee';
import type { BasicCrawler, CrawlingContext } from 'crawlee';

import { CHROMIUM_ARGS, chromiumExecutable } from './browser.js';
import { FocusedCrawl } from './focused-crawl.js';
import type { FocusedCrawlOptions } from './focused-crawl.js';
import type { FocusReport } from './report.js';

/** `browser` = PlaywrightCrawler, `http` = CheerioCrawler, `adaptive` = AdaptivePlaywrightCrawler. */
export type CrawlMode = 'browser' | 'http' | 'adaptive';

export interface BrowserOptions {
    /** Chromium to launch. @default `CRAWLEE_DEFAULT_BROWSER_PATH`, else /usr/bin/chromium when installed */
    executablePath?: string;
    /** Extra Chromium flags, after {@link CHROMIUM_ARGS}. @default [] */
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
    /** Accept invalid TLS certificates (self-signed test servers, intercepting proxies). @default false */
    ignoreHttpsErrors?: boolean;
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
}

/** One call for the common case: a Crawlee crawler of the chosen kind with the focused frontier and page hook. */
export async function createFocusedCrawler(options: CreateFocusedCrawlerOptions): Promise<FocusedCrawler> {
    const mode = options.mode ?? 'browser';
    if (!['browser', 'http', 'adaptive'].includes(mode)) {
        throw new TypeError(`Unknown mode "${mode}": use "browser" (Playwright), "http" (Cheerio) or "adaptive".`);
    }
    const config = new Configuration({
        ...(options.storageDir ? { storageClientOptions: { localDataDirectory: options.storageDir } } : {}),
        persistStateIntervalMillis: options.persistStateIntervalMillis ?? 60_000,
    });
    const focus = await FocusedCrawl.open({ ...options, config, identity: mode });
    const common = {
        requestQueue: focus.requestQueue,
        requestHandler: focus.handler(options.requestHandler),
        failedRequestHandler: focus.failedRequestHandler(),
        postNavigationHooks: [focus.retryAfterHook()],
        maxRequestRetries: options.maxRequestRetries ?? 2,
        navigationTimeoutSecs: options.navigationTimeoutSecs ?? 30,
        requestHandlerTimeoutSecs: options.requestHandlerTimeoutSecs ?? 60,
        ...(options.maxConcurrency ? { maxConcurrency: options.maxConcurrency } : {}),
        ...(options.minConcurrency ? { minConcurrency: options.minConcurrency } : {}),
        ...(options.proxyUrls?.length ? { proxyConfiguration: new ProxyConfiguration({ proxyUrls: options.proxyUrls }) } : {}),
    };
    const browserArgs = [...CHROMIUM_ARGS, ...(options.ignoreHttpsErrors ? ['--ignore-certificate-errors'] : []), ...(options.browser?.args ?? [])];
    const browserOptions = {
        launchContext: {
            launchOptions: {
                executablePath: chromiumExecutable(options.browser?.executablePath),
                args: browserArgs,
                headless: options.browser?.headless ?? true,
            },
        },
        browserPoolOptions: { useFingerprints: false },
        preNavigationHooks: [
            focus.scopeGuardHook(),
            async (_context: unknown, gotoOptions?: { waitUntil?: string }) => {
                // The page hook waits for a quiet DOM itself; 'load' would add a wait for every image.
                if (gotoOptions) gotoOptions.waitUntil = 'domcontentloaded';
            },
        ],
    };
    const passThrough = options.crawlerOptions ?? {};
    let crawler: BasicCrawler;
    if (mode === 'http') {
        crawler = new CheerioCrawler(
            { ...common, ...(options.ignoreHttpsErrors ? { ignoreSslErrors: true } : {}), ...passThrough } as never,
            config,
        ) as unknown as BasicCrawler;
    } else if (mode === 'browser') {
        crawler = new PlaywrightCrawler({ ...common, ...browserOptions, ...passThrough } as never, config) as unknown as BasicCrawler;
    } else {
        const { preNavigationHooks: _browserOnlyHooks, ...adaptiveBrowserOptions } = browserOptions;
        crawler = new AdaptivePlaywrightCrawler(
            { ...common, ...adaptiveBrowserOptions, ...(options.ignoreHttpsErrors ? { ignoreSslErrors: true } : {}), ...passThrough } as never,
            config,
        ) as unknown as BasicCrawler;
    }
    return { crawler, focus, mode, run: () => focus.run(crawler) };
}
