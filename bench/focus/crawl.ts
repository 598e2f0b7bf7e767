// One crawl in its own process: `tsx bench/focus/crawl.ts <spec.json>`. Writes the outcome to `spec.outcomeFile`.
import { readFileSync, writeFileSync } from 'node:fs';

import { CheerioCrawler, Configuration, LogLevel, PlaywrightCrawler, ProxyConfiguration, log } from 'crawlee';
import type { RequestProvider } from 'crawlee';

import { CHROMIUM_ARGS, chromiumExecutable } from '../../src/crawlee/browser.js';
import { createFocusedCrawler } from '../../src/crawlee/create-focused-crawler.js';
import type { FocusReport } from '../../src/report/index.js';
import type { CrawlerKind } from './crawlers.js';
import { UrlKeywordQueue } from './keyword-queue.js';
import { sourceHash } from './plan.js';

/** A crawl to run: either a crawler of the bench, or (cost mode) a fixed URL list without link following. */
export interface CrawlSpec {
    kind: CrawlerKind | 'focus-list' | 'playwright-list';
    startUrls: string[];
    query: string;
    /** Pages to fetch at most. */
    budget: number;
    proxyUrl: string;
    storageDir: string;
    outcomeFile: string;
    /** Cost mode: pages in flight at most, the same for both crawlers. @default Crawlee's autoscaling */
    maxConcurrency?: number;
    /** Cost mode: pages in flight at least (= `maxConcurrency` there: a fixed concurrency). @default 1 */
    minConcurrency?: number;
    /** crawlee-focus: the Crawlee crawler it runs on. @default 'browser' */
    focusMode?: 'browser' | 'http' | 'adaptive';
    /** crawlee-focus: how long the DOM must stay quiet before a page is read. @default the plugin's default (250) */
    domQuietMillis?: number;
}

export interface CrawlOutcome {
    kind: CrawlSpec['kind'];
    /** Epoch millis when the crawler was created (the browser starts inside the run). */
    startedAt: number;
    wallMillis: number;
    /** crawlee-focus's own report (for diagnosis; the bench scores from the server log). */
    report?: FocusReport;
    /** Pages the crawler's handler saw. */
    pagesHandled: number;
    /** Content hash of src/ when this crawl started (other work may change src/ during a long bench). */
    srcHash?: string;
    /** CPU seconds of this process and of its exited children (Chromium, once closed), from /proc (Linux). */
    cpuSeconds?: { node: number; children: number };
    error?: string;
}

/** CPU seconds from /proc/self/stat: utime + stime, and cutime + cstime of the children waited for. */
function cpuSeconds(): CrawlOutcome['cpuSeconds'] {
    try {
        const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
        const tick = 100; // USER_HZ on Linux
        const at = (i: number) => Number(fields[i - 3]);
        return { node: (at(14) + at(15)) / tick, children: (at(16) + at(17)) / tick };
    } catch {
        return undefined;
    }
}

/** Launch options shared by every browser crawl: Debian Chromium, offline flags, the corpus's self-signed certificate. */
function launchContext() {
    return {
        launchOptions: {
            executablePath: chromiumExecutable(),
            args: [...CHROMIUM_ARGS, '--ignore-certificate-errors'],
            headless: true,
        },
    };
}

function progress(pages: number): void {
    process.stdout.write(`progress ${pages}\n`);
}

async function runFocus(spec: CrawlSpec): Promise<Pick<CrawlOutcome, 'report' | 'pagesHandled'>> {
    const list = spec.kind === 'focus-list';
    let pagesHandled = 0;
    const focused = await createFocusedCrawler({
        mode: spec.focusMode ?? 'browser',
        query: spec.query,
        // A list crawl enters its URLs at the front of the frontier below; the first one alone defines the scope.
        startUrls: list ? spec.startUrls.slice(0, 1) : spec.startUrls,
        maxPages: spec.budget,
        stop: spec.kind === 'focus' ? 'adaptive' : 'never',
        proxyUrls: [spec.proxyUrl],
        ignoreHttpsErrors: true,
        storageDir: spec.storageDir,
        resume: false,
        // Like the baselines (Crawlee ignores robots.txt by default). Honouring it would also apply stanford-cs's
        // Crawl-delay of 10 s.
        respectRobotsTxt: false,
        ...(spec.maxConcurrency ? { maxConcurrency: spec.maxConcurrency } : {}),
        ...(spec.minConcurrency ? { minConcurrency: spec.minConcurrency } : {}),
        ...(spec.domQuietMillis !== undefined ? { domQuietMillis: spec.domQuietMillis } : {}),
        requestHandler: () => progress(++pagesHandled),
    });
    // Forefront entries outrank every discovered link, and with `maxPages` = the list's length the frontier has no
    // room for more, so the list is fetched in order and nothing else.
    if (list) await focused.crawler.addRequests(spec.startUrls, { forefront: true });
    const report = await focused.run();
    return { report, pagesHandled };
}

async function runPlain(spec: CrawlSpec): Promise<Pick<CrawlOutcome, 'pagesHandled'>> {
    const config = new Configuration({ storageClientOptions: { localDataDirectory: spec.storageDir } });
    const proxyConfiguration = new ProxyConfiguration({ proxyUrls: [spec.proxyUrl] });
    const follow = spec.kind !== 'playwright-list';
    let pagesHandled = 0;
    const requestHandler = async ({ enqueueLinks }: { enqueueLinks: () => Promise<unknown> }) => {
        progress(++pagesHandled);
        if (follow) await enqueueLinks();
    };
    const common = {
        proxyConfiguration,
        requestHandler,
        ...(spec.maxConcurrency ? { maxConcurrency: spec.maxConcurrency } : {}),
        ...(spec.minConcurrency ? { minConcurrency: spec.minConcurrency } : {}),
    };
    if (spec.kind === 'cheerio') {
        await new CheerioCrawler({ ...common, ignoreSslErrors: true, maxRequestsPerCrawl: spec.budget }, config).run(spec.startUrls);
    } else if (spec.kind === 'keyword') {
        const queue = new UrlKeywordQueue({ query: spec.query, maxPages: spec.budget });
        await new PlaywrightCrawler({ ...common, launchContext: launchContext(), requestQueue: queue as unknown as RequestProvider }, config).run(spec.startUrls);
    } else if (spec.kind === 'playwright-list') {
        // The same browser settings as crawlee-focus (no fingerprints), so the ratio measures the plugin alone.
        await new PlaywrightCrawler({ ...common, launchContext: launchContext(), browserPoolOptions: { useFingerprints: false } }, config).run(spec.startUrls);
    } else {
        await new PlaywrightCrawler({ ...common, launchContext: launchContext(), maxRequestsPerCrawl: spec.budget }, config).run(spec.startUrls);
    }
    return { pagesHandled };
}

async function main(specFile: string): Promise<void> {
    const spec = JSON.parse(readFileSync(specFile, 'utf8')) as CrawlSpec;
    log.setLevel(LogLevel.WARNING);
    const srcHash = sourceHash();
    const startedAt = Date.now();
    let outcome: CrawlOutcome;
    try {
        const result = spec.kind === 'focus' || spec.kind === 'focus-never' || spec.kind === 'focus-list' ? await runFocus(spec) : await runPlain(spec);
        outcome = { kind: spec.kind, startedAt, wallMillis: Date.now() - startedAt, srcHash, cpuSeconds: cpuSeconds(), ...result };
    } catch (error) {
        outcome = { kind: spec.kind, startedAt, wallMillis: Date.now() - startedAt, srcHash, pagesHandled: 0, error: String((error as Error)?.stack ?? error) };
    }
    writeFileSync(spec.outcomeFile, JSON.stringify(outcome, null, 2));
    process.exit(outcome.error ? 1 : 0);
}

const specFile = process.argv[2];
if (!specFile) {
    console.error('usage: tsx bench/focus/crawl.ts <spec.json>  (the bench runner writes the spec)');
    process.exit(2);
}
await main(specFile);
