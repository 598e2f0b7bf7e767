import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { main } from '../../src/cli/main.js';
import { captureConsole } from '../helpers/console-capture.js';
import { startLoggingServer } from '../helpers/fault-server.js';

const ROOT = join(import.meta.dirname, '..', '..');

const capture = captureConsole;

describe('crawlee-focus command line', () => {
    afterEach(() => vi.restoreAllMocks());

    it('prints usage with --help and exits 0', async () => {
        const { out } = capture();
        expect(await main(['--help'])).toBe(0);
        expect(out.join('\n')).toContain('crawlee-focus crawl <url...>');
    });

    it.each([
        [['crawl'], 'at least one start URL'],
        [['crawl', 'not a url'], 'not an absolute URL'],
        [['crawl', 'ftp://example.com/'], 'not an http(s) URL'],
        [['crawl', 'http://127.0.0.1:9/', '--max-pages', 'ten'], '--max-pages must be a whole number'],
        [['crawl', 'http://127.0.0.1:9/', '--mode', 'turbo'], '--mode must be browser, http or adaptive'],
        [['crawl', 'http://127.0.0.1:9/', '--stop', 'sometimes'], '--stop must be adaptive or never'],
        [['crawl', 'http://127.0.0.1:9/', '--frobnicate'], "Unknown option '--frobnicate'"],
        [['crawl', 'http://127.0.0.1:9/', '--stall-timeout', '0'], '--stall-timeout must be a whole number ≥ 1'],
        [['crawl', 'http://127.0.0.1:9/', '--min-concurrency', '0'], '--min-concurrency must be a whole number ≥ 1'],
        [['crawl', 'http://127.0.0.1:9/', '--concurrency', '2', '--min-concurrency', '4'], '--min-concurrency (4) may not exceed --concurrency (2)'],
        [['crawl', 'http://127.0.0.1:9/', '--report-html', '/no/such/folder/report.html'], '--report-html: the folder of "/no/such/folder/report.html" does not exist'],
        [['fly'], 'unknown command "fly"'],
        [['crawl', 'http://127.0.0.1:9/', '--redis', 'redis://127.0.0.1:9'], '--redis and --crawl-id go together'],
        [['crawl', 'http://127.0.0.1:9/', '--crawl-id', 'docs'], '--redis and --crawl-id go together'],
        [['crawl', 'http://127.0.0.1:9/', '--redis', '127.0.0.1:6379', '--crawl-id', 'docs'], '--redis must be a redis:// URL'],
        [['crawl', 'http://127.0.0.1:9/', '--redis', 'redis://127.0.0.1:9', '--crawl-id', 'a b{c}'], '--crawl-id may hold letters, digits and -_.: only'],
        [['status'], 'status needs --redis <url> and --crawl-id <name>'],
        [['status', '--crawl-id', 'docs'], '--redis and --crawl-id go together'],
    ])('rejects %j with exit code 2 and a clear message', async (argv, message) => {
        const { err } = capture();
        expect(await main(argv)).toBe(2);
        expect(err.join('\n')).toContain(message);
    });

    it('exits with code 3 when the crawl stalls, and says how to resume it', async () => {
        // robots.txt never answers (the fetcher gives up after 10 s): every page waits, nothing moves
        const site = await startLoggingServer((url) => (url.pathname === '/robots.txt' ? () => undefined : undefined));
        try {
            const { out, err } = capture();
            const storage = mkdtempSync(join(tmpdir(), 'cf-cli-'));
            expect(await main(['crawl', `${site.url}/`, '--mode', 'http', '--stall-timeout', '1', '--json', '--storage', storage])).toBe(3);
            expect(JSON.parse(out.at(-1)!).stopReason).toBe('stalled');
            expect(err.join('\n')).toContain('run the same command again to resume it');
        } finally {
            await site.close();
        }
    }, 60_000);

    it('crawls in adaptive mode when no --mode is given: a static site is read over plain HTTP once its pages proved static', async () => {
        const links = Array.from({ length: 9 }, (_, i) => `<li><a href="/guide/${i + 1}.html">Telescope optics guide ${i + 1}</a></li>`).join('');
        const body = (title: string, more = '') => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>Telescope optics: mirrors, lenses and eyepieces for amateur astronomers.</p>${more}</body></html>`;
        const site = await startLoggingServer((url) => {
            if (url.pathname === '/robots.txt') return (_req, res) => void res.writeHead(404).end();
            const text = url.pathname === '/' ? body('Telescope optics', `<ul>${links}</ul>`) : /^\/guide\/\d+\.html$/.test(url.pathname) ? body(`Guide ${url.pathname}`) : null;
            return text === null ? undefined : (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(text);
        });
        try {
            const { out } = capture();
            const storage = mkdtempSync(join(tmpdir(), 'cf-cli-'));
            expect(await main(['crawl', `${site.url}/`, '--query', 'telescope optics', '--max-pages', '10', '--stop', 'never', '--json', '--storage', storage])).toBe(0);
            const report = JSON.parse(out.at(-1)!);
            expect(report.pagesFetched).toBe(10);
            // Chromium checked the first pages of each neighbourhood; the rest came over plain HTTP (browser mode: none).
            expect(report.rendering.browser).toBeGreaterThanOrEqual(1);
            expect(report.rendering.http).toBeGreaterThanOrEqual(1);
            expect(report.rendering.browser + report.rendering.http).toBe(10);
        } finally {
            await site.close();
        }
    }, 120_000);

    it('runs the demo, prints the report as JSON on the last line with --json and writes the report page with --report-html', async () => {
        const { out } = capture();
        const storage = mkdtempSync(join(tmpdir(), 'cf-cli-'));
        const page = join(storage, 'report.html');
        expect(await main(['demo', '--mode', 'http', '--max-pages', '15', '--json', '--storage', storage, '--report-html', page])).toBe(0);
        const report = JSON.parse(out.at(-1)!);
        expect(report.pagesFetched).toBeLessThanOrEqual(15);
        expect(report.relevantPages).toBeGreaterThan(0);
        expect(typeof report.stopReason).toBe('string');
        // the same page as the key-value store's REPORT.html, made from this report
        const html = readFileSync(page, 'utf8');
        const embedded = (text: string) => JSON.parse(/<script type="application\/json" id="focus-report">(.*?)<\/script>/s.exec(text)![1]!);
        expect(embedded(html)).toEqual(report);
        expect(embedded(readFileSync(join(storage, 'key_value_stores', 'default', 'REPORT.html'), 'utf8'))).toEqual(report);
        expect(html).toContain(`data-figure="pagesFetched">${report.pagesFetched}<`);
    }, 60_000);

    it('serves the demo site with serve-demo until it is stopped', async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', '-e', "import('./src/cli/main.ts').then((m) => m.main(['serve-demo', '--port', '0'])).then((code) => process.exit(code))"], { cwd: ROOT });
        const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
        try {
            const line = await new Promise<string>((resolve, reject) => {
                let out = '';
                child.stdout.on('data', (chunk) => {
                    out += chunk;
                    if (out.includes('\n')) resolve(out);
                });
                child.on('close', () => reject(new Error(`serve-demo ended: ${out}`)));
            });
            const url = /Demo site on (\S+) /.exec(line)![1]!;
            const response = await fetch(url);
            expect(response.status).toBe(200);
            expect(await response.text()).toContain('<html');
        } finally {
            child.kill('SIGTERM');
        }
        expect(await closed).toBe(0);
    }, 60_000);
});
