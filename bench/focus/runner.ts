import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { CrawlOutcome, CrawlSpec } from './crawl.js';
import { startCorpusServer } from './corpus-server.js';
import type { Label } from './paths.js';
import { RUNS_DIR } from './paths.js';
import type { PlannedRun } from './plan.js';
import { scoreLog } from './score.js';
import type { LogScore } from './score.js';

const CRAWL_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'crawl.ts');

/** A crawl process that has not finished after this long is killed (a hung browser must not stall the bench). */
const CRAWL_TIMEOUT_MILLIS = 20 * 60_000;

/** Where a run keeps its spec, server log, Crawlee storage and outcome. */
export function runDir(id: string): string {
    return path.join(RUNS_DIR, id);
}

/** A finished run: how the crawl went and its server log. */
export interface FinishedRun {
    run: PlannedRun;
    outcome: CrawlOutcome;
    logFile: string;
    /** Whether it was read from the cache instead of crawled now. */
    cached: boolean;
}

/** The outcome of a run found in the cache, if it finished without error. */
export function cachedOutcome(id: string): CrawlOutcome | null {
    const file = path.join(runDir(id), 'outcome.json');
    if (!existsSync(file) || !existsSync(path.join(runDir(id), 'requests.jsonl'))) return null;
    const outcome = JSON.parse(readFileSync(file, 'utf8')) as CrawlOutcome;
    return outcome.error ? null : outcome;
}

/** Crawls one spec in a child process against a fresh corpus server; `onProgress` gets the pages handled so far. */
export async function crawlInChild(
    spec: Omit<CrawlSpec, 'proxyUrl' | 'storageDir' | 'outcomeFile'>,
    dir: string,
    onProgress: (pages: number) => void = () => undefined,
): Promise<CrawlOutcome> {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const server = await startCorpusServer(path.join(dir, 'requests.jsonl'));
    const full: CrawlSpec = { ...spec, proxyUrl: server.proxyUrl, storageDir: path.join(dir, 'storage'), outcomeFile: path.join(dir, 'outcome.json') };
    writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(full, null, 2));
    try {
        await new Promise<void>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', CRAWL_SCRIPT, path.join(dir, 'spec.json')], {
                stdio: ['ignore', 'pipe', 'pipe'],
            });
            const stderr: Buffer[] = [];
            const timer = setTimeout(() => child.kill('SIGKILL'), CRAWL_TIMEOUT_MILLIS);
            child.stdout.on('data', (chunk: Buffer) => {
                const last = /progress (\d+)\s*$/.exec(chunk.toString());
                if (last) onProgress(Number(last[1]));
            });
            child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
            child.once('exit', () => {
                clearTimeout(timer);
                writeFileSync(path.join(dir, 'crawl.stderr.log'), Buffer.concat(stderr));
                resolve();
            });
        });
    } finally {
        await server.close();
    }
    const outcomeFile = path.join(dir, 'outcome.json');
    if (!existsSync(outcomeFile)) {
        return { kind: spec.kind, startedAt: 0, wallMillis: 0, pagesHandled: 0, error: `the crawl process died; see ${path.join(dir, 'crawl.stderr.log')}` };
    }
    return JSON.parse(readFileSync(outcomeFile, 'utf8')) as CrawlOutcome;
}

/** Runs a planned crawl, or reads it from the cache when it finished before (unless `fresh`). */
export async function executeRun(run: PlannedRun, options: { fresh: boolean; onProgress?: (pages: number) => void }): Promise<FinishedRun> {
    const dir = runDir(run.id);
    const logFile = path.join(dir, 'requests.jsonl');
    const cached = options.fresh ? null : cachedOutcome(run.id);
    if (cached) return { run, outcome: cached, logFile, cached: true };
    const outcome = await crawlInChild({ kind: run.crawler, startUrls: run.label.entry, query: run.label.query, budget: run.budget, focusMode: run.focusMode }, dir, options.onProgress);
    return { run, outcome, logFile, cached: false };
}

/** A finished run scored for one label at the budgets asked. */
export interface ScoredRun {
    finished: FinishedRun;
    label: Label;
    score: LogScore;
}

export async function scoreRun(finished: FinishedRun, label: Label, ks: number[]): Promise<ScoredRun> {
    return { finished, label, score: await scoreLog(finished.logFile, label, ks) };
}
