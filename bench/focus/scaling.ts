// `--workers 1,2,4`: one crawl shared by N worker processes of the CLI through one Redis (issue 14), against the same
// crawl in one process without Redis. Every page is answered a fixed time late (a latency front before the corpus
// server), so the workers have network waits to overlap, as on the web. Prints pages/s against workers, the Redis
// commands (and round trips) per page, and recall at the budget against the single-process crawl.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';

import type { Redis } from 'ioredis';

import type { FocusReport } from '../../src/report/index.js';
import { commandStats, startRedis } from '../../test/helpers/redis-server.js';
import type { TestRedis } from '../../test/helpers/redis-server.js';
import { startCorpusServer } from './corpus-server.js';
import { startLatencyFront } from './latency-front.js';
import type { Label } from './paths.js';
import { REPO_ROOT, RUNS_DIR } from './paths.js';
import { scoreLog, scoreUrls } from './score.js';

/** One query of a static site with enough relevant pages, unless `--site`/`--query` choose another. */
export const SCALING_SITE = 'openehr';
export const SCALING_QUERY = 'industry-partners';
export const SCALING_BUDGET = 100;
export const SCALING_LATENCY_MILLIS = 200;
/**
 * Requests in flight per host, crawl-wide. The corpus site is one host, so the default (4) would cap every worker
 * count at 4 pages in flight; this leaves the cap to each worker's own concurrency.
 */
export const SCALING_PER_HOST = 32;
/**
 * Pages in flight in each worker (and in the single process), fixed: `--concurrency` and `--min-concurrency`. Crawlee's
 * autoscaling would start a CheerioCrawler at 10 and drop to 1 whenever it finds the machine's CPU busy, which on a
 * shared 2-core machine depends on whatever else runs.
 */
export const SCALING_CONCURRENCY = 2;
/** Recall of a shared crawl may differ from the single-process crawl's by this much (issue 14). */
export const RECALL_TOLERANCE = 0.05;

const CLI_SCRIPT = path.join(REPO_ROOT, 'src', 'cli', 'main.ts');
/** A worker still running after this long is killed (by its PID): the bench must end by itself. */
const WORKER_TIMEOUT_MILLIS = 5 * 60_000;

export interface ScalingOptions {
    label: Label;
    budget: number;
    workers: number[];
    latencyMillis: number;
    perHost: number;
    /** Pages in flight in each worker and in the single process ({@link SCALING_CONCURRENCY}). */
    concurrency: number;
    /** Count the round trips exactly with MONITOR (which makes Redis spend several times the CPU). @default false */
    monitor?: boolean;
    log?: (line: string) => void;
}

export interface ScalingRow {
    /** `single`: one process, no Redis; `redis`: N workers sharing one crawl. */
    setup: 'single' | 'redis';
    workers: number;
    /** Pages in flight at once, all workers together. */
    inFlight: number;
    /** Distinct URLs the corpus server was asked for, on any host: the budget spent (hosts missing from the capture answer 502). */
    urls: number;
    /** Every request the corpus server answered, retries included. */
    requests: number;
    /** Distinct pages of the label's hosts, as score.mjs counts them (HTML and documents, 404s included). */
    pages: number;
    /** score.mjs's repeats: requests for a page it had counted already (another spelling of the URL, a retry, a refetch). */
    repeats: number;
    /** From the workers' start to the last one's exit. */
    wallSeconds: number;
    /** {@link urls} per wall second. */
    pagesPerSecond: number;
    /** Until the corpus server saw the first request: process start, module load, Redis connect. */
    startupSeconds: number;
    /** From the first request to the last, as the corpus server logged them: without the processes' start-up. */
    crawlSeconds: number;
    crawlPagesPerSecond: number;
    /** What the latency alone allows: pages in flight / latency. */
    idealPagesPerSecond: number;
    /** CPU time of the worker processes (user + system), and the machine's CPU busy over the run (all cores, other work included). */
    workerCpuSeconds: number;
    machineBusy: number;
    recall: number;
    /** Recall minus the single-process crawl's. */
    recallDelta: number | null;
    /**
     * A shared crawl: recall minus that of one process with as many pages in flight as all its workers together, if
     * that reference was crawled; it tells what sharing costs from what the extra concurrency costs.
     */
    recallDeltaSameInFlight: number | null;
    /** Items in the workers' datasets together, the distinct URLs among them, and recall of those items (score.mjs on the URLs). */
    delivered: number;
    deliveredDistinct: number;
    deliveredRecall: number;
    stopReasons: string[];
    exitCodes: Array<number | null>;
    /** The whole crawl's counters, from the FOCUS_REPORT.sharedCrawl of the worker that saw the most pages done. */
    shared: FocusReport['sharedCrawl'] | null;
    redis: RedisFigures | null;
}

export interface RedisFigures {
    /** Sum of `calls` over INFO commandstats, as a delta over the crawl: script-internal commands included. */
    commands: number;
    commandsPerPage: number;
    /**
     * Commands the workers sent, one round trip each as nothing is pipelined: with `--monitor`, the MONITOR lines not
     * from a script; without, the calls of {@link CLIENT_ONLY} commands.
     */
    roundTrips: number;
    roundTripsPerPage: number;
    roundTripsExact: boolean;
    /** Redis's own CPU time (used_cpu_user + used_cpu_sys); with `--monitor`, feeding it included. */
    cpuSeconds: number;
    /** The commands with the most calls, with their calls per page. */
    top: Array<{ command: string; calls: number; perPage: number }>;
    /** The round trips by command. */
    sent: Array<{ command: string; calls: number; perPage: number }>;
}

export interface ScalingResult {
    rows: ScalingRow[];
    /** CPU time of one CLI process that only starts and prints its version (`--version`): each worker pays it. */
    startupCpuSeconds: number;
}

/** The reference crawl first, then each worker count through Redis. */
export async function runScaling(options: ScalingOptions): Promise<ScalingResult> {
    const log = options.log ?? ((line: string) => console.log(line));
    const startupCpuSeconds = (await runWorkers(1, () => ['--version'], mkRunDir('scaling--startup'))).cpuSeconds;
    log(`scaling: one CLI process takes ${startupCpuSeconds.toFixed(1)} CPU s to start (--version)`);
    const rows: ScalingRow[] = [];
    log(`scaling: single process, no Redis, on ${options.label.id} at ${options.budget} pages`);
    rows.push(await crawlOnce(options, 1, null));
    log(`    ${formatScalingRow(rows[0]!)}`);
    // One process with as many pages in flight as the most workers: a shared crawl's loss against it is the sharing's,
    // not the concurrency's (one process at 8 in flight gave 0.91–0.93 where 4 workers of 2 gave 0.83–0.85).
    const most = Math.max(...options.workers) * options.concurrency;
    if (most > options.concurrency) {
        log(`scaling: single process, no Redis, ${most} pages in flight`);
        rows.push(await crawlOnce(options, 1, null, most));
        log(`    ${formatScalingRow(rows.at(-1)!)}`);
    }
    const redis = await startRedis();
    try {
        for (const workers of options.workers) {
            log(`scaling: ${workers} worker(s) through Redis (pid ${redis.pid}, ${redis.url})`);
            const row = await crawlOnce(options, workers, redis);
            row.recallDelta = row.recall - rows[0]!.recall;
            const sameInFlight = rows.find((r) => r.setup === 'single' && r.inFlight === row.inFlight);
            row.recallDeltaSameInFlight = sameInFlight ? row.recall - sameInFlight.recall : null;
            rows.push(row);
            log(`    ${formatScalingRow(row)}`);
        }
    } finally {
        await redis.stop();
    }
    return { rows, startupCpuSeconds };
}

function mkRunDir(name: string): string {
    const dir = path.join(RUNS_DIR, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    return dir;
}

/** One crawl: a fresh corpus server (its log is the crawl's record) behind a fresh latency front. */
async function crawlOnce(options: ScalingOptions, workers: number, redis: TestRedis | null, concurrency = options.concurrency): Promise<ScalingRow> {
    const setup = redis ? `redis-w${workers}` : concurrency === options.concurrency ? 'single' : `single-c${concurrency}`;
    const name = `scaling--${options.label.id}--${options.budget}--${setup}`;
    const dir = mkRunDir(name);
    const logFile = path.join(dir, 'requests.jsonl');
    const corpus = await startCorpusServer(logFile);
    const front = await startLatencyFront(corpus, options.latencyMillis);
    const crawlId = `${name}-${Date.now()}`;
    const admin = redis?.client() ?? null;
    let monitor: CommandCounter | null = null;
    let before = '';
    let after = '';
    let outcome: WorkersOutcome;
    try {
        if (admin) {
            if (options.monitor) monitor = await countSentCommands(admin);
            before = await admin.info('all');
        }
        const args = (i: number) => [
            'crawl', ...options.label.entry,
            '--query', options.label.query,
            '--mode', 'http',
            '--max-pages', String(options.budget),
            '--stop', 'never',
            '--proxy', front.proxyUrl,
            '--ignore-https-errors',
            // Like every bench crawl (stanford-cs's robots.txt asks for a Crawl-delay of 10 s).
            '--ignore-robots',
            '--per-host', String(options.perHost),
            '--concurrency', String(concurrency),
            '--min-concurrency', String(concurrency),
            '--storage', path.join(dir, `worker-${i}`),
            '--fresh',
            '--json',
            ...(redis ? ['--redis', redis.url, '--crawl-id', crawlId] : []),
        ];
        outcome = await runWorkers(workers, args, dir);
    } finally {
        await monitor?.stop();
        if (admin) after = await admin.info('all');
        await front.close();
        await corpus.close();
    }
    const score = await scoreLog(logFile, options.label, [options.budget]);
    const logLines = readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { t: number; scheme: string; host: string; url: string });
    const urls = new Set(logLines.map((l) => `${l.scheme}://${l.host}${l.url}`)).size;
    const figures = admin ? redisFigures(before, after, monitor, urls) : null;
    const items = outcome.items.map((item) => item.url);
    const delivered = await scoreUrls(items, options.label);
    const firstRequest = logLines[0]?.t ?? outcome.startedAt;
    const crawlSeconds = ((logLines.at(-1)?.t ?? firstRequest) - firstRequest) / 1000;
    const wallSeconds = outcome.wallMillis / 1000;
    const inFlight = workers * concurrency;
    const shared = outcome.reports.map((r) => r.sharedCrawl).filter((s) => s !== undefined).sort((a, b) => b.done - a.done)[0] ?? null;
    return {
        setup: redis ? 'redis' : 'single',
        workers,
        inFlight,
        urls,
        requests: logLines.length,
        pages: score.summary.total_fetched,
        repeats: score.summary.repeats,
        wallSeconds,
        pagesPerSecond: wallSeconds > 0 ? urls / wallSeconds : 0,
        startupSeconds: (firstRequest - outcome.startedAt) / 1000,
        crawlSeconds,
        crawlPagesPerSecond: crawlSeconds > 0 ? (urls - 1) / crawlSeconds : 0,
        idealPagesPerSecond: (inFlight * 1000) / Math.max(1, options.latencyMillis),
        workerCpuSeconds: outcome.cpuSeconds,
        machineBusy: outcome.machineBusy,
        recall: score.rows[0]?.recall ?? 0,
        recallDelta: null,
        recallDeltaSameInFlight: null,
        delivered: items.length,
        deliveredDistinct: new Set(items).size,
        deliveredRecall: delivered.recall ?? 0,
        stopReasons: outcome.reports.map((r) => r.stopReason),
        exitCodes: outcome.exitCodes,
        shared,
        redis: figures,
    };
}

/**
 * Commands that only a client sends, never a script: each call is one round trip (nothing is pipelined). Without the
 * MONITOR they are the round trips counted (XRANGE is the event log's read); they miss the few plain GET/SET/HSET/HDEL a
 * worker sends itself (the crawl's options and identity when it joins, a robots.txt Crawl-delay, the final report) and
 * the queued scores' pipeline of two ZREVRANGE every 10 pages, which scripts run too.
 */
const CLIENT_ONLY = /^(evalsha|eval|evalsha_ro|eval_ro|script\|.*|info|quit|client\|.*|select|ping|echo|hello|auth|xrange)$/;

/** The Redis figures of one crawl, from INFO before and after it (and the MONITOR's count, if there was one). */
function redisFigures(before: string, after: string, monitor: CommandCounter | null, pages: number): RedisFigures {
    const was = commandStats(before);
    // The bench's own: the INFO that read `before`, and the ECHO that ended the MONITOR's count (the MONITOR came first).
    const own = new Map([['info', 1], ['echo', monitor ? 1 : 0]]);
    const delta = [...commandStats(after)]
        .map(([command, calls]) => ({ command, calls: calls - (was.get(command) ?? 0) - (own.get(command) ?? 0) }))
        .filter((c) => c.calls > 0);
    const sent = new Map(monitor ? monitor.sent : delta.filter((c) => CLIENT_ONLY.test(c.command)).map((c) => [c.command, c.calls]));
    if (monitor && sent.has('info')) sent.set('info', sent.get('info')! - 1);
    const perPage = (calls: number) => (pages > 0 ? calls / pages : 0);
    const commands = delta.reduce((sum, c) => sum + c.calls, 0);
    const roundTrips = [...sent.values()].reduce((sum, n) => sum + n, 0);
    return {
        commands,
        commandsPerPage: perPage(commands),
        roundTrips,
        roundTripsPerPage: perPage(roundTrips),
        roundTripsExact: monitor !== null,
        cpuSeconds: redisCpu(after) - redisCpu(before),
        top: delta.sort((a, b) => b.calls - a.calls).slice(0, 8).map((c) => ({ ...c, perPage: perPage(c.calls) })),
        sent: [...sent].filter(([, calls]) => calls > 0).sort((a, b) => b[1] - a[1]).map(([command, calls]) => ({ command, calls, perPage: perPage(calls) })),
    };
}

/** used_cpu_user + used_cpu_sys of INFO, in seconds. */
function redisCpu(info: string): number {
    const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
    return field('used_cpu_user') + field('used_cpu_sys');
}

interface WorkersOutcome {
    startedAt: number;
    wallMillis: number;
    exitCodes: Array<number | null>;
    /** Each worker's FOCUS_REPORT (the last line of its `--json` stdout), for the workers that printed one. */
    reports: FocusReport[];
    /** Every worker's dataset items together. */
    items: Array<{ url: string }>;
    cpuSeconds: number;
    machineBusy: number;
}

/** Starts `count` CLI processes together and waits for every one to exit; stdout and stderr go to files in `dir`. */
async function runWorkers(count: number, args: (i: number) => string[], dir: string): Promise<WorkersOutcome> {
    const cpuBefore = childCpuTicks();
    const machineBefore = machineTicks();
    const startedAt = Date.now();
    const exits = Array.from({ length: count }, (_, i) => {
        const child = spawn(process.execPath, ['--import', 'tsx', CLI_SCRIPT, ...args(i)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
        child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
        const timer = setTimeout(() => child.kill('SIGKILL'), WORKER_TIMEOUT_MILLIS);
        return new Promise<{ code: number | null; stdout: string }>((resolve) =>
            // 'close': the process has exited and its output is all in.
            child.once('close', (code) => {
                clearTimeout(timer);
                const stdout = Buffer.concat(out).toString();
                writeFileSync(path.join(dir, `worker-${i}.stdout`), stdout);
                writeFileSync(path.join(dir, `worker-${i}.stderr`), Buffer.concat(err));
                resolve({ code, stdout });
            }),
        );
    });
    const exited = await Promise.all(exits);
    const exitCodes = exited.map((e) => e.code);
    const wallMillis = Date.now() - startedAt;
    const cpuSeconds = (childCpuTicks() - cpuBefore) / clockTicks();
    const machineAfter = machineTicks();
    const machineBusy = (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total);
    const reports: FocusReport[] = [];
    const items: Array<{ url: string }> = [];
    for (let i = 0; i < count; i++) {
        const last = exited[i]!.stdout.trim().split('\n').at(-1);
        try {
            if (last) reports.push(JSON.parse(last) as FocusReport);
        } catch {
            // no report: the exit code and worker-<i>.stderr tell why
        }
        const dataset = path.join(dir, `worker-${i}`, 'datasets', 'default');
        if (!existsSync(dataset)) continue;
        for (const file of readdirSync(dataset).filter((f) => f.endsWith('.json')).sort()) items.push(JSON.parse(readFileSync(path.join(dataset, file), 'utf8')) as { url: string });
    }
    return { startedAt, wallMillis, exitCodes, reports, items, cpuSeconds, machineBusy };
}

interface CommandCounter {
    /** Commands sent by clients (not from scripts), by name. */
    sent: Map<string, number>;
    stop(): Promise<void>;
}

/**
 * Counts the commands clients send, through MONITOR (a command a script runs is logged with the source `lua`), until
 * {@link CommandCounter.stop} has seen its own ECHO come through, so no command sent before it is missed.
 */
async function countSentCommands(admin: Redis): Promise<CommandCounter> {
    const monitor = await admin.monitor();
    const marker = `scaling-bench-end-${process.pid}-${Date.now()}`;
    const sent = new Map<string, number>();
    let ended: () => void = () => undefined;
    const end = new Promise<void>((resolve) => (ended = resolve));
    let counting = true;
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
        if (!counting || source === 'lua') return;
        const command = String(args[0] ?? '').toLowerCase();
        if (command === 'echo' && args[1] === marker) {
            counting = false;
            ended();
            return;
        }
        sent.set(command, (sent.get(command) ?? 0) + 1);
    });
    return {
        sent,
        stop: async () => {
            await admin.echo(marker);
            await Promise.race([end, new Promise((resolve) => setTimeout(resolve, 5_000))]);
            monitor.disconnect();
        },
    };
}

/** CPU time (clock ticks) of this process's children that have exited and been waited for: utime + stime of /proc. */
function childCpuTicks(): number {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ", field 3 is index 0: cutime is field 16, cstime field 17.
    return Number(fields[13]) + Number(fields[14]);
}

/** The machine's CPU ticks, all cores: busy (everything but idle and iowait) and total. */
function machineTicks(): { busy: number; total: number } {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - (cpu[3] ?? 0) - (cpu[4] ?? 0), total };
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
    if (ticksPerSecond === undefined) {
        try {
            ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
        } catch {
            ticksPerSecond = 100;
        }
    }
    return ticksPerSecond;
}

/** `1.23 4.56 7.89` (1, 5, 15 minutes) now. */
export function loadAverage(): string {
    return loadavg().map((l) => l.toFixed(2)).join(' ');
}

function setupName(row: ScalingRow): string {
    if (row.setup === 'redis') return `${row.workers} worker${row.workers > 1 ? 's' : ''}, Redis`;
    return `one process, no Redis, ${row.inFlight} in flight`;
}

/** One line for the progress log. */
export function formatScalingRow(row: ScalingRow): string {
    const redis = row.redis ? `, Redis ${row.redis.commandsPerPage.toFixed(1)} commands/page (${row.redis.roundTripsPerPage.toFixed(1)} round trips)` : '';
    const delta =
        row.recallDelta === null ? '' : ` (${signed(row.recallDelta)}${row.recallDeltaSameInFlight === null ? '' : `; ${signed(row.recallDeltaSameInFlight)} against one process at ${row.inFlight} in flight`})`;
    return (
        `${row.urls} pages in ${row.wallSeconds.toFixed(1)} s = ${row.pagesPerSecond.toFixed(2)} pages/s ` +
        `(crawl ${row.crawlSeconds.toFixed(1)} s = ${row.crawlPagesPerSecond.toFixed(2)}/s), recall ${row.recall.toFixed(2)}${delta}${redis}, ` +
        `stop ${[...new Set(row.stopReasons)].join('/') || '—'}, exit ${row.exitCodes.join(',')}`
    );
}

function signed(x: number): string {
    return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
}

/** Markdown: speed per setup, with the speed-up over one worker through Redis. */
export function throughputTable(rows: ScalingRow[], startupCpuSeconds: number): string {
    const one = rows.find((r) => r.setup === 'redis' && r.workers === 1);
    const times = (x: number, base: number | undefined) => (base && base > 0 ? `${(x / base).toFixed(2)}×` : '—');
    const lines = [
        '| setup | in flight | pages (URLs) | requests | wall s | pages/s | × 1 worker | start-up s | crawl s | pages/s in crawl | × 1 worker | latency allows | worker CPU s | CPU ms/request after start-up | machine busy |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ];
    for (const row of rows) {
        const redis = row.setup === 'redis';
        const perRequest = row.requests > 0 ? ((row.workerCpuSeconds - row.workers * startupCpuSeconds) * 1000) / row.requests : 0;
        lines.push(
            `| ${setupName(row)} | ${row.inFlight} | ${row.urls} | ${row.requests} | ${row.wallSeconds.toFixed(1)} | ${row.pagesPerSecond.toFixed(2)} | ${redis ? times(row.pagesPerSecond, one?.pagesPerSecond) : '—'} | ` +
                `${row.startupSeconds.toFixed(1)} | ${row.crawlSeconds.toFixed(1)} | ${row.crawlPagesPerSecond.toFixed(2)} | ${redis ? times(row.crawlPagesPerSecond, one?.crawlPagesPerSecond) : '—'} | ` +
                `${row.idealPagesPerSecond.toFixed(0)} | ${row.workerCpuSeconds.toFixed(1)} | ${Math.round(perRequest)} | ${Math.round(row.machineBusy * 100)} % |`,
        );
    }
    return lines.join('\n');
}

/** Markdown: recall at the budget against one process, what was delivered, and how each crawl ended. */
export function recallTable(rows: ScalingRow[], budget: number): string {
    const lines = [
        `| setup | pages (score.mjs) | repeats | recall @${budget} | vs one process | vs one process, as many in flight | delivered (distinct) | recall of delivered | stop | charged / done / failed / reclaimed / stale |`,
        '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ];
    for (const row of rows) {
        const s = row.shared;
        lines.push(
            `| ${setupName(row)} | ${row.pages} | ${row.repeats} | ${row.recall.toFixed(2)} | ${row.recallDelta === null ? '—' : signed(row.recallDelta)} | ` +
                `${row.recallDeltaSameInFlight === null ? '—' : signed(row.recallDeltaSameInFlight)} | ` +
                `${row.delivered} (${row.deliveredDistinct}) | ${row.deliveredRecall.toFixed(2)} | ${[...new Set(row.stopReasons)].join(', ') || '—'} | ` +
                `${s ? `${s.charged} / ${s.done} / ${s.failed} / ${s.reclaimed} / ${s.stale}` : '—'} |`,
        );
    }
    return lines.join('\n');
}

/** Markdown: what each shared crawl sent to Redis, per page (pages = distinct URLs fetched). */
export function redisTable(rows: ScalingRow[]): string {
    const lines = [
        '| workers | commands | per page | round trips | per page | Redis CPU ms/page | round trips by command (per page) | top commands, scripts\' included (per page) |',
        '|---:|---:|---:|---:|---:|---:|---|---|',
    ];
    const list = (entries: RedisFigures['top']) => entries.map((c) => `${c.command} ${c.perPage.toFixed(2)}`).join(', ');
    for (const row of rows) {
        if (!row.redis) continue;
        const r = row.redis;
        lines.push(
            `| ${row.workers} | ${r.commands} | ${r.commandsPerPage.toFixed(1)} | ${r.roundTrips} | ${r.roundTripsPerPage.toFixed(1)}${r.roundTripsExact ? '' : ' (+)'} | ${((r.cpuSeconds * 1000) / Math.max(1, row.urls)).toFixed(2)} | ${list(r.sent)} | ${list(r.top)} |`,
        );
    }
    return lines.join('\n');
}

/** What issue 14 asks of the bench, row by row: the budget, recall within {@link RECALL_TOLERANCE}, clean exits, one stop, no double delivery. */
export function scalingChecks(rows: ScalingRow[], budget: number): string[] {
    const problems: string[] = [];
    for (const row of rows) {
        const name = setupName(row);
        if (row.urls > budget) problems.push(`${name}: ${row.urls} distinct URLs fetched, over the budget of ${budget}`);
        if (row.recallDelta !== null && Math.abs(row.recallDelta) > RECALL_TOLERANCE) problems.push(`${name}: recall ${row.recall.toFixed(2)} differs from one process's by ${signed(row.recallDelta)}, more than ${RECALL_TOLERANCE}`);
        if (row.exitCodes.some((code) => code !== 0)) problems.push(`${name}: exit codes ${row.exitCodes.join(', ')}`);
        if (new Set(row.stopReasons).size > 1) problems.push(`${name}: the workers report different stop reasons (${row.stopReasons.join(', ')})`);
        if (row.stopReasons.length < row.workers) problems.push(`${name}: ${row.workers - row.stopReasons.length} worker(s) printed no report`);
        if (row.deliveredDistinct < row.delivered) problems.push(`${name}: ${row.delivered - row.deliveredDistinct} page(s) delivered twice across the datasets`);
    }
    return problems;
}
