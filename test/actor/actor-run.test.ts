import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { page, startSite, type TestSite } from '../helpers/site-server.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs the Actor in its own process, as `apify run` would, on a fresh local storage holding `input`. Asynchronously:
 * the test's site is served by this process.
 */
async function runActor(input: unknown) {
    const storage = mkdtempSync(join(tmpdir(), 'cf-actor-'));
    const store = join(storage, 'key_value_stores', 'default');
    mkdirSync(store, { recursive: true });
    writeFileSync(join(store, 'INPUT.json'), JSON.stringify(input));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/actor/run.ts'], {
        cwd: ROOT,
        env: { ...process.env, CRAWLEE_STORAGE_DIR: storage, ACTOR_INPUT_KEY: 'INPUT', APIFY_LOG_LEVEL: 'INFO', APIFY_IS_AT_HOME: '', APIFY_TOKEN: '' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const datasetDir = join(storage, 'datasets', 'default');
    const items = (existsSync(datasetDir) ? readdirSync(datasetDir, { withFileTypes: true }) : []).filter((f) => f.name.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(datasetDir, f.name), 'utf8')));
    let report: Record<string, unknown> | null = null;
    try {
        report = JSON.parse(readFileSync(join(store, 'FOCUS_REPORT.json'), 'utf8'));
    } catch {
        report = null;
    }
    return { status, output, items, report };
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
        const { status, output, items, report } = await runActor({ startUrls: [{ url: `${site.url}/` }], query: 'admissions scholarships', crawlerType: 'cheerio', maxCrawlPages: 5, stop: 'never' });
        expect(status, output).toBe(0);
        expect(items.map((item) => new URL(item.url).pathname), output.slice(-3000)).toContain('/admissions');
        expect(items.every((item) => item.contentType === 'text/html' && typeof item.markdown === 'string')).toBe(true);
        expect(report).toMatchObject({ stopReason: 'exhausted', pagesFetched: 3 });
        expect(output).toMatch(/Stopped \(exhausted\) after 3 pages: \d+ relevant pages delivered\./);
    }, 150_000);

    it('fails a bad input with a message that says what to fix, and a non-zero exit code', async () => {
        const { status, output, report } = await runActor({ startUrls: [{ url: 'not a url' }], maxCrawlPages: -1 });
        expect(status).not.toBe(0);
        expect(output).toContain('Invalid input: "startUrls[0]" must be an http(s) URL (got "not a url"). "maxCrawlPages" must be a whole number ≥ 1 (got -1).');
        expect(report).toBeNull();
    }, 150_000);
});
