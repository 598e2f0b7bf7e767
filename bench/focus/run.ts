// `npm run bench:focus [-- options]`: crawlee-focus against Crawlee's breadth-first crawlers and a URL-keyword
// best-first crawler on the shared corpora, scored from the corpus server's request log. See bench/results/README.md.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { chartFor } from './charts.js';
import { COST_PAGES, COST_ROUNDS, formatCost, measureCost } from './cost.js';
import type { CostResult } from './cost.js';
import { CRAWLERS, crawlerInfo } from './crawlers.js';
import type { CrawlerKind } from './crawlers.js';
import { REPO_ROOT, RESULTS_DIR, loadLabels } from './paths.js';
import { BUDGETS, planRuns, selectLabels, sourceHash } from './plan.js';
import type { PlanFilters } from './plan.js';
import { calibrationTable, formatRow, fullTable, resultRows, summaryTable } from './report.js';
import type { ResultRow } from './report.js';
import { cachedOutcome, executeRun, runDir, scoreRun } from './runner.js';
import {
    RECALL_TOLERANCE,
    SCALING_BUDGET,
    SCALING_CONCURRENCY,
    SCALING_LATENCY_MILLIS,
    SCALING_PER_HOST,
    SCALING_QUERY,
    SCALING_SITE,
    loadAverage,
    recallTable,
    redisTable,
    runScaling,
    scalingChecks,
    throughputTable as scalingThroughputTable,
} from './scaling.js';
import { THROUGHPUT_MODES, THROUGHPUT_SITES, throughputRow, throughputTable } from './throughput.js';
import type { ThroughputRow } from './throughput.js';
import type { ScoredRun } from './runner.js';

const USAGE = `npm run bench:focus [-- options]

  --quick              one query per site at 50 pages, crawlee-focus and the URL-keyword baseline only
  --site <a,b>         sites (or label ids) to keep, substring match
  --query <a,b>        queries (or label ids) to keep, substring match
  --crawler <a,b>      ${CRAWLERS.map((c) => c.kind).join(', ')}
  --budgets <50,100>   page budgets (default ${BUDGETS.join(',')})
  --focus-mode <m>     crawlee-focus on browser (default), http or adaptive; non-browser runs are cached apart
  --repeat <n>         crawl each crawlee-focus run n times (its order varies with timing); tables show the mean
                       and the range, charts the first crawl (default 1)
  --fresh              crawl again even when a run is cached (and draw the cost list anew)
  --report-only        crawl nothing: tabulate the cached runs (missing ones are listed)
  --src <hash>         use crawlee-focus runs cached for this src/ hash instead of the current one
  --no-cost            skip the cost-ratio measurement
  --cost-only          only the cost-ratio measurement
  --cost-rounds <n>    rounds of the cost measurement, each one crawl per variant (default ${COST_ROUNDS}); the ratio is
                       given over all rounds and as the median of the rounds' own ratios
  --throughput         crawlee-focus (stop: never) in browser, adaptive and http mode on one query each of
                       ${THROUGHPUT_SITES.join(' and ')} (or --site/--query), at 100 pages (or --budgets): pages/s and recall;
                       with --repeat n, n crawls per mode taking turns, and their means
  --workers <1,2,4>    scaling: one crawl (http mode, stop: never) shared by N CLI worker processes through a private
                       redis-server, for each N, and the same crawl in one process without Redis; on ${SCALING_SITE},
                       ${SCALING_QUERY} (or --site/--query) at ${SCALING_BUDGET} pages (or --budgets): pages/s, Redis commands
                       per page, recall against the single process (must be within ${RECALL_TOLERANCE})
  --latency-ms <ms>    scaling: delay added to every response (default ${SCALING_LATENCY_MILLIS})
  --per-host <n>       scaling: requests in flight to the site's host, crawl-wide (default ${SCALING_PER_HOST})
  --concurrency <n>    scaling: pages in flight in each worker, fixed (default ${SCALING_CONCURRENCY})
  --monitor            scaling: count Redis round trips exactly with MONITOR (Redis then spends several times the CPU)
Runs are cached per run id in bench/results/runs/<id> (crawlee-focus runs per version of src/).`;

/** The crawlers of `--quick`: the one under test and the strongest cheap baseline. */
const QUICK_CRAWLERS: CrawlerKind[] = ['focus', 'keyword'];
const QUICK_BUDGET = 50;

function focusModeOf(value: string | undefined): PlanFilters['focusMode'] {
    if (value === undefined) return undefined;
    if (value !== 'browser' && value !== 'http' && value !== 'adaptive') throw new Error(`--focus-mode takes browser, http or adaptive (got "${value}").`);
    return value;
}

function list(value: string | undefined): string[] | undefined {
    return value?.split(',').map((s) => s.trim()).filter(Boolean);
}

function parse(argv: string[]) {
    const { values } = parseArgs({
        args: argv,
        options: {
            quick: { type: 'boolean' },
            site: { type: 'string' },
            query: { type: 'string' },
            crawler: { type: 'string' },
            budgets: { type: 'string' },
            repeat: { type: 'string' },
            'focus-mode': { type: 'string' },
            fresh: { type: 'boolean' },
            'report-only': { type: 'boolean' },
            src: { type: 'string' },
            'no-cost': { type: 'boolean' },
            'cost-only': { type: 'boolean' },
            'cost-rounds': { type: 'string' },
            throughput: { type: 'boolean' },
            workers: { type: 'string' },
            'latency-ms': { type: 'string' },
            'per-host': { type: 'string' },
            concurrency: { type: 'string' },
            monitor: { type: 'boolean' },
            help: { type: 'boolean', short: 'h' },
        },
        strict: true,
    });
    const crawlers = list(values.crawler)?.map((kind) => crawlerInfo(kind as CrawlerKind).kind);
    const budgets = list(values.budgets)?.map((b) => positiveInteger('--budgets', b));
    const repeats = values.repeat === undefined ? undefined : Number(values.repeat);
    if (repeats !== undefined && !(Number.isInteger(repeats) && repeats >= 1)) throw new Error(`--repeat takes a positive integer (got "${values.repeat}").`);
    const workers = list(values.workers)?.map((w) => positiveInteger('--workers', w));
    const latencyMillis = values['latency-ms'] === undefined ? SCALING_LATENCY_MILLIS : positiveInteger('--latency-ms', values['latency-ms'], 0);
    const perHost = values['per-host'] === undefined ? SCALING_PER_HOST : positiveInteger('--per-host', values['per-host']);
    const concurrency = values.concurrency === undefined ? SCALING_CONCURRENCY : positiveInteger('--concurrency', values.concurrency);
    const quick = Boolean(values.quick);
    const filters: PlanFilters = {
        sites: list(values.site),
        queries: list(values.query),
        crawlers: crawlers ?? (quick ? QUICK_CRAWLERS : undefined),
        budgets: budgets ?? (quick ? [QUICK_BUDGET] : undefined),
        onePerSite: quick,
        repeats,
        focusMode: focusModeOf(values['focus-mode']),
    };
    const filtered = quick || Boolean(values.site || values.query || values.crawler || values.budgets || values['focus-mode']);
    return {
        help: Boolean(values.help),
        quick,
        filters,
        filtered,
        fresh: Boolean(values.fresh),
        reportOnly: Boolean(values['report-only']),
        src: values.src,
        cost: !quick && !values['no-cost'] && !values['report-only'],
        costOnly: Boolean(values['cost-only']),
        costRounds: values['cost-rounds'] === undefined ? COST_ROUNDS : positiveInteger('--cost-rounds', values['cost-rounds']),
        throughput: Boolean(values.throughput),
        scaling: workers ? { workers, latencyMillis, perHost, concurrency, monitor: Boolean(values.monitor) } : null,
    };
}

function positiveInteger(flag: string, raw: string, min = 1): number {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`${flag} takes whole numbers ≥ ${min} (got "${raw}").`);
    return n;
}

function progressLine(budget: number, started: number): (pages: number) => void {
    let shown = 0;
    return (pages) => {
        if (pages - shown < 10 && pages < budget) return;
        shown = pages;
        process.stdout.write(`    … ${pages}/${budget} pages handled, ${Math.round((Date.now() - started) / 1000)} s\n`);
    };
}

async function main(): Promise<void> {
    const args = parse(process.argv.slice(2));
    if (args.help) {
        console.log(USAGE);
        return;
    }
    const benchStarted = Date.now();
    const labels = loadLabels();
    const src = args.src ?? sourceHash();
    if (args.scaling) {
        await runScalingBench(labels, args.filters, src, args.scaling);
        console.log(`Wrote bench/results/scaling.md and scaling.json in ${Math.round((Date.now() - benchStarted) / 1000)} s.`);
        return;
    }
    if (args.throughput) {
        await runThroughput(labels, args.filters, src, args.fresh);
        console.log(`Wrote bench/results/throughput.md and throughput.json in ${Math.round((Date.now() - benchStarted) / 1000)} s.`);
        return;
    }
    const budgets = [...(args.filters.budgets ?? BUDGETS)].sort((a, b) => a - b);
    const runs = args.costOnly ? [] : planRuns(labels, args.filters, src);
    const selected = selectLabels(labels, args.filters);
    const leftOut = CRAWLERS.filter((c) => !(args.filters.crawlers ?? CRAWLERS.map((x) => x.kind)).includes(c.kind)).map((c) => c.label);
    console.log(`crawlee-focus bench: ${selected.length} (site, query) pairs, budgets ${budgets.join('/')}, ${runs.length} crawls, src ${src}`);
    if (args.quick) {
        console.log(`Quick mode: ${selected.map((l) => l.id).join(', ')} at ${QUICK_BUDGET} pages. Left out: ${leftOut.join(', ')}, budgets 100 and 200, the other queries, the cost ratio.`);
        console.log('The URL-keyword baseline does not depend on src/, so after its first run it comes from the cache.');
    }

    const scored: ScoredRun[] = [];
    const missing: string[] = [];
    for (const [i, run] of runs.entries()) {
        const info = crawlerInfo(run.crawler);
        const head = `[${i + 1}/${runs.length}] ${info.label} on ${run.label.id} at ${run.budget}${run.repeat > 1 ? `, crawl ${run.repeat}` : ''}`;
        if (args.reportOnly && !cachedOutcome(run.id)) {
            missing.push(run.id);
            continue;
        }
        const started = Date.now();
        if (!cachedOutcome(run.id) || args.fresh) console.log(`${head}: crawling`);
        const finished = await executeRun(run, { fresh: args.fresh, onProgress: progressLine(run.budget, started) });
        if (finished.outcome.error) {
            console.log(`${head}: FAILED — ${finished.outcome.error.split('\n')[0]} (see bench/results/runs/${run.id})`);
            missing.push(run.id);
            continue;
        }
        console.log(`${head}: ${finished.cached ? 'cached' : `done in ${Math.round((Date.now() - started) / 1000)} s`}`);
        for (const label of run.scoredFor) {
            const one = await scoreRun(finished, label, budgets);
            scored.push(one);
            for (const row of resultRows(one, budgets)) console.log(`    ${label.id}: ${formatRow(row)}`);
        }
    }

    let cost: CostResult | null = null;
    if (args.cost || args.costOnly) cost = await runCost(scored, selected, src, args.fresh, args.costRounds);
    else if (!args.quick && !args.filtered) cost = previousCost();

    const rows = scored.flatMap((one) => resultRows(one, budgets));
    const name = args.quick ? 'quick' : args.filtered ? 'selection' : 'results';
    writeResults(name, rows, scored, budgets, src, cost, missing, args.quick ? leftOut : []);
    console.log(`\n${summaryTable(rows, budgets)}\n`);
    console.log(`${calibrationTable(rows)}\n`);
    if (cost) console.log(formatCost(cost));
    if (missing.length > 0) console.log(`Not in the table (not cached or failed): ${missing.join(', ')}`);
    console.log(`Wrote bench/results/${name}.md and ${name}.json in ${Math.round((Date.now() - benchStarted) / 1000)} s.`);
}

/** `--throughput`: the same queries in each mode, crawled with `stop: 'never'` so every mode spends the budget. */
async function runThroughput(labels: ReturnType<typeof loadLabels>, filters: PlanFilters, src: string, fresh: boolean): Promise<void> {
    const chosen: PlanFilters = { ...filters, sites: filters.sites ?? THROUGHPUT_SITES, onePerSite: true, crawlers: ['focus-never'], budgets: filters.budgets ?? [100] };
    const rows: ThroughputRow[] = [];
    for (const label of selectLabels(labels, chosen)) {
        // With --repeat, the modes take turns crawl by crawl, so a machine whose load drifts slows each mode alike.
        const byMode = THROUGHPUT_MODES.map((focusMode) => planRuns([label], { ...chosen, focusMode }, src));
        const turns = Math.max(...byMode.map((runs) => runs.length));
        for (let turn = 0; turn < turns; turn++) {
            for (const [m, focusMode] of THROUGHPUT_MODES.entries()) {
                const run = byMode[m]![turn];
                if (!run) continue;
                const started = Date.now();
                console.log(`throughput: ${label.id} in ${focusMode} mode at ${run.budget}${run.repeat > 1 ? `, crawl ${run.repeat}` : ''}: ${cachedOutcome(run.id) && !fresh ? 'cached' : 'crawling'}`);
                const finished = await executeRun(run, { fresh, onProgress: progressLine(run.budget, started) });
                if (finished.outcome.error) {
                    console.log(`    FAILED — ${finished.outcome.error.split('\n')[0]} (see bench/results/runs/${run.id})`);
                    continue;
                }
                rows.push(throughputRow(await scoreRun(finished, label, [run.budget]), run.budget));
            }
        }
    }
    const table = throughputTable(rows);
    console.log(`\n${table}\n`);
    writeFileSync(path.join(RESULTS_DIR, 'throughput.json'), `${JSON.stringify({ generatedAt: new Date().toISOString(), src, rows }, null, 1)}\n`);
    const repeats = filters.repeats ?? 1;
    const crawls = repeats > 1 ? `${repeats} crawls per cell, the modes taking turns (means, and each crawl's recall)` : 'one crawl per cell';
    const notes = [
        `Generated by \`npm run bench:focus -- --throughput${repeats > 1 ? ` --repeat ${repeats}` : ''}\` (src/ content hash ${src}), ${crawls}, \`stop: 'never'\`, one process per crawl.`,
        'Wall time runs from the crawler\'s start (browser launch included) to its end; pages are the HTML pages the corpus server logged.',
    ];
    writeFileSync(path.join(RESULTS_DIR, 'throughput.md'), ['# crawlee-focus bench: throughput by mode', '', ...notes.map((n) => `- ${n}`), '', table, ''].join('\n'));
}

/** `--workers`: one query, crawled by one process without Redis and by each number of workers through Redis. */
async function runScalingBench(
    labels: ReturnType<typeof loadLabels>,
    filters: PlanFilters,
    src: string,
    options: { workers: number[]; latencyMillis: number; perHost: number; concurrency: number; monitor: boolean },
): Promise<void> {
    const [label] = selectLabels(labels, { ...filters, sites: filters.sites ?? [SCALING_SITE], queries: filters.queries ?? [SCALING_QUERY], onePerSite: true });
    if (!label) throw new Error('--workers: no label matches --site/--query.');
    const budget = filters.budgets?.[0] ?? SCALING_BUDGET;
    const loadBefore = loadAverage();
    console.log(
        `scaling: ${label.id} at ${budget} pages, ${options.latencyMillis} ms added to every response, workers ${options.workers.join('/')}, ` +
            `${options.concurrency} pages in flight per worker, per-host limit ${options.perHost}, src ${src}, load average ${loadBefore}`,
    );
    console.log(
        `scaling: why the latency: without it a page costs only CPU, and on 2 cores one process is CPU-bound already, so more workers would only compete for the same cores; with it most of a page is waiting, which workers overlap, as on the web.`,
    );
    const { rows, startupCpuSeconds } = await runScaling({ label, budget, ...options });
    const loadAfter = loadAverage();
    const speed = scalingThroughputTable(rows, startupCpuSeconds);
    const recall = recallTable(rows, budget);
    const redis = redisTable(rows);
    const problems = scalingChecks(rows, budget);
    const checks = problems.length
        ? problems.map((p) => `- NOT MET: ${p}`)
        : [`- Met: every crawl fetched at most ${budget} distinct URLs, every shared crawl's recall is within ${RECALL_TOLERANCE} of one process's, every worker exited 0 and all workers of a crawl gave one stop reason, no page was delivered twice.`];
    console.log(`\n${speed}\n\n${recall}\n\n${redis}\n\n${checks.join('\n')}\n`);
    const command = process.argv.slice(2).length ? `npm run bench:focus -- ${process.argv.slice(2).join(' ')}` : 'npm run bench:focus';
    writeFileSync(
        path.join(RESULTS_DIR, 'scaling.json'),
        `${JSON.stringify({ generatedAt: new Date().toISOString(), src, command, label: label.id, budget, ...options, loadAverage: { before: loadBefore, after: loadAfter }, startupCpuSeconds, rows }, null, 1)}\n`,
    );
    const notes = [
        `Generated ${new Date().toISOString()} by \`${command}\` (src/ content hash ${src}) on ${label.id} ("${label.query}", ${label.relevant.length} relevant pages), budget ${budget}, http mode, \`--stop never\`, one crawl per row.`,
        `Load average (1, 5, 15 min) on this 2-core machine: ${loadBefore} before the bench, ${loadAfter} after.`,
        `Every response comes ${options.latencyMillis} ms late: a front on 127.0.0.1 delays each request before it goes on to the corpus server (CONNECT tunnels end in the front's own TLS server, so https pages wait too). Without it a page costs only CPU (parsing, scoring, the crawl's bookkeeping): on 2 cores one process is already CPU-bound, and more workers would only compete for the same cores. With it most of a page is waiting, which workers can overlap, as on the web.`,
        `Each worker is the CLI (\`crawl … --mode http --stop never --ignore-robots --concurrency ${options.concurrency} --min-concurrency ${options.concurrency} --per-host ${options.perHost} --redis URL --crawl-id NAME\`, its own \`--storage\`), all started at once; one worker goes through Redis too. The reference is the same command without \`--redis\`. So N workers have N × ${options.concurrency} pages in flight; a second reference, one process with as many pages in flight as the most workers, tells what sharing costs from what the extra concurrency costs (column \"as many in flight\"). The concurrency is fixed because Crawlee's autoscaling starts a CheerioCrawler at 10 and falls to 1 while it finds the machine's CPU busy, which on a shared 2-core machine depends on whatever else runs. The site is one host, so \`--per-host\` is raised from its default of 4, which would cap every crawl at 4 pages in flight crawl-wide.`,
        `Pages (URLs) are the distinct URLs the corpus server was asked for, on any host: the budget spent. Links to openehr.org subdomains that the capture lacks are answered 502, and Crawlee tries each 3 times, so requests exceed pages. Pages/s are these URLs per second. Wall time runs from the workers' start to the last exit; crawl time from the first request the corpus server logged to the last, without the processes' start-up. "Latency allows" is pages in flight / latency. Worker CPU is the workers' user + system time; per request after start-up it is less the start-up of one CLI process (\`--version\`: ${startupCpuSeconds.toFixed(1)} CPU s) per worker. Machine busy is all cores over the run, other work included.`,
        'Pages (score.mjs) are the distinct pages of the label\'s hosts in the corpus server\'s log as score.mjs counts them (HTML and documents, 404s included); its repeats are requests for a page it had counted already (a retry, another spelling of the URL, a page fetched twice). Recall is score.mjs\'s from that log, as in every table of this bench.',
        `Redis commands: the sum of \`calls\` over \`INFO commandstats\` as a delta over the crawl, the commands run inside the Lua scripts included, divided by pages (URLs). Round trips: the commands the workers sent, one round trip each as nothing is pipelined. ${options.monitor ? 'Counted exactly with MONITOR (its lines not from a script); Redis CPU then includes feeding the MONITOR (several times its CPU without it).' : 'Counted from commandstats as the calls of commands no script runs (EVALSHA, EVAL, INFO, QUIT, CLIENT …); marked (+) because the few plain GET/SET a worker sends when it joins are not told apart from the scripts\' (\`--monitor\` counts them exactly).'} Redis CPU is its used_cpu_user + used_cpu_sys.`,
        'Delivered: the items of the workers\' datasets together (each worker writes its own), and the distinct URLs among them.',
    ];
    const md = [
        '# crawlee-focus bench: scaling out with Redis',
        '',
        ...notes.map((n) => `- ${n}`),
        '',
        '## Pages per second',
        '',
        speed,
        '',
        '## Recall at the budget, against one process',
        '',
        recall,
        '',
        '## Redis',
        '',
        redis,
        '',
        '## Checks',
        '',
        ...checks,
        '',
    ];
    writeFileSync(path.join(RESULTS_DIR, 'scaling.md'), md.join('\n'));
    if (problems.length) process.exitCode = 1;
}

/** The cost ratio of an earlier full run, kept when this one skips it (`--no-cost`, `--report-only`). */
function previousCost(): CostResult | null {
    const file = path.join(RESULTS_DIR, 'cost.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CostResult) : null;
}

/**
 * The list the cost bench crawls, kept in the repository so that its ratio compares across sessions: drawn anew from
 * each code's own crawl, the list moved the ratio by more than the bar's margin (1.35× and 1.20× for one code).
 */
const PINNED_COST_LIST = path.join(REPO_ROOT, 'bench', 'focus', 'cost-list.json');

interface PinnedCostList {
    labelId: string;
    /** The run whose first pages these are. */
    drawnFrom: string;
    urls: string[];
}

function pinnedCostList(labelId: string): PinnedCostList | null {
    if (!existsSync(PINNED_COST_LIST)) return null;
    const pinned = JSON.parse(readFileSync(PINNED_COST_LIST, 'utf8')) as PinnedCostList;
    return pinned.labelId === labelId && pinned.urls.length === COST_PAGES ? pinned : null;
}

/**
 * The cost ratio on the first selected label, on the pinned list (`bench/focus/cost-list.json`) when it is that
 * label's. Otherwise, or with `--fresh`, on the first pages of one of the label's crawlee-focus runs (the adaptive
 * stop may end a run before {@link COST_PAGES}; then a `stop: 'never'` run supplies them, crawled if not cached),
 * which then become the pinned list.
 */
async function runCost(scored: ScoredRun[], selected: ReturnType<typeof loadLabels>, src: string, fresh: boolean, rounds: number): Promise<CostResult> {
    const label = selected[0];
    if (!label) throw new Error('The cost ratio needs a label: widen --site/--query.');
    const pinned = fresh ? null : pinnedCostList(label.id);
    if (pinned) {
        console.log(`Cost ratio on ${label.id} (${rounds} rounds of 3 crawls of the pinned list, bench/focus/cost-list.json: the first ${COST_PAGES} pages of ${pinned.drawnFrom}):`);
        return saveCost(await measureCost(label, pinned.urls, (line) => console.log(line), rounds));
    }
    const long = (one: ScoredRun) => one.label.id === label.id && one.finished.run.crawler.startsWith('focus') && one.score.pageUrls.length >= COST_PAGES;
    let source = scored.find(long);
    for (const run of planRuns([label], { crawlers: ['focus-never'], budgets: [100, 200] }, src)) {
        if (source) break;
        const outcome = cachedOutcome(run.id);
        if (outcome) source = await scoreRun({ run, outcome, logFile: path.join(runDir(run.id), 'requests.jsonl'), cached: true }, label, [run.budget]);
        if (source && !long(source)) source = undefined;
    }
    if (!source) {
        const [run] = planRuns([label], { crawlers: ['focus-never'], budgets: [100] }, src);
        source = await scoreRun(await executeRun(run!, { fresh }), label, [100]);
    }
    const urls = source.score.pageUrls.slice(0, COST_PAGES);
    writeFileSync(PINNED_COST_LIST, `${JSON.stringify({ labelId: label.id, drawnFrom: source.finished.run.id, urls } satisfies PinnedCostList, null, 1)}\n`);
    console.log(`Cost ratio on ${label.id} (${rounds} rounds of 3 crawls of the first ${COST_PAGES} pages of ${source.finished.run.id}, now pinned in bench/focus/cost-list.json):`);
    return saveCost(await measureCost(label, urls, (line) => console.log(line), rounds));
}

function saveCost(cost: CostResult): CostResult {
    writeFileSync(path.join(RESULTS_DIR, 'cost.json'), `${JSON.stringify(cost, null, 1)}\n`);
    return cost;
}

function writeResults(
    name: string,
    rows: ResultRow[],
    scored: ScoredRun[],
    budgets: number[],
    src: string,
    cost: CostResult | null,
    missing: string[],
    leftOut: string[],
): void {
    // The full bench owns charts/; a quick or filtered run draws its own, beside them.
    const chartDir = name === 'results' ? 'charts' : `charts/${name}`;
    mkdirSync(path.join(RESULTS_DIR, chartDir), { recursive: true });
    const charts: string[] = [];
    for (const labelId of new Set(scored.map((one) => one.label.id))) {
        const file = `${chartDir}/${labelId}.svg`;
        writeFileSync(path.join(RESULTS_DIR, file), chartFor(scored.filter((one) => one.label.id === labelId && one.finished.run.repeat === 1), budgets));
        charts.push(file);
    }
    const json = {
        generatedAt: new Date().toISOString(),
        src,
        budgets,
        rows,
        curves: scored.map((one) => ({ runId: one.finished.run.id, labelId: one.label.id, crawler: one.finished.run.crawler, budget: one.finished.run.budget, recall: one.score.recallCurve })),
        cost,
        missing,
    };
    writeFileSync(path.join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(json, null, 1)}\n`);
    const notes = [
        `Generated ${json.generatedAt} by \`npm run bench:focus\` (src/ content hash ${src}).`,
        'Pages are counted from the corpus server\'s log by `../shared/corpora/score.mjs` (HTML pages and other documents, 404s included, subresources and redirects excluded), not from the crawlers\' reports.',
        'Budget and wall time marked * are read from the prefix of one 200-page run: the order of breadth-first and URL-keyword crawls does not depend on the budget. Their wall time is the time until the k-th page was requested. crawlee-focus is crawled once per budget.',
        'PlaywrightCrawler and CheerioCrawler crawl the same pages whatever the query: one crawl per site is scored for every query of the site.',
        ...(leftOut.length ? [`Left out in this mode: ${leftOut.join(', ')}.`] : []),
        ...(missing.length ? [`Missing runs: ${missing.join(', ')}.`] : []),
    ];
    const md = [
        `# crawlee-focus bench: ${name}`,
        '',
        ...notes.map((n) => `- ${n}`),
        '',
        '## Recall',
        '',
        summaryTable(rows, budgets),
        '',
        '## Estimated recall: calibration',
        '',
        calibrationTable(rows),
        '',
        '## Every figure',
        '',
        fullTable(rows),
        '',
        ...(charts.length ? ['## Charts', '', ...charts.map((file) => `- [${path.basename(file, '.svg')}](${file})`), ''] : []),
        ...(cost ? ['## Cost', '', '```', formatCost(cost), '```', ''] : []),
    ];
    writeFileSync(path.join(RESULTS_DIR, `${name}.md`), md.join('\n'));
}

main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
});
