import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { page, startSite, type TestSite } from '../helpers/site-server.js';
import { treeSite } from '../robustness/kill-resume.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs the Actor in its own process, as `apify run` would, on a fresh local storage holding `input`. Asynchronously:
 * the test's site is served by this process.
 */
async function runActor(input: unknown, { storage = mkdtempSync(join(tmpdir(), 'cf-actor-')), purge = true, killWhen }: RunOptions = {}) {
    const store = join(storage, 'key_value_stores', 'default');
    mkdirSync(store, { recursive: true });
    writeFileSync(join(store, 'INPUT.json'), JSON.stringify(input));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/actor/run.ts'], {
        cwd: ROOT,
        env: {
            ...process.env,
            CRAWLEE_STORAGE_DIR: storage,
            ACTOR_INPUT_KEY: 'INPUT',
            APIFY_LOG_LEVEL: 'INFO',
            APIFY_IS_AT_HOME: '',
            APIFY_TOKEN: '',
            // A restarted platform run keeps its storages; locally that is `apify run --no-purge`.
            CRAWLEE_PURGE_ON_START: purge ? '1' : '0',
        },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const watch = killWhen ? setInterval(() => killWhen() && child.kill('SIGKILL'), 20) : undefined;
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(watch);
    const datasetDir = join(storage, 'datasets', 'default');
    const items = (existsSync(datasetDir) ? readdirSync(datasetDir, { withFileTypes: true }) : []).filter((f) => f.name.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(datasetDir, f.name), 'utf8')));
    const record = (key: string): Record<string, unknown> | null => (existsSync(join(store, `${key}.json`)) ? JSON.parse(readFileSync(join(store, `${key}.json`), 'utf8')) : null);
    return { status, output, items, report: record('FOCUS_REPORT'), learned: record('LEARNED_RULES'), storage };
}

interface RunOptions {
    /** Run on this storage (a restart) instead of a fresh one. */
    storage?: string;
    /** Purge the default storages on start, as a fresh local run does. @default true */
    purge?: boolean;
    /** Polled while the Actor runs: true kills it (SIGKILL), as a crash or a lost server would. */
    killWhen?: () => boolean;
}

describe('the Actor, run locally', () => {
    let site: TestSite;
    beforeAll(async () => {
        site = await startSite({
            '/': page('Hill College', '<main><h1>Hill College</h1><a href="/admissions">Admissions</a> <a href="/sports">Sports</a></main>'),
            '/admissions': page('Admissions', '<main><h1>Admissions and scholarships</h1><p>Scholarships and financial assistance for new students.</p></main>'),
            '/sports': page('Sports', '<main><h1>Sports</h1><p>Football and swimming.</p></main>'),
        });
    });
    afterAll(async () => site.close());

    it('crawls with the input\'s settings, delivers the relevant pages, writes the report and ends with its stop reason', async () => {
        const { status, output, items, report, learned } = await runActor({ startUrls: [{ url: `${site.url}/` }], query: 'admissions scholarships', crawlerType: 'cheerio', maxCrawlPages: 5, stop: 'never' });
        expect(status, output).toBe(0);
        expect(items.map((item) => new URL(item.url).pathname), output.slice(-3000)).toContain('/admissions');
        expect(items.every((item) => item.contentType === 'text/html' && typeof item.markdown === 'string')).toBe(true);
        expect(report).toMatchObject({ stopReason: 'exhausted', pagesFetched: 3 });
        expect(learned).toMatchObject({ excludeUrlGlobs: [], rewriteRules: [] }); // a three-page site teaches nothing
        expect(output).toMatch(/Stopped \(exhausted\) after 3 pages: \d+ relevant pages delivered\./);
    }, 150_000);

    it('fails a bad input with a message that says what to fix, and a non-zero exit code', async () => {
        const { status, output, report } = await runActor({ startUrls: [{ url: 'not a url' }], maxCrawlPages: -1 });
        expect(status).not.toBe(0);
        expect(output).toContain('Invalid input: "startUrls[0]" must be an http(s) URL (got "not a url"). "maxCrawlPages" must be a whole number ≥ 1 (got -1).');
        expect(report).toBeNull();
    }, 150_000);

    it('resumes where it stopped when its container is killed and the run starts again on the same storage', async () => {
        const tree = await treeSite(40, 150);
        try {
            const input = { startUrls: [{ url: `${tree.url}/p0` }], crawlerType: 'cheerio', maxCrawlPages: 20, maxConcurrency: 2, stop: 'never' };
            const pageRequests = () => tree.requests.filter((r) => /^\/p\d+$/.test(r.path)).length;
            const first = await runActor(input, { killWhen: () => pageRequests() >= 8 });
            expect(first.status).not.toBe(0); // killed
            const restarted = await runActor(input, { storage: first.storage, purge: false });
            expect(restarted.status, restarted.output.slice(-2000)).toBe(0);
            expect(restarted.report).toMatchObject({ stopReason: 'limit_reached', pagesFetched: 20 });
            const distinct = new Set(tree.requests.filter((r) => /^\/p\d+$/.test(r.path)).map((r) => r.path));
            expect(distinct.size).toBe(20);
            // Only what was in flight at the kill is fetched again (a fresh start would fetch the first 8 again too).
            expect(pageRequests()).toBeLessThanOrEqual(20 + 4);
            expect(restarted.output).toMatch(/resuming the crawl found in storage \(\d+ of 20 pages fetched\)/);
            const urls = restarted.items.map((item) => item.url);
            expect(new Set(urls).size).toBe(urls.length);
        } finally {
            await tree.close();
        }
    }, 200_000);
});
