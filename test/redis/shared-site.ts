// A site for crawls shared by several workers: a tree of pages about one topic, each answered late, with an access log
// that names the worker (by its User-Agent) and knows which requests each worker has open.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { page } from '../helpers/site-server.js';

export const SHARED_SITE_QUERY = 'solar panels';

export interface SharedSite {
    url: string;
    /** Page requests in order (robots.txt and the like left out), with the User-Agent that sent them. */
    hits: Array<{ path: string; agent: string }>;
    /** Page requests received and not yet answered, per User-Agent. */
    open(agent: string): number;
    close(): Promise<void>;
}

/** Words for the pages' text: each page gets its own mix, so that no two pages are near-duplicates. */
const WORDS = (
    'cell wafer inverter roof grid battery silicon module array mount tilt sunlight output watt efficiency storage ' +
    'installer warranty panel bifacial monocrystalline polycrystalline thin film string micro optimizer meter net export ' +
    'tariff shade orientation azimuth irradiance yield degradation frame glass junction cable connector rail flashing'
).split(' ');

function textOf(i: number): string {
    let seed = (i + 1) * 2654435761;
    const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % WORDS.length;
    const sentences: string[] = [];
    for (let s = 0; s < 8; s++) {
        const words = Array.from({ length: 9 }, () => WORDS[next()]);
        sentences.push(`Solar panels ${i}-${s}: ${words.join(' ')}.`);
    }
    return sentences.join(' ');
}

/**
 * Page `/p<i>` links its three children `/p<3i+1>` … and its parent (a duplicate link to dedup). With `missingEvery`,
 * every page whose number is a multiple of it (but the first) is linked and answers 404.
 */
export async function startSharedSite({ pages = 400, latencyMillis = 300, missingEvery = 0 } = {}): Promise<SharedSite> {
    const hits: SharedSite['hits'] = [];
    const openByAgent = new Map<string, number>();
    const server: Server = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const match = /^\/p(\d+)$/.exec(url.pathname);
        const i = match ? Number(match[1]) : -1;
        const missing = missingEvery > 0 && i > 0 && i % missingEvery === 0;
        if (i < 0 || i >= pages || missing) {
            res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
            return;
        }
        const agent = String(req.headers['user-agent'] ?? '');
        hits.push({ path: url.pathname, agent });
        openByAgent.set(agent, (openByAgent.get(agent) ?? 0) + 1);
        let closed = false;
        const done = () => {
            if (closed) return;
            closed = true;
            openByAgent.set(agent, openByAgent.get(agent)! - 1);
        };
        const links = [3 * i + 1, 3 * i + 2, 3 * i + 3, Math.floor((i - 1) / 3)]
            .filter((k) => k >= 0 && k < pages && k !== i)
            .map((k) => `<a href="/p${k}">Solar panels, part ${k}</a>`)
            .join(' ');
        const timer = setTimeout(() => {
            done();
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`Solar panels ${i}`, `<main><h1>Solar panels, part ${i}</h1><p>${textOf(i)}</p><nav>${links}</nav></main>`));
        }, latencyMillis);
        res.on('close', () => {
            clearTimeout(timer);
            done();
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        hits,
        open: (agent) => openByAgent.get(agent) ?? 0,
        close: () =>
            new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}
