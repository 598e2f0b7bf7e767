import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_DEMO_SITE_ROOT, startDemoSite, type DemoSite } from '../../src/cli/demo-site.js';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../src/crawlee/browser.js';

const PROGRAM_PATHS = (JSON.parse(readFileSync(join(DEFAULT_DEMO_SITE_ROOT, 'api/programs.json'), 'utf8')) as { programs: { path: string }[] }).programs.map((p) => p.path);

let site: DemoSite;
let browser: Browser;
beforeAll(async () => {
    site = await startDemoSite();
    browser = await chromium.launch({ executablePath: chromiumExecutable(), args: [...CHROMIUM_ARGS], headless: true });
});
afterAll(async () => {
    await browser?.close();
    await site?.close();
});

describe('demo site in Chromium', () => {
    it('builds the main menu by DOMContentLoaded and the programme list after one fetch', async () => {
        const page = await browser.newPage();
        try {
            await page.goto(new URL('/graduate/programs/', site.url).href, { waitUntil: 'domcontentloaded' });
            const menu = await page.$$eval('#main-menu a', (links) => links.map((a) => a.getAttribute('href')));
            expect(menu).toContain('/graduate/');
            expect(menu.length).toBeGreaterThanOrEqual(8);

            await page.waitForSelector('#program-list[data-loaded="true"]', { timeout: 10_000 });
            const programmes = await page.$$eval('#program-list a.program-link', (links) => links.map((a) => a.getAttribute('href')));
            expect(programmes).toEqual(PROGRAM_PATHS);
            expect(site.requests.filter((r) => r.path === '/api/programs.json')).toHaveLength(1);
            expect(site.requests.every((r) => r.status === 200)).toBe(true);
        } finally {
            await page.close();
        }
    }, 60_000);
});
