import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { KeyValueStore, LogLevel, log } from 'crawlee';
import { describe, expect, it } from 'vitest';

import { startDemoSite } from '../../src/cli/demo-site.js';
import { createFocusedCrawler, learnedRules, templateGlob } from '../../src/index.js';
import type { LearnedRules } from '../../src/index.js';
import { UrlGlobs } from '../../src/url/globs.js';

log.setLevel(LogLevel.ERROR);

describe('learnedRules', () => {
    it('turns trap templates and failing parts into globs over whole URLs, and rewrite rules into patterns', () => {
        expect(templateGlob('e.edu/events/calendar/#/#')).toBe('*://e.edu/events/calendar/*/*');
        expect(templateGlob('e.edu/papers.html?filter&search')).toBe('*://e.edu/papers.html[?]*');
        expect(templateGlob('e.org/keyword_*.html')).toBe('*://e.org/keyword_*.html');
        expect(templateGlob('e.org/guide/#/', { part: true })).toBe('*://e.org/guide/*/**');
        expect(templateGlob('e.edu/events/calendar/?month')).toBe('*://e.edu/events/calendar/[?]*');
        expect(templateGlob('forum.e.org')).toBe('*://forum.e.org/**');
        const globs = new UrlGlobs([], [templateGlob('e.edu/events/calendar/#/#'), templateGlob('e.edu/papers.html?filter&search')]);
        expect(globs.verdict('https://e.edu/events/calendar/2024/05')).toBe('excluded-by-glob');
        expect(globs.verdict('https://e.edu/papers.html?filter=title&search=x')).toBe('excluded-by-glob');
        expect(globs.verdict('https://e.edu/papers.html')).toBeNull();
        const rules = learnedRules({ traps: [], failing: [], rewriteRules: [{ host: 'e.edu', kind: 'drop-param-value', name: 'print', value: '1', support: 2 }] });
        const [rule] = rules.rewriteRules;
        expect('https://e.edu/a?print=1'.replace(new RegExp(rule!.pattern), rule!.replacement)).toBe('https://e.edu/a');
        const [extension] = learnedRules({ traps: [], failing: [], rewriteRules: [{ host: 'e.edu', kind: 'drop-extension', extension: '.html', support: 2 }] }).rewriteRules;
        const drop = (url: string) => url.replace(new RegExp(extension!.pattern, 'i'), extension!.replacement);
        expect([drop('https://e.edu/a/b.html'), drop('https://e.edu/a/b.html?x=1'), drop('https://e.edu/a/.html')]).toEqual(['https://e.edu/a/b', 'https://e.edu/a/b?x=1', 'https://e.edu/a/.html']);
    });

    it('writes LEARNED_RULES, and its globs pasted into the next run keep that run out of the trap from the start', async () => {
        const site = await startDemoSite();
        try {
            const crawl = async (excludeUrlGlobs: string[]) => {
                const before = site.requests.length;
                const focused = await createFocusedCrawler({ mode: 'http', startUrls: [site.url], query: 'robotics research', maxPages: 60, maxConcurrency: 2, stop: 'never', excludeUrlGlobs, storageDir: mkdtempSync(join(tmpdir(), 'cf-rules-')) });
                await focused.run();
                const rules = await (await KeyValueStore.open(undefined, { config: focused.focus.config })).getValue<LearnedRules>('LEARNED_RULES');
                return { rules: rules!, paths: site.requests.slice(before).map((r) => r.path) };
            };
            const first = await crawl([]);
            expect(first.rules.excludeUrlGlobs.map((g) => g.glob)).toContainEqual(expect.stringContaining('/events/calendar/'));
            expect(first.rules.rewriteRules.map((r) => r.pattern)).toContainEqual(expect.stringContaining('print'));
            const learned = new UrlGlobs([], first.rules.excludeUrlGlobs.map((g) => g.glob));
            const inTraps = (paths: string[]) => paths.filter((path) => learned.verdict(new URL(path, site.url).href) !== null);
            expect(inTraps(first.paths).length).toBeGreaterThan(0); // the first run fetched a few before it learned
            const second = await crawl(first.rules.excludeUrlGlobs.map((g) => g.glob));
            expect(inTraps(second.paths)).toEqual([]);
        } finally {
            await site.close();
        }
    }, 120_000);
});
