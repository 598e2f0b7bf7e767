/**
 * AdaptivePlaywrightCrawler support. To learn whether a kind of page needs a browser, Crawlee sometimes runs the
 * request handler twice for one request: in the browser (committed) and then over plain HTTP (discarded), and
 * compares the two results. The focused crawl changes its own state in the handler, outside those results, so
 * the second run must only read, and the comparison must look at what a focused crawl needs from a page: its links
 * and its text, not the dataset items (an irrelevant page pushes none, however differently it renders).
 */
import type { CrawlingContext } from 'crawlee';
import type { Page } from 'playwright';

import type { PageData } from '../extract/index.js';
import { TemplateRenderingPredictor } from './rendering-predictor.js';

/**
 * Share of the browser's links and text a plain HTTP fetch must also have for the page kind to count as static
 * ([I]: a script that adds one link in ten is tolerated; a JavaScript-built list is not).
 */
export const STATIC_RENDERING_SHARE = 0.9;

/**
 * A page fetched over plain HTTP that has scripts but fewer words and links than this is taken for a client-side
 * app shell and rendered in the browser instead ([I]: a real page without JavaScript says more than that).
 */
export const SHELL_MAX_PROSE_WORDS = 50;
export const SHELL_MAX_LINKS = 5;

/** What the comparison needs from one rendering of a page. */
export interface RenderingSummary {
    links: ReadonlySet<string>;
    textLength: number;
    /** A plain-HTTP page that looks like an empty app shell: never static, and never scored. */
    shell: boolean;
}

/** One handler run of a request: which crawling context, and whether it had a browser page. */
interface HandledRun {
    contextId: string;
    rendered: boolean;
}

/**
 * The Playwright page of a crawling context, or undefined. AdaptivePlaywrightCrawler's plain-HTTP context has a
 * `page` getter that throws, so it is read inside a try.
 */
export function browserPageOf(context: CrawlingContext): Page | undefined {
    try {
        return (context as unknown as { page?: Page }).page ?? undefined;
    } catch {
        return undefined;
    }
}

/** True for AdaptivePlaywrightCrawler's plain-HTTP runs: their context has a `page` that throws when read. */
export function isAdaptivePlainHttpRun(context: CrawlingContext): boolean {
    return 'page' in context && browserPageOf(context) === undefined;
}

/** Scripts, and next to no words or links without them: the page is built in the browser. */
export function looksClientRendered(html: string, page: PageData): boolean {
    return page.proseWords < SHELL_MAX_PROSE_WORDS && page.links.length < SHELL_MAX_LINKS && /<script\b/i.test(html);
}

/**
 * Scripts, and next to no content of the page's own outside the site's navigation: what a plain-HTTP fetch of a
 * script-built list looks like (acl2020's `papers.html`: 31 words and 3 links of its own over HTTP, 907 paper links
 * rendered). A short static page looks the same (a tenth of stanford-cs), so a thin page is rendered and the two
 * renderings decide for its neighbourhood (`TemplateRenderingPredictor.shouldRenderThin`): a wrong "static" loses the
 * list's links for good, a check costs one render.
 */
export function looksThin(html: string, page: PageData): boolean {
    if (page.proseWords >= SHELL_MAX_PROSE_WORDS || !/<script\b/i.test(html)) return false;
    let ownLinks = 0;
    for (const link of page.links) if (link.inMainContent) ownLinks += 1;
    return ownLinks < SHELL_MAX_LINKS;
}

export function summarizeRendering(page: PageData, shell = false): RenderingSummary {
    return { links: new Set(page.links.map((link) => link.url)), textLength: page.text.length, shell };
}

/** `equal` when plain HTTP has at least {@link STATIC_RENDERING_SHARE} of the browser's links and text. */
export function compareRenderings(http: RenderingSummary, browser: RenderingSummary): 'equal' | 'different' {
    if (http.shell) return 'different';
    let shared = 0;
    for (const url of browser.links) if (http.links.has(url)) shared += 1;
    const linksKept = browser.links.size === 0 || shared >= STATIC_RENDERING_SHARE * browser.links.size;
    const textKept = http.textLength >= STATIC_RENDERING_SHARE * browser.textLength;
    return linksKept && textKept ? 'equal' : 'different';
}

/**
 * Remembers each request's handled run and each run's summary. A run is told apart by its `pushData` function:
 * AdaptivePlaywrightCrawler gives every run a result object of its own, whose `pushData` the context carries and
 * the comparator receives back.
 */
export class RenderingLedger {
    private readonly handled = new WeakMap<object, HandledRun>();
    private readonly summaries = new WeakMap<object, RenderingSummary>();
    /** Summaries are kept only once a comparator or checker was handed out: other crawlers never compare. */
    private comparing = false;
    /** A shell may be refused only when Crawlee asks {@link checker}, which then sends it to the browser. */
    private checking = false;
    /** Request → the summary of its refused plain-HTTP run, compared with the browser run that follows. */
    private readonly refused = new WeakMap<object, RenderingSummary>();
    /** Pages scored from a browser rendering and from plain HTTP, by this process. */
    readonly scored = { browser: 0, http: 0 };

    /**
     * True for the plain-HTTP re-run that checks a page already handled in the browser in this same handling (same
     * context id). A retry gets a new context, and a plain-HTTP run that failed left no record, so the browser run
     * after it is a real one.
     */
    isDetectionRerun(context: CrawlingContext): boolean {
        return this.wasRenderedInThisHandling(context) && browserPageOf(context) === undefined;
    }

    /**
     * True when the request was handled in the browser in this same handling (same context id): a plain-HTTP run that
     * follows is Crawlee's comparison. (AdaptivePlaywrightCrawler's own context, which starts that run, has a page.)
     */
    wasRenderedInThisHandling(context: CrawlingContext): boolean {
        const earlier = this.handled.get(context.request);
        return earlier !== undefined && earlier.contextId === context.id && earlier.rendered;
    }

    /** Records that `context`'s run changed the crawl state. */
    markHandled(context: CrawlingContext): void {
        const rendered = browserPageOf(context) !== undefined;
        this.handled.set(context.request, { contextId: context.id, rendered });
        this.scored[rendered ? 'browser' : 'http'] += 1;
    }

    /** @param predictor AdaptivePlaywrightCrawler's `renderingTypePredictor`; taught here what each refused page was. */
    constructor(readonly predictor = new TemplateRenderingPredictor()) {}

    /** Keeps `page`'s summary for the comparator; only runs of AdaptivePlaywrightCrawler are ever compared. */
    record(context: CrawlingContext, page: PageData, shell = false): void {
        if (!this.comparing) return;
        const pushData = (context as unknown as { pushData?: unknown }).pushData;
        if (typeof pushData === 'function') this.summaries.set(pushData, summarizeRendering(page, shell));
        const refusedHttp = shell ? undefined : this.refused.get(context.request);
        if (refusedHttp && browserPageOf(context) !== undefined) {
            // Crawlee renders a refused page without comparing the two runs (a detection); compare them here, so the
            // page's template is learned either way.
            this.refused.delete(context.request);
            const type = compareRenderings(refusedHttp, summarizeRendering(page)) === 'equal' ? 'static' : 'clientOnly';
            if (refusedHttp.shell) this.predictor.storeResult(context.request, type);
            else this.predictor.storeThinResult(context.request, type);
        }
    }

    /**
     * True, and recorded, when `context` is a plain-HTTP run of AdaptivePlaywrightCrawler whose page must be
     * rendered instead: an app shell, or a thin page ({@link looksThin}) that the predictor wants checked (none of its
     * neighbourhood's thin pages compared yet, one of them script-built, or a succession-rule draw). The crawl must
     * not score it, and {@link checker} makes Crawlee render it in the browser.
     */
    refusesPlainHttp(context: CrawlingContext, html: string, page: PageData): boolean {
        if (!this.checking || !isAdaptivePlainHttpRun(context)) return false;
        const shell = looksClientRendered(html, page);
        const thin = !shell && looksThin(html, page);
        if (!shell && !(thin && this.predictor.shouldRenderThin(context.request))) {
            // (A detection's plain-HTTP rerun never comes here: Crawlee compares it and teaches the predictor.)
            if (!thin) this.predictor.noteServedInFull(context.request);
            return false;
        }
        // Kept for the comparison with the browser run that follows (a shell is never static).
        this.refused.set(context.request, summarizeRendering(page, shell));
        this.record(context, page, true);
        return true;
    }

    /** AdaptivePlaywrightCrawler's `resultChecker`: a plain-HTTP result is good unless its page was an app shell. */
    checker(): (result: { pushData: unknown }) => boolean {
        this.comparing = true;
        this.checking = true;
        return (result) => this.summaries.get(result.pushData as object)?.shell !== true;
    }

    /**
     * AdaptivePlaywrightCrawler's `resultComparator` (its arguments: the plain-HTTP result, then the browser's).
     * `inconclusive` when either run read no page (an error status, a binary body).
     */
    comparator(): (http: { pushData: unknown }, browser: { pushData: unknown }) => 'equal' | 'different' | 'inconclusive' {
        this.comparing = true;
        return (http, browser) => {
            const a = this.summaries.get(http.pushData as object);
            const b = this.summaries.get(browser.pushData as object);
            return a && b ? compareRenderings(a, b) : 'inconclusive';
        };
    }
}
