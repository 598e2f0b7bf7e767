import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Dataset, LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createFocusedCrawler } from '../../src/index.js';
import type { FocusReport } from '../../src/index.js';
import { startSite } from '../helpers/site-server.js';
import { TELESCOPE_MODELS as MODELS, TELESCOPE_TOPICS as TOPICS, flatTelescopeSite, telescopeSite } from '../helpers/telescope-site.js';
import type { TestSite } from '../helpers/site-server.js';

log.setLevel(LogLevel.ERROR);

interface AdaptiveRun {
    report: FocusReport;
    delivered: string[];
    /** AdaptivePlaywrightCrawler's counts of handler runs. */
    httpRuns: number;
    browserRuns: number;
    /** The pages the user's handler ran for, one entry per run. */
    userHandlerRuns: string[];
}

/** AdaptivePlaywrightCrawler's counts of handler runs so far: plain HTTP and browser. */
function handlerRuns(crawler: unknown): { http: number; browser: number } {
    const { state } = (crawler as { stats: { state: { httpOnlyRequestHandlerRuns?: number; browserRequestHandlerRuns?: number } } }).stats;
    return { http: state.httpOnlyRequestHandlerRuns ?? 0, browser: state.browserRequestHandlerRuns ?? 0 };
}

async function crawlAdaptive(site: TestSite, crawlerOptions: Record<string, unknown> = {}): Promise<AdaptiveRun> {
    site.requests.length = 0;
    const userHandlerRuns: string[] = [];
    const focused = await createFocusedCrawler({
        mode: 'adaptive',
        startUrls: [`${site.url}/`],
        query: 'telescope',
        maxPages: 30,
        maxConcurrency: 2,
        stop: 'never',
        storageDir: mkdtempSync(join(tmpdir(), 'cf-adaptive-')),
        crawlerOptions,
        requestHandler: ({ request }) => void userHandlerRuns.push(new URL(request.loadedUrl ?? request.url).pathname),
    });
    const report = await focused.run();
    const { items } = await (await Dataset.open(undefined, { config: focused.focus.config })).getData();
    const runs = handlerRuns(focused.crawler);
    return {
        report,
        delivered: items.map((item) => new URL(String(item.url)).pathname),
        httpRuns: runs.http,
        browserRuns: runs.browser,
        userHandlerRuns,
    };
}

const ALL_PAGES = ['/', '/app', ...TOPICS.map((t) => `/guide/${t}`), ...MODELS.map((x) => `/app/model-${x}`)];

describe('adaptive mode (AdaptivePlaywrightCrawler)', () => {
    let site: TestSite;
    beforeAll(async () => {
        site = await startSite(telescopeSite());
    });
    afterAll(async () => site.close());

    it('counts a page once when Crawlee runs the handler in the browser and again over HTTP to learn how it renders', async () => {
        // Detection on every page: each is fetched by the browser and then once more over plain HTTP.
        const run = await crawlAdaptive(site, { renderingTypeDetectionRatio: 1 });
        const pageRequests = site.requests.filter((path) => ALL_PAGES.includes(path));
        expect(pageRequests.length).toBeGreaterThan(ALL_PAGES.length); // the detection runs fetched pages twice
        expect(run.report.pagesFetched).toBe(ALL_PAGES.length);
        expect(run.report.pagesProcessed).toBe(ALL_PAGES.length);
        expect(run.report.relevantPages).toBe(ALL_PAGES.length);
        expect([...run.delivered].sort()).toEqual([...ALL_PAGES].sort()); // each page delivered exactly once
        // and the user's handler ran once per page: not again in the plain-HTTP rerun, whose results Crawlee drops
        expect([...run.userHandlerRuns].sort()).toEqual([...ALL_PAGES].sort());
    }, 120_000);

    it('fetches static pages over plain HTTP and renders the app shell whose links need JavaScript', async () => {
        const run = await crawlAdaptive(site);
        expect(run.httpRuns).toBeGreaterThan(0);
        expect(run.browserRuns).toBeGreaterThan(0);
        for (const x of MODELS) expect(run.delivered).toContain(`/app/model-${x}`);
        expect(run.report.pagesProcessed).toBe(run.report.pagesFetched);
        expect(new Set(run.delivered).size).toBe(run.delivered.length);
        expect(run.delivered.length).toBe(run.report.relevantPages);
    }, 120_000);
});

describe('adaptive mode on a flat site whose list is built by a script', () => {
    let site: TestSite;
    beforeAll(async () => {
        site = await startSite(flatTelescopeSite());
    });
    afterAll(async () => site.close());

    it('renders the thin list page although its neighbourhood looked static, and still fetches static pages over HTTP', async () => {
        // Without the thin-page check the catalogue was fetched over HTTP in two crawls of three (checked with p = 1/3
        // or less once the home page was static): its model links were never seen.
        const run = await crawlAdaptive(site);
        for (const x of MODELS) expect(run.delivered).toContain(`/model-${x}.html`);
        expect(run.httpRuns).toBeGreaterThan(0);
        expect(run.report.pagesProcessed).toBe(run.report.pagesFetched);
        expect(new Set(run.delivered).size).toBe(run.delivered.length);
    }, 120_000);
});

describe('adaptive mode autoscaling', () => {
    const poolOf = async (options: { minConcurrency?: number; crawlerOptions?: Record<string, unknown> } = {}) => {
        const focused = await createFocusedCrawler({
            mode: 'adaptive',
            startUrls: ['http://127.0.0.1:9/'],
            query: 'telescope',
            maxPages: 5,
            storageDir: mkdtempSync(join(tmpdir(), 'cf-adaptive-pool-')),
            ...options,
        });
        return (focused.crawler as unknown as { autoscaledPoolOptions: Record<string, unknown> }).autoscaledPoolOptions;
    };

    it("starts at an HTTP crawler's concurrency, not a browser crawler's one page in flight", async () => {
        const pool = await poolOf();
        expect(pool.desiredConcurrency).toBe(10);
        expect(pool.snapshotterOptions).toMatchObject({ maxBlockedMillis: 100 });
    });

    it("keeps the user's minConcurrency and autoscaledPoolOptions", async () => {
        expect((await poolOf({ minConcurrency: 12 })).desiredConcurrency).toBe(12);
        expect((await poolOf({ crawlerOptions: { autoscaledPoolOptions: { desiredConcurrency: 3 } } })).desiredConcurrency).toBe(3);
    });
});

describe('adaptive mode when the site stops answering mid-crawl', () => {
    it('fails a plain-HTTP attempt that cannot reach the host at once, with no browser attempt that cannot reach it either', async () => {
        const site = await startSite(flatTelescopeSite());
        let handled = 0;
        let atOutage = { http: 0, browser: 0 };
        const focused = await createFocusedCrawler({
            mode: 'adaptive',
            startUrls: [`${site.url}/`],
            query: 'telescope',
            maxPages: 30,
            maxConcurrency: 1,
            maxRequestRetries: 1,
            stop: 'never',
            respectRobotsTxt: false,
            storageDir: mkdtempSync(join(tmpdir(), 'cf-adaptive-outage-')),
            // Every page predicted static and never checked: each attempt is a plain-HTTP run first.
            crawlerOptions: {
                renderingTypePredictor: {
                    initialize: async () => undefined,
                    predict: () => ({ renderingType: 'static', detectionProbabilityRecommendation: 0 }),
                    storeResult: () => undefined,
                },
            },
            requestHandler: async () => {
                if (++handled !== 10) return;
                atOutage = handlerRuns(focused.crawler);
                await site.close();
            },
        });
        const report = await focused.run();
        const httpAfter = handlerRuns(focused.crawler).http - atOutage.http;
        const browserAfter = handlerRuns(focused.crawler).browser - atOutage.browser;
        // The site went away after 10 pages: its other pages failed as a host does, each attempt over plain HTTP only.
        expect(report.failures['host-unreachable']).toBeGreaterThan(0);
        expect(httpAfter).toBeGreaterThan(0);
        expect(browserAfter).toBe(0);
    }, 120_000);
});
