// Kill -9 a crawl in a child process at chosen points and resume it on the same storage, as a crash would.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Configuration, Dataset } from 'crawlee';

import { startLoggingServer } from '../helpers/fault-server.js';
import type { LoggingServer } from '../helpers/fault-server.js';
import { page } from '../helpers/site-server.js';

const CHILD = join(import.meta.dirname, '..', 'fixtures', 'crawl-child.ts');

/** A binary tree of `pages` pages (`/p0` links `/p1`, `/p2` …), each answered `delayMillis` late, so requests are in flight. */
export function treeSite(pages: number, delayMillis: number): Promise<LoggingServer> {
    return startLoggingServer((url) => {
        const match = /^\/p(\d+)$/.exec(url.pathname);
        if (!match || Number(match[1]) >= pages) return undefined;
        const i = Number(match[1]);
        const links = [2 * i + 1, 2 * i + 2].filter((k) => k < pages).map((k) => `<a href="/p${k}">Page ${k}</a>`).join(' ');
        return (_req, res) => {
            const timer = setTimeout(
                () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`Page ${i}`, `<main><h1>Page ${i}</h1><p>Text of page ${i}, words ${'w'.repeat(i + 1)}.</p>${links}</main>`)),
                delayMillis,
            );
            res.on('close', () => clearTimeout(timer));
        };
    });
}

export interface ChildRun {
    code: number | null;
    signal: string | null;
    stdout: string;
    stderr: string;
    /** The child was still running at `timeoutMillis` and was killed: a hang, never a kill point. */
    timedOut: boolean;
}

export interface ChildOptions {
    /** SIGKILL once the server has seen this many more page requests. */
    killAfter?: number;
    /** The child kills itself at this point (`take:N`, `snapshot:N`, `write:N`; see crawl-child.ts). */
    killAt?: string;
    /** A child still running by then is killed and reported as `timedOut`. @default 240_000 */
    timeoutMillis?: number;
}

const isPage = (path: string) => /^\/p\d+$/.test(path);

/** Children still running: killed when the test process exits, so a hung crawl never outlives its test. */
const running = new Set<ReturnType<typeof spawn>>();
process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
});

/** The report a child printed as its last line of stdout. */
export function reportOf(run: ChildRun): { stopReason: string; pagesFetched: number } {
    return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
}

/** Runs one crawl child and resolves when it exits (or is killed as the options say). */
export function runChild(options: object, site: LoggingServer, how: ChildOptions = {}): Promise<ChildRun> {
    return new Promise((resolve, reject) => {
        const env = { ...process.env, ...(how.killAt ? { CF_KILL_AT: how.killAt } : {}) };
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'], env });
        running.add(child);
        let stdout = '';
        let stderr = '';
        let timedOut = false;
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        const start = site.requests.filter((r) => isPage(r.path)).length;
        const killAfter = how.killAfter;
        const watcher =
            killAfter === undefined
                ? undefined
                : setInterval(() => {
                      if (site.requests.filter((r) => isPage(r.path)).length - start < killAfter) return;
                      child.kill('SIGKILL');
                      clearInterval(watcher);
                  }, 5);
        const deadline = setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
        }, how.timeoutMillis ?? 240_000);
        child.on('error', reject);
        child.on('exit', (code, signal) => {
            running.delete(child);
            if (watcher) clearInterval(watcher);
            clearTimeout(deadline);
            resolve({ code, signal, stdout, stderr, timedOut });
        });
    });
}

export interface KillResumeResult {
    kills: number;
    /** Page requests of every run, in order. */
    fetched: string[];
    /** Page requests beyond the first of each page. */
    refetched: number;
    finalRun: ChildRun;
    /** URLs in the final dataset. */
    delivered: string[];
    seconds: number;
}

/** Where to kill a run: after so many page requests (a number), or at a point inside the child (`take:N` …). */
export type KillPoint = number | string;

/** Kills a crawl once per entry of `killPoints`, then lets it finish (with `finalOptions` merged in, if given). */
export async function killAndResume(
    site: LoggingServer,
    crawlOptions: Record<string, unknown>,
    killPoints: KillPoint[],
    finalOptions: Record<string, unknown> = {},
): Promise<KillResumeResult> {
    const started = Date.now();
    const storageDir = mkdtempSync(join(tmpdir(), 'cf-kill-'));
    const options = { ...crawlOptions, storageDir };
    const before = site.requests.length;
    let kills = 0;
    for (const point of killPoints) {
        const run = await runChild(options, site, typeof point === 'number' ? { killAfter: point } : { killAt: point });
        if (run.timedOut) throw new Error(`the crawl killed at ${point} hung: ${run.stderr.slice(-2000)}`);
        if (run.signal === 'SIGKILL') kills += 1;
    }
    const finalRun = await runChild({ ...options, ...finalOptions }, site);
    const fetched = site.requests.slice(before).filter((r) => isPage(r.path)).map((r) => r.path);
    const config = new Configuration({ storageClientOptions: { localDataDirectory: storageDir }, purgeOnStart: false });
    const { items } = await (await Dataset.open(undefined, { config })).getData();
    return {
        kills,
        fetched,
        refetched: fetched.length - new Set(fetched).size,
        finalRun,
        delivered: items.map((item) => String(item.url)),
        seconds: (Date.now() - started) / 1000,
    };
}
