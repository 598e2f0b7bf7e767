import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { Dataset, LogLevel, log } from 'crawlee';

import { createFocusedCrawler } from '../crawlee/index.js';
import type { CrawlMode, CreateFocusedCrawlerOptions, FocusProgress, FocusedCrawler } from '../crawlee/index.js';
import { formatRecall, formatReport, reportHtml } from '../report/index.js';
import type { FocusReport } from '../report/index.js';
import { startDemoSite, demoLabels } from './demo-site.js';

const USAGE = `crawlee-focus: focused crawling for Crawlee

Usage:
  crawlee-focus crawl <url...> [--query <text>] [options]
  crawlee-focus demo [--mode adaptive|browser|http] [--max-pages N] [--json]
  crawlee-focus serve-demo [--port N]   serve the bundled demo site on 127.0.0.1 until stopped (Ctrl-C)
  crawlee-focus status --redis <url> --crawl-id <name> [--json]   a shared crawl's progress; its report once done
  crawlee-focus --help | --version

Options of crawl (and demo):
  --query <text>          topic to focus on; without it, a trap-aware breadth-first crawl
  --max-pages <N>         pages to fetch at most (default 100)
  --mode <m>              adaptive (plain HTTP where it gives the page, Chromium where scripts build it;
                          default), browser (Playwright + Chromium for every page), http (Cheerio, no JavaScript)
  --stop <s>              adaptive (stop when crawling stops paying off, default) or never
  --proxy <url>           send requests through this proxy
  --ignore-https-errors   accept invalid TLS certificates
  --ignore-robots         do not read robots.txt (nor the sitemaps it names); by default it is obeyed
  --no-documents          do not read PDF, Office, OpenDocument, CSV or text files (by default they are
                          converted to Markdown, scored and delivered like pages)
  --max-document-mb <N>   largest document read, in MiB (default 20)
  --concurrency <N>       pages in parallel at most
  --min-concurrency <N>   pages in parallel at least, even while Crawlee's autoscaling finds the machine
                          busy (default 1)
  --per-host <N>          requests in flight per host at most (default 4)
  --delay <ms>            minimum delay between requests to one host (default 0)
  --storage <dir>         Crawlee storage folder (default ./storage); a killed crawl resumes from it
  --fresh                 start afresh even if the storage holds a crawl to resume
  --stall-timeout <s>     seconds with requests pending and nothing moving before stuck requests are
                          handed out again; as long again and the crawl stops as stalled (exit code 3)
  --chromium <path>       browser executable (default /usr/bin/chromium when installed)
  --report-html <file>    also write the report page (REPORT.html: chart, stop, traps, top pages) to <file>
  --redis <url>           share the crawl with other workers through this Redis (redis://host:6379);
                          needs --crawl-id. Start every worker with the same command (each with its own
                          --storage); they share the frontier, the page budget and the stop
  --crawl-id <name>       names the shared crawl (letters, digits, -_.:); needs --redis
  --json                  print the report as JSON on the last line of stdout
  --verbose               show Crawlee's own log

Output: relevant pages as Markdown in the default dataset (<storage>/datasets/default),
the report as FOCUS_REPORT and as a page, REPORT.html, in the default key-value store.`;

/** Thrown for arguments the CLI cannot use; exits with code 2 and the usage. */
class UsageError extends Error {}

const OPTIONS = {
    query: { type: 'string' },
    'max-pages': { type: 'string' },
    mode: { type: 'string' },
    stop: { type: 'string' },
    proxy: { type: 'string' },
    'ignore-https-errors': { type: 'boolean' },
    'ignore-robots': { type: 'boolean' },
    'no-documents': { type: 'boolean' },
    'max-document-mb': { type: 'string' },
    concurrency: { type: 'string' },
    'min-concurrency': { type: 'string' },
    'per-host': { type: 'string' },
    delay: { type: 'string' },
    storage: { type: 'string' },
    fresh: { type: 'boolean' },
    'stall-timeout': { type: 'string' },
    chromium: { type: 'string' },
    'report-html': { type: 'string' },
    port: { type: 'string' },
    redis: { type: 'string' },
    'crawl-id': { type: 'string' },
    json: { type: 'boolean' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
} as const;

/** Runs the command line; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
    let parsed;
    try {
        parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
        return usageError((error as Error).message);
    }
    const { values, positionals } = parsed;
    if (values.version) {
        console.log(packageVersion());
        return 0;
    }
    const [command, ...rest] = positionals;
    if (values.help || !command) {
        console.log(USAGE);
        return values.help ? 0 : 2;
    }
    try {
        if (command === 'crawl') return await crawlCommand(rest, values);
        if (command === 'demo') return await demoCommand(rest, values);
        if (command === 'serve-demo') return await serveDemoCommand(rest, values);
        if (command === 'status') return await statusCommand(rest, values);
        throw new UsageError(`unknown command "${command}"`);
    } catch (error) {
        if (error instanceof UsageError) return usageError(error.message);
        throw error;
    }
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

async function crawlCommand(urls: string[], values: Values): Promise<number> {
    if (urls.length === 0) throw new UsageError('crawl needs at least one start URL');
    for (const url of urls) {
        let parsed: URL;
        try {
            parsed = new URL(url);
        } catch {
            throw new UsageError(`"${url}" is not an absolute URL (e.g. https://example.com/)`);
        }
        if (!/^https?:$/.test(parsed.protocol)) throw new UsageError(`"${url}" is not an http(s) URL`);
    }
    const { report } = await runCrawl(crawlOptions(urls, values), values);
    return exitCodeOf(report);
}

async function demoCommand(rest: string[], values: Values): Promise<number> {
    if (rest.length > 0) throw new UsageError(`demo takes no URLs (got ${rest.join(' ')})`);
    const site = await startDemoSite();
    try {
        const labels = demoLabels();
        const query = values.query ?? labels.query;
        if (!values.json) console.error(`Demo site on ${site.url}; focused crawl for "${query}".`);
        const options = crawlOptions([site.url], { ...values, query });
        const { focused, report } = await runCrawl({ maxPages: 40, ...options }, values);
        if (!values.json && query === labels.query) {
            const found = await deliveredAmong(labels.relevant, focused);
            console.error(`Ground truth: ${found} of ${labels.relevant.length} relevant demo pages delivered.`);
        }
        return exitCodeOf(report);
    } finally {
        await site.close();
    }
}

/** Serves the demo site until SIGINT or SIGTERM: a site to try the Actor (or any crawler) on, offline. */
async function serveDemoCommand(rest: string[], values: Values): Promise<number> {
    if (rest.length > 0) throw new UsageError(`serve-demo takes no URLs (got ${rest.join(' ')})`);
    const port = values.port === undefined ? 0 : positiveInteger('--port', values.port, 0);
    const site = await startDemoSite({ port });
    console.log(`Demo site on ${site.url} (query: "${demoLabels().query}"); Ctrl-C stops it.`);
    await new Promise<void>((resolveStop) => {
        process.once('SIGINT', resolveStop);
        process.once('SIGTERM', resolveStop);
    });
    await site.close();
    return 0;
}

/** `--redis` and `--crawl-id` come together, or not at all. */
function sharedCrawl(values: Values): { url: string; crawlId: string } | null {
    const url = values.redis;
    const crawlId = values['crawl-id'];
    if (url === undefined && crawlId === undefined) return null;
    if (url === undefined || crawlId === undefined) {
        throw new UsageError('--redis and --crawl-id go together: give both (e.g. --redis redis://127.0.0.1:6379 --crawl-id docs-2026), or neither for a crawl in one process');
    }
    if (!/^rediss?:\/\//.test(url)) throw new UsageError(`--redis must be a redis:// URL (got "${url}")`);
    if (!/^[\w.:-]+$/.test(crawlId)) throw new UsageError(`--crawl-id may hold letters, digits and -_.: only (got "${crawlId}")`);
    return { url, crawlId };
}

/** Prints the progress of a shared crawl, read from Redis: what every worker sees. */
async function statusCommand(rest: string[], values: Values): Promise<number> {
    if (rest.length > 0) throw new UsageError(`status takes no URLs (got ${rest.join(' ')})`);
    const shared = sharedCrawl(values);
    if (!shared) throw new UsageError('status needs --redis <url> and --crawl-id <name>');
    const { RedisFrontierStore } = await import('../redis/index.js');
    const store = await RedisFrontierStore.attach({ redis: shared.url, crawlId: shared.crawlId });
    try {
        const [status, identity, report] = await Promise.all([store.status(), store.identity(), store.publishedReport() as Promise<FocusReport | null>]);
        if (values.json) {
            console.log(JSON.stringify({ crawlId: shared.crawlId, identity, ...status, budget: Number.isFinite(status.budget) ? status.budget : null, report }));
            return 0;
        }
        const budget = Number.isFinite(status.budget) ? String(status.budget) : '∞';
        const lines = [
            `crawl "${shared.crawlId}"${identity ? `: ${identity.query ? `"${identity.query}"` : 'breadth-first'}, mode ${identity.mode}, ${identity.seeds.length} seed(s)` : ''}`,
            `pages charged ${status.charged}/${budget}   done ${status.done}   failed ${status.failed}`,
            `queued ${status.queued} (fresh ${status.fresh}, requeued ${status.requeued})   leased ${status.leased}`,
            `reclaimed ${status.reclaimed}   retried ${status.retried}   stale ${status.stale}   duplicates ${status.duplicates}   evicted ${status.evicted}`,
            `stop reason: ${status.stopReason ?? '—'}   ${status.isFinished ? `finished (${status.finishReason})` : 'running'}`,
        ];
        // Once a worker has finished, the whole crawl's report (the one every worker wrote as FOCUS_REPORT).
        if (report) lines.push('', formatReport(report));
        console.log(lines.join('\n'));
        return 0;
    } finally {
        await store.close();
    }
}

/**
 * The command line's (and the Actor's) mode when none is given: adaptive renders only the pages whose neighbourhood
 * needs scripts, so a static site crawls at plain-HTTP speed (5.5× browser mode, same recall) and a script-built one
 * as in browser mode (issue 11). The library keeps `browser`: the crawler it returns is typed by its mode.
 */
export const DEFAULT_CLI_MODE: CrawlMode = 'adaptive';

function crawlOptions(urls: string[], values: Values): CreateFocusedCrawlerOptions {
    const mode = (values.mode ?? DEFAULT_CLI_MODE) as CrawlMode;
    if (!['browser', 'http', 'adaptive'].includes(mode)) throw new UsageError(`--mode must be browser, http or adaptive (got "${values.mode}")`);
    const stop = values.stop ?? 'adaptive';
    if (stop !== 'adaptive' && stop !== 'never') throw new UsageError(`--stop must be adaptive or never (got "${values.stop}")`);
    const shared = sharedCrawl(values);
    const minConcurrency = values['min-concurrency'] === undefined ? undefined : positiveInteger('--min-concurrency', values['min-concurrency']);
    if (minConcurrency !== undefined && values.concurrency !== undefined && minConcurrency > positiveInteger('--concurrency', values.concurrency)) {
        throw new UsageError(`--min-concurrency (${minConcurrency}) may not exceed --concurrency (${values.concurrency})`);
    }
    return {
        startUrls: urls,
        query: values.query ?? null,
        mode,
        stop,
        ...(values['max-pages'] !== undefined ? { maxPages: positiveInteger('--max-pages', values['max-pages']) } : {}),
        ...(values.concurrency !== undefined ? { maxConcurrency: positiveInteger('--concurrency', values.concurrency) } : {}),
        ...(minConcurrency !== undefined ? { minConcurrency } : {}),
        ...(values['per-host'] !== undefined ? { maxRequestsPerHost: positiveInteger('--per-host', values['per-host']) } : {}),
        ...(values.delay !== undefined ? { minDelayPerHostMillis: positiveInteger('--delay', values.delay, 0) } : {}),
        ...(values.proxy ? { proxyUrls: [values.proxy] } : {}),
        ...(values['ignore-https-errors'] ? { ignoreHttpsErrors: true } : {}),
        ...(values['ignore-robots'] ? { respectRobotsTxt: false } : {}),
        ...(values['no-documents'] ? { documents: false } : {}),
        ...(values['max-document-mb'] !== undefined ? { maxDocumentBytes: positiveInteger('--max-document-mb', values['max-document-mb']) * 1024 * 1024 } : {}),
        ...(values.storage ? { storageDir: values.storage } : {}),
        ...(values['stall-timeout'] !== undefined ? { stallTimeoutSecs: positiveInteger('--stall-timeout', values['stall-timeout']) } : {}),
        ...(values.chromium ? { browser: { executablePath: values.chromium } } : {}),
        resume: values.fresh ? false : 'auto',
        ...(shared ? { redis: shared } : {}),
    };
}

async function runCrawl(options: CreateFocusedCrawlerOptions, values: Values): Promise<{ report: FocusReport; focused: FocusedCrawler }> {
    const reportFile = values['report-html'];
    if (reportFile && !existsSync(dirname(resolve(reportFile)))) throw new UsageError(`--report-html: the folder of "${reportFile}" does not exist`);
    log.setLevel(values.verbose ? LogLevel.INFO : LogLevel.WARNING);
    const progress = progressPrinter(Boolean(values.json));
    const focused = await createFocusedCrawler({ ...options, onProgress: progress.update });
    if (focused.focus.resumed && !values.json) console.error('Resuming the crawl found in storage.');
    const report = await focused.run();
    progress.done();
    if (reportFile) {
        writeFileSync(reportFile, reportHtml(report));
        if (!values.json) console.error(`Report page written to ${reportFile}.`);
    }
    if (values.json) console.log(JSON.stringify(report));
    else console.log(formatReport(report));
    return { report, focused };
}

/** A live progress line on stderr: one updating line on a terminal, a line every 10 pages otherwise. */
function progressPrinter(quiet: boolean) {
    const tty = process.stderr.isTTY;
    let last = 0;
    return {
        update(p: FocusProgress) {
            if (quiet) return;
            const recall = p.estimatedRecall ? `  est. recall ${formatRecall(p.estimatedRecall)}` : '';
            const line = `pages ${p.pagesFetched}/${Number.isFinite(p.maxPages) ? p.maxPages : '∞'}  relevant ${p.relevantPages}  harvest ${(p.harvestRate * 100).toFixed(0)} %  queue ${p.queueSize}${recall}`;
            if (tty) process.stderr.write(`\r${line}\x1b[K`);
            else if (p.pagesFetched - last >= 10) {
                last = p.pagesFetched;
                process.stderr.write(`${line}\n`);
            }
        },
        done() {
            if (!quiet && tty) process.stderr.write('\n');
        },
    };
}

/** How many of the labelled paths were delivered to the dataset (`/a/` and `/a/index.html` are one page). */
async function deliveredAmong(relevantPaths: string[], focused: FocusedCrawler): Promise<number> {
    const dataset = await Dataset.open(undefined, { config: focused.focus.config });
    const { items } = await dataset.getData();
    const canonical = (path: string) => path.replace(/index\.html$/, '');
    const delivered = new Set(items.map((item) => canonical(new URL(String(item.url)).pathname)));
    return relevantPaths.filter((path) => delivered.has(canonical(path))).length;
}

/** 3 when the crawl stalled (it can be resumed), else 0: scripts can tell a finished crawl from a stuck one. */
function exitCodeOf(report: FocusReport): number {
    if (report.stopReason !== 'stalled') return 0;
    console.error('crawlee-focus: the crawl stalled (requests pending, nothing moving); run the same command again to resume it.');
    return 3;
}

function positiveInteger(flag: string, raw: string, min = 1): number {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new UsageError(`${flag} must be a whole number ≥ ${min} (got "${raw}")`);
    return value;
}

function usageError(message: string): number {
    console.error(`crawlee-focus: ${message}\nRun "crawlee-focus --help" for usage.`);
    return 2;
}

function packageVersion(): string {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    return pkg.version;
}

// Run directly (tsx src/cli/main.ts …) as well as through bin/crawlee-focus.js.
if (import.meta.url === `file://${process.argv[1]}`) {
    main(process.argv.slice(2)).then(
        (code) => process.exit(code),
        (error) => {
            console.error(`crawlee-focus: ${error instanceof Error ? error.message : String(error)}`);
            process.exit(1);
        },
    );
}
