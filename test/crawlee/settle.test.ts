import type { ServerResponse } from 'node:http';

import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { changedAfterLoad, CHROMIUM_ARGS, chromiumExecutable, hasPendingData, settleRenderedPage, trackDataRequests, trackDomChanges, waitForLoad } from '../../src/crawlee/browser.js';
import { page, startSite } from '../helpers/site-server.js';
import type { TestSite } from '../helpers/site-server.js';

describe('settleRenderedPage', () => {
    let site: TestSite;
    let thirdParty: TestSite;
    let browser: Browser;
    /** Answers held open by the third-party host: it never answers while the test runs. */
    const held: ServerResponse[] = [];
    beforeAll(async () => {
        thirdParty = await startSite({ '/collect': (_req, res) => void held.push(res) });
        const beacon = `${thirdParty.url.replace('127.0.0.1', 'localhost')}/collect`;
        const script = `fetch('/api/items.json').then((r) => r.json()).then((items) => {
            document.getElementById('list').innerHTML = items.map((i) => '<li><a href="/item/' + i + '">Item ' + i + '</a></li>').join('');
        }); fetch(${JSON.stringify(beacon)}, { mode: 'no-cors' }).catch(() => {});`;
        site = await startSite({
            '/': page('Items', `<main><h1>Items</h1><ul id="list"></ul></main><script>${script}</script>`),
            '/api/items.json': (_req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('[1,2,3]'), 300),
            '/late': page('Late', `<main><h1>Late</h1><p id="late"></p></main><script>window.addEventListener('load', () => setTimeout(() => { document.getElementById('late').innerHTML = '<a href="/item/9">Item 9</a>'; }, 150));</script>`),
            '/still': page('Still', '<main><h1>Still</h1><p><a href="/item/1">Item 1</a></p></main>'),
            // Data that arrives after load, turned into links 2 s later.
            '/built-later': page('Built later', `<main><ul id="list"></ul></main><script>fetch('/api/items.json').then((r) => r.json()).then((items) => setTimeout(() => {
                document.getElementById('list').innerHTML = items.map((i) => '<li><a href="/item/' + i + '">Item ' + i + '</a></li>').join('');
            }, 2000));</script>`),
        });
        browser = await chromium.launch({ executablePath: chromiumExecutable(), args: [...CHROMIUM_ARGS], headless: true });
    });
    afterAll(async () => {
        await browser?.close();
        for (const res of held) res.destroy();
        await site?.close();
        await thirdParty?.close();
    });

    it("waits for the site's own data, not for another host's request that never ends", async () => {
        const tab = await browser.newPage();
        try {
            trackDataRequests(tab, (url) => new URL(url).hostname === '127.0.0.1');
            await tab.goto(`${site.url}/`, { waitUntil: 'domcontentloaded' });
            await settleRenderedPage(tab, { quietMillis: 100, timeoutMillis: 60_000 });
            // The list the page builds from its own site's data is there...
            expect(await tab.$$eval('#list a', (links) => links.length)).toBe(3);
            // ...while the third-party request is still open: the settle step did not wait for it.
            expect(thirdParty.requests).toContain('/collect');
            expect(held.every((res) => !res.writableEnded)).toBe(true);
        } finally {
            await tab.close();
        }
    }, 30_000); // below the settle timeout: a settle step that waited for the beacon would fail the test

    it('tells a page read at its load event that changed after it: data still coming, data just in, or a later change', async () => {
        const tab = await browser.newPage();
        try {
            trackDataRequests(tab, (url) => new URL(url).hostname === '127.0.0.1');
            await trackDomChanges(tab);
            await tab.goto(`${site.url}/built-later`, { waitUntil: 'domcontentloaded' });
            await waitForLoad(tab, 5_000);
            expect(await changedAfterLoad(tab, 250)).toBe(true); // its data comes 300 ms after the request
            while (hasPendingData(tab)) await new Promise((resolve) => setTimeout(resolve, 10));
            // The data is in and its list not built yet: no change after load so far, but the data is recent.
            expect(await tab.$$eval('#list a', (links) => links.length)).toBe(0);
            expect(await changedAfterLoad(tab, 60_000)).toBe(true);
            await tab.waitForSelector('#list a');
            await new Promise((resolve) => setTimeout(resolve, 300));
            expect(await changedAfterLoad(tab, 250)).toBe(true); // the list came after load
            await tab.goto(`${site.url}/still`, { waitUntil: 'domcontentloaded' });
            await waitForLoad(tab, 5_000);
            expect(await changedAfterLoad(tab, 250)).toBe(false);
        } finally {
            await tab.close();
        }
    }, 30_000);

    it('reads what a timer builds after load, and says which pages changed after their load event', async () => {
        const tab = await browser.newPage();
        try {
            await trackDomChanges(tab);
            await tab.goto(`${site.url}/late`, { waitUntil: 'domcontentloaded' });
            // The timer fires 150 ms after load, which may come before the wait starts on a loaded machine: the change
            // is still seen, from the init script's record.
            await new Promise((resolve) => setTimeout(resolve, 600));
            expect(await settleRenderedPage(tab, { quietMillis: 250, timeoutMillis: 5_000 })).toBe(true);
            expect(await tab.$$eval('#late a', (links) => links.length)).toBe(1);
            await tab.goto(`${site.url}/still`, { waitUntil: 'domcontentloaded' });
            expect(await settleRenderedPage(tab, { quietMillis: 250, timeoutMillis: 5_000 })).toBe(false);
        } finally {
            await tab.close();
        }
    }, 30_000);
});
