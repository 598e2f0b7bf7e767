import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hammingDistance, simHash } from '../../src/frontier/near-duplicate.js';
import { startLoggingServer } from '../helpers/fault-server.js';
import type { LoggingServer } from '../helpers/fault-server.js';
import { page } from '../helpers/site-server.js';
import { crawl } from './crawl.js';
import type { CrawlResult } from './crawl.js';

log.setLevel(LogLevel.ERROR);

/** The mozilla-archive capture (read in place, never copied: see /work/shared/corpora/README.md). */
const ARCHIVE = '/work/shared/corpora/mozilla-archive/website-archive.mozilla.org';
const NOTES = '/www.mozilla.org/firefox_releasenotes/en-US/firefox';
/** Release-note series of the flood: patch releases whose notes repeat the major release's text. */
const SERIES = /^(10\.0|17\.0|3\.5|3\.6)(\.\d+)?$/;

/** Serves the archive's HTML files as a static host would, with a hub page listing the release notes of {@link SERIES}. */
async function serveArchive(versions: string[]): Promise<LoggingServer> {
    return startLoggingServer((url) => {
        if (url.pathname === '/') {
            const links = versions.map((v) => `<li><a href="${NOTES}/${v}/releasenotes/">Firefox ${v} release notes</a></li>`).join('');
            return (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Release notes', `<main><h1>Firefox release notes</h1><ul>${links}</ul></main>`));
        }
        const file = join(ARCHIVE, decodeURIComponent(url.pathname), url.pathname.endsWith('/') ? 'index.html' : '');
        if (!file.startsWith(ARCHIVE) || !file.endsWith('.html') || !existsSync(file)) return undefined;
        return (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(readFileSync(file));
    });
}

describe.skipIf(!existsSync(join(ARCHIVE, NOTES)))('the release-note flood of mozilla-archive', () => {
    let site: LoggingServer;
    let result: CrawlResult;
    let versions: string[];

    beforeAll(async () => {
        versions = readdirSync(join(ARCHIVE, NOTES)).filter((v) => SERIES.test(v) && existsSync(join(ARCHIVE, NOTES, v, 'releasenotes', 'index.html')));
        site = await serveArchive(versions);
        result = await crawl({ mode: 'http', startUrls: [`${site.url}/`], maxPages: versions.length + 1, maxConcurrency: 4, stop: 'never' });
    }, 180_000);
    afterAll(async () => site?.close());

    it('delivers each near-identical release note once and says which delivered page it repeats', () => {
        const notes = (paths: string[]) => paths.filter((p) => p.includes('/releasenotes/'));
        expect(notes(site.requests.map((r) => r.path))).toHaveLength(versions.length);
        const { duplicates } = result.report;
        console.log(`mozilla-archive: ${versions.length} release notes fetched, ${notes(result.delivered).length} delivered, ${duplicates.length} near-duplicates held back`);
        expect(duplicates.length).toBeGreaterThanOrEqual(5);
        const delivered = new Set(result.items.map((item) => item.url));
        for (const { url, duplicateOf } of duplicates) {
            expect(delivered.has(duplicateOf), duplicateOf).toBe(true);
            expect(delivered.has(url), url).toBe(false);
        }
        expect(delivered.size + duplicates.length).toBe(versions.length + 1);
    });

    it('leaves no two delivered pages within the near-duplicate distance', () => {
        const hashes = result.items.map((item) => simHash(item.markdown)).filter((h): h is string => h !== null);
        expect(hashes.length).toBeGreaterThan(10);
        for (let i = 0; i < hashes.length; i++) for (let j = i + 1; j < hashes.length; j++) expect(hammingDistance(hashes[i]!, hashes[j]!)).toBeGreaterThan(3);
    });
});
