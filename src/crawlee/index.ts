export { FocusedRequestManager } from './request-manager.js';
export type {
    FetchedEntry,
    FocusedRequestManagerOptions,
    FocusedRequestManagerState,
    FrontierEntry,
    FrontierSkipReason,
    LinkCandidate,
    OfferedLinks,
    ParentPage,
    StallState,
} from './request-manager.js';
export { SharedRequestManager } from './shared-request-manager.js';
export type { SharedRequestManagerOptions } from './shared-request-manager.js';
export { StallWatchdog } from './watchdog.js';
export type { Stallable, StallWatchdogOptions, WatchdogVerdict } from './watchdog.js';
export { FocusedCrawl, pageFocus, REPORT_HTML_KEY, retryAfterMillis, STATE_FORMAT } from './focused-crawl.js';
export type { DeliveryCandidate, DeliveryDecision, DeliveryGate, FocusProgress, FocusedCrawlOptions, PageFocus, RunnableCrawler, SharedCrawlOptions } from './focused-crawl.js';
export { createFocusedCrawler, crawlerAcceptsRequestManager } from './create-focused-crawler.js';
export type { BrowserOptions, CrawlMode, CreateFocusedCrawlerOptions, FocusedCrawler } from './create-focused-crawler.js';
export { CHROMIUM_ARGS, DEBIAN_CHROMIUM, DEBIAN_CHROMIUM_BINARY, chromiumExecutable, settleRenderedPage } from './browser.js';
export { StateStore } from './state-store.js';
export {
    CRAWLEE_FOCUS_USER_AGENT,
    MAX_CRAWL_DELAY_SECONDS,
    MAX_SITEMAP_FILES_PER_HOST,
    RobotsCache,
    createTextFetcher,
} from './robots-cache.js';
export type { FetchedText, RobotsCacheOptions, TextFetcher, TextFetcherOptions } from './robots-cache.js';
export { localDatasetDirectory, repairTornDatasetItems } from './dataset-repair.js';
export { InsecureHttpClient, ProxiedAdaptivePlaywrightCrawler } from './adaptive-crawler.js';
export { PAGE_PHASES, PhaseClock } from './timings.js';
export type { PagePhase, PageTimings } from './timings.js';
export { MIN_DETECTION, TemplateRenderingPredictor, successionDetection } from './rendering-predictor.js';
export type { RenderingPrediction, RenderingType } from './rendering-predictor.js';
