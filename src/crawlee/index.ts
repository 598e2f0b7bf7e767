export { FocusedRequestManager } from './request-manager.js';
export type {
    FetchedEntry,
    FocusedRequestManagerOptions,
    FocusedRequestManagerState,
    FrontierEntry,
    FrontierSkipReason,
    LinkCandidate,
    ParentPage,
} from './request-manager.js';
export { FocusedCrawl, pageFocus, retryAfterMillis } from './focused-crawl.js';
export type { FocusProgress, FocusedCrawlOptions, PageFocus } from './focused-crawl.js';
export { createFocusedCrawler, crawlerAcceptsRequestManager } from './create-focused-crawler.js';
export type { BrowserOptions, CrawlMode, CreateFocusedCrawlerOptions, FocusedCrawler } from './create-focused-crawler.js';
export { CHROMIUM_ARGS, DEBIAN_CHROMIUM, chromiumExecutable, settleRenderedPage } from './browser.js';
export { buildReport, formatReport } from './report.js';
export type { FocusReport } from './report.js';
export { StateStore } from './state-store.js';
