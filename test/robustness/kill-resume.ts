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
}

const isPage = (path: string) => /^\/p\d+$/.test(path);

/** Runs one crawl child; kills it with SIGKILL once the server has seen `killAfter` more page requests. */
export function runChild(options: object, site: LoggingServer, killAfter?: number): Promise<ChildRun> {
    return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        const start = site.requests.filter((r) => isPage(r.path)).length;
        const timer =
            killAfter === undefined
                ? undefined
                : setInterval(() => {
                      if (site.requests.filter((r) => isPage(r.path)).length - start < killAfter) return;
                      child.kill('SIGKILL');
                      clearInterval(timer);
                  }, 5);
        child.on('error', reject);
        child.on('exit', (code, signal) => {
            if (timer) clearInterval(timer);
            resolve({ code, signal, stdout, stderr });
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

/** Kills a crawl once per entry of `killPoints` (page requests since the last start), then lets it finish. */
export async function killAndResume(site: LoggingServer, crawlOptions: Record<string, unknown>, killPoints: number[]): Promise<KillResumeResult> {
    const started = Date.now();
    const storageDir = mkdtempSync(join(tmpdir(), 'cf-kill-'));
    const options = { ...crawlOptions, storageDir };
    let kills = 0;
    for (const killAfter of killPoints) {
        const run = await runChild(options, site, killAfter);
        if (run.signal === 'SIGKILL') kills += 1;
    }
    const finalRun = await runChild(options, site);
    const fetched = site.requests.filter((r) => isPage(r.path)).map((r) => r.path);
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
