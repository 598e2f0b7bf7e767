import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Dataset, LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { createFocusedCrawler, STATE_FORMAT } from '../../src/index.js';
import type { CreateFocusedCrawlerOptions } from '../../src/index.js';
import { page, startSite } from '../helpers/site-server.js';
import type { TestSite } from '../helpers/site-server.js';

log.setLevel(LogLevel.WARNING);

function snapshotFiles(storageDir: string): string[] {
    const dir = join(storageDir, 'key_value_stores', 'default');
    return readdirSync(dir)
        .filter((name) => /^FOCUS_STATE_\d+_[AB]\.json$/.test(name))
        .map((name) => join(dir, name));
}

/** Rewrites every stored snapshot as a crawl written by an older crawlee-focus (format 1 had no `format` field). */
function makeSnapshotsFormat1(storageDir: string): void {
    for (const file of snapshotFiles(storageDir)) {
        const stored = JSON.parse(readFileSync(file, 'utf8'));
        if (!stored?.state) continue;
        delete stored.state.format;
        writeFileSync(file, JSON.stringify(stored));
    }
}

describe('which stored crawl a new run continues', () => {
    let site: TestSite;
    const options = (storageDir: string, query: string, resume: 'auto' | boolean = 'auto'): CreateFocusedCrawlerOptions => ({
        mode: 'http',
        storageDir,
        startUrls: [`${site.url}/`],
        query,
        maxPages: 3,
        maxConcurrency: 1,
        stop: 'never',
        resume,
    });

    beforeAll(async () => {
        const links = ['a', 'b', 'c', 'd'].map((x) => `<a href="/${x}">Robot ${x}</a>`).join(' ');
        site = await startSite({
            '/': page('Home', `<main><h1>Robots</h1><p>Robot lab home.</p>${links}</main>`),
            ...Object.fromEntries(['a', 'b', 'c', 'd'].map((x) => [`/${x}`, page(`Robot ${x}`, `<main><h1>Robot ${x}</h1><p>Robot ${x} is a robot.</p></main>`)])),
        });
    });
    afterAll(async () => site.close());

    it('writes snapshots of the current format', async () => {
        const storageDir = mkdtempSync(join(tmpdir(), 'cf-format-'));
        await (await createFocusedCrawler(options(storageDir, 'robot'))).run();
        const formats = snapshotFiles(storageDir).map((file) => JSON.parse(readFileSync(file, 'utf8'))?.state?.format);
        expect(formats.filter((f) => f !== undefined)).not.toHaveLength(0);
        for (const format of formats.filter((f) => f !== undefined)) expect(format).toBe(STATE_FORMAT);
    });

    it("starts afresh with resume 'auto' when the query differs", async () => {
        const storageDir = mkdtempSync(join(tmpdir(), 'cf-format-'));
        await (await createFocusedCrawler(options(storageDir, 'robot'))).run();
        site.requests.length = 0;
        const warning = vi.spyOn(log, 'warning');
        const second = await createFocusedCrawler(options(storageDir, 'robot lab'));
        // It says so, naming the crawl it purges and how to continue that one instead.
        const said = warning.mock.calls.map(([message]) => String(message)).join('\n');
        warning.mockRestore();
        expect(said).toMatch(/storage holds a crawl of other seeds, query or mode \(seeds http:\/\/127\.0\.0\.1:\d+\/, query "robot", mode http\); starting afresh/);
        expect(said).toContain('run it with the seeds, query and mode it began with');
        const report = await second.run();
        expect(report.pagesFetched).toBe(3);
        expect(site.requests.filter((r) => r !== '/robots.txt')).toContain('/');
        const { items } = await (await Dataset.open(undefined, { config: second.focus.config })).getData();
        expect(items.length).toBeLessThanOrEqual(3); // the first crawl's deliveries were purged
    });

    it("starts afresh with resume 'auto' from a snapshot of an older format", async () => {
        const storageDir = mkdtempSync(join(tmpdir(), 'cf-format-'));
        await (await createFocusedCrawler(options(storageDir, 'robot'))).run();
        makeSnapshotsFormat1(storageDir);
        site.requests.length = 0;
        const report = await (await createFocusedCrawler(options(storageDir, 'robot'))).run();
        expect(report.pagesFetched).toBe(3);
        expect(site.requests.filter((r) => r !== '/robots.txt')).toHaveLength(3);
    });

    it('refuses resume: true from an older format, says what to do, and leaves the storage as it was', async () => {
        const storageDir = mkdtempSync(join(tmpdir(), 'cf-format-'));
        await (await createFocusedCrawler(options(storageDir, 'robot'))).run();
        makeSnapshotsFormat1(storageDir);
        const before = snapshotFiles(storageDir).map((file) => readFileSync(file, 'utf8'));
        await expect(createFocusedCrawler(options(storageDir, 'robot', true))).rejects.toThrow(
            new RegExp(`format 1, this version reads format ${STATE_FORMAT}.*resume: 'auto' or false`),
        );
        expect(snapshotFiles(storageDir).map((file) => readFileSync(file, 'utf8'))).toEqual(before);
    });

    it('continues the stored crawl of the same seeds, query and format: a finished one fetches nothing again', async () => {
        const storageDir = mkdtempSync(join(tmpdir(), 'cf-format-'));
        const first = await (await createFocusedCrawler(options(storageDir, 'robot'))).run();
        site.requests.length = 0;
        const again = await (await createFocusedCrawler(options(storageDir, 'robot'))).run();
        expect(site.requests.filter((r) => r !== '/robots.txt')).toEqual([]);
        expect(again.pagesFetched).toBe(first.pagesFetched);
        expect(again.stopReason).toBe('limit_reached');
    });
});
