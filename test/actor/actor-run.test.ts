import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { page, startSite, type TestSite } from '../helpers/site-server.js';
import { startDemoSite } from '../../src/cli/demo-site.js';
import { renderReport } from '../helpers/report-page.js';
import { treeSite } from '../robustness/kill-resume.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs the Actor in its own process, as `apify run` would, on a fresh local storage holding `input`. Asynchronously:
 * the test's site is served by this process.
 */
async function runActor(input: unknown, { storage = mkdtempSync(join(tmpdir(), 'cf-actor-')), purge = true, killWhen, env = {} }: RunOptions = {}) {
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
            ...env,
        },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const watch = killWhen ? setInterval(() => killWhen() && child.kill('SIGKILL'), 20) : undefined;
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(watch);
    // A kill can tear the file being written (the restarted run repairs it): only then is a torn file skipped.
    const killed = killWhen !== undefined && status !== 0;
    const readJson = (path: string) => {
        try {
            return JSON.parse(readFileSync(path, 'utf8'));
        } catch (error) {
            if (killed) return undefined;
            throw error;
        }
    };
    const datasetItems = (name: string) => {
        const dir = join(storage, 'datasets', name);
        return (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [])
            .filter((f) => /^\d+\.json$/.test(f.name))
            .map((f) => readJson(join(dir, f.name)))
            .filter((item) => item !== undefined);
    };
    const record = (key: string): Record<string, unknown> | null => (existsSync(join(store, `${key}.json`)) ? (readJson(join(store, `${key}.json`)) ?? null) : null);
    const reportPage = existsSync(join(store, 'REPORT.html')) ? readFileSync(join(store, 'REPORT.html'), 'utf8') : null;
    return { status, output, items: datasetItems('default'), charges: datasetItems('charging_log'), report: record('FOCUS_REPORT'), learned: record('LEARNED_RULES'), reportPage, storage };
}

interface RunOptions {
    /** Run on this storage (a restart) instead of a fresh one. */
    storage?: string;
    /** Purge the default storages on start, as a fresh local run does. @default true */
    purge?: boolean;
    /** Polled while the Actor runs: true kills it (SIGKILL), as a crash or a lost server would. */
    killWhen?: () => boolean;
    /** More environment variables (pay-per-event testing). */
    env?: Record<string, string>;
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
        const { status, output, items, report, learned, reportPage } = await runActor({ startUrls: [{ url: `${site.url}/` }], query: 'admissions scholarships', crawlerType: 'cheerio', maxCrawlPages: 5, stop: 'never' });
        expect(status, output).toBe(0);
        // REPORT.html, as Chromium shows it: the chart is drawn and its figures are FOCUS_REPORT's
        const shown = await renderReport(reportPage!);
        expect(shown.embedded).toEqual(report);
        expect(shown.figures).toMatchObject({ pagesFetched: String(report!.pagesFetched), relevantPages: String(report!.relevantPages) });
        expect(shown.stopReason).toBe(report!.stopReason);
        const curve = report!.curve as Array<{ fetched: number; relevant: number }>;
        expect(curve.at(-1)).toEqual({ fetched: report!.pagesFetched, relevant: report!.relevantPages });
        expect(shown.relevantPoints).toBe(curve.length + (curve[0]!.fetched > 0 ? 1 : 0));
        expect(shown.relevantLength).toBeGreaterThan(0);
        expect(shown.topPages.map((p) => p.url)).toEqual(items.map((item) => item.url).sort((a, b) => items.find((i) => i.url === b)!.relevance - items.find((i) => i.url === a)!.relevance));
        expect(items.map((item) => new URL(item.url).pathname), output.slice(-3000)).toContain('/admissions');
        expect(items.every((item) => item.contentType === 'text/html' && typeof item.markdown === 'string')).toBe(true);
        expect(report).toMatchObject({ stopReason: 'exhausted', pagesFetched: 3 });
        expect(learned).toMatchObject({ excludeUrlGlobs: [], rewriteRules: [] }); // a three-page site teaches nothing
        expect(output).toMatch(/Stopped \(exhausted\) after 3 pages: \d+ relevant pages delivered\./);
    }, 150_000);

    it('charges one event per relevant page delivered on pay-per-event pricing, and stops cleanly at the charge limit', async () => {
        const topics = ['Scholarships', 'Bursaries', 'Fee waivers', 'Grants', 'Loans', 'Awards'];
        const aid = await startSite({
            '/': page('Financial aid', `<main><h1>Financial aid for students</h1><p>Scholarships and financial assistance.</p>${topics.map((t, i) => `<a href="/aid/${i}">${t}</a>`).join(' ')}</main>`),
            ...Object.fromEntries(topics.map((t, i) => [`/aid/${i}`, page(t, `<main><h1>${t}: financial assistance</h1><p>${t} and scholarships give students financial assistance for their studies.</p></main>`)])),
        });
        try {
            const { status, output, items, charges, report } = await runActor(
                { startUrls: [{ url: `${aid.url}/` }], query: 'scholarships financial assistance', crawlerType: 'cheerio', maxCrawlPages: 20, maxConcurrency: 4, stop: 'never' },
                // Locally every event costs $1: a $3 limit is three relevant pages.
                { env: { ACTOR_TEST_PAY_PER_EVENT: 'true', ACTOR_USE_CHARGING_LOG_DATASET: 'true', ACTOR_MAX_TOTAL_CHARGE_USD: '3' } },
            );
            expect(status, output.slice(-3000)).toBe(0);
            expect(items).toHaveLength(3);
            expect(charges.map((c) => [c.eventName, c.chargedCount])).toEqual([['relevant-page', 1], ['relevant-page', 1], ['relevant-page', 1]]);
            expect(report).toMatchObject({ stopReason: 'delivery-limit', relevantPages: 3 });
            expect(report!.pagesFetched as number).toBeLessThan(7); // it stopped rather than crawl on without delivering
            expect(output).toContain('The charge limit of the run was reached.');
        } finally {
            await aid.close();
        }
    }, 150_000);

    it('runs offline on the bundled demo site with the README\'s input', async () => {
        const demo = await startDemoSite();
        try {
            const { status, output, items, report } = await runActor({ startUrls: [{ url: demo.url }], query: 'graduate admissions phd application', maxCrawlPages: 40, crawlerType: 'cheerio' });
            expect(status, output.slice(-3000)).toBe(0);
            expect(report!.pagesFetched as number).toBeLessThanOrEqual(40);
            expect(items.length).toBeGreaterThanOrEqual(10);
            expect(items.some((item) => new URL(item.url).pathname.startsWith('/graduate/admissions/'))).toBe(true);
        } finally {
            await demo.close();
        }
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
            // The chart's course goes on from the first run's: it starts with the pages fetched before the kill.
            const curve = restarted.report!.curve as Array<{ fetched: number }>;
            expect(curve[0]!.fetched).toBeLessThan(8);
            expect(curve.at(-1)!.fetched).toBe(20);
        } finally {
            await tree.close();
        }
    }, 200_000);
});
