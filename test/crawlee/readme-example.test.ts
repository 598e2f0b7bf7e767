import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { page, startSite } from '../helpers/site-server.js';
import type { TestSite } from '../helpers/site-server.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The README's "add the frontier and the page hook to a crawler you build yourself" example, verbatim. */
function readmeExample(): string {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const example = blocks.find((b) => b.includes('FocusedCrawl.open'));
    if (!example) throw new Error('README has no FocusedCrawl.open example');
    return example;
}

describe('the README example', () => {
    let site: TestSite;
    beforeAll(async () => {
        site = await startSite({
            '/': page('Example University', '<main><h1>Welcome</h1><p>News and events.</p><a href="/news">News</a> <a href="/grad/admissions">Graduate admissions</a></main>'),
            '/news': page('News', '<main><h1>News</h1><p>The football team won.</p></main>'),
            '/grad/admissions': page('Graduate admissions', '<main><h1>Graduate admissions</h1><p>How graduate admissions work: apply for graduate admissions by January.</p></main>'),
        });
    });
    afterAll(async () => site.close());

    it('runs as written against a local site and delivers the relevant page', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'cf-readme-'));
        const code =
            readmeExample()
                .replaceAll('https://www.example.edu/', `${site.url}/`)
                .replace("from 'crawlee-focus'", `from ${JSON.stringify(join(ROOT, 'src', 'index.ts'))}`) +
            '\nconsole.log(JSON.stringify(report));\n';
        // Inside the checkout, so that 'crawlee' and tsx resolve as they would in a user's project.
        const scratch = join(ROOT, 'node_modules', '.cache', 'crawlee-focus-readme');
        mkdirSync(scratch, { recursive: true });
        const file = join(scratch, 'example.mts');
        writeFileSync(file, code);
        const { stdout } = await promisify(execFile)(process.execPath, ['--import', pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href, file], {
            cwd: dir, // Crawlee's ./storage goes here
            env: { ...process.env, CRAWLEE_LOG_LEVEL: 'WARNING' },
        });
        const report = JSON.parse(stdout.trim().split('\n').at(-1)!);
        expect(report.pagesFetched).toBe(3);
        expect(report.relevantPages).toBeGreaterThanOrEqual(1);
        const items = readFileSync(join(dir, 'storage', 'datasets', 'default', '000000001.json'), 'utf8');
        expect(items).toContain('Graduate admissions');
    }, 60_000);
});
