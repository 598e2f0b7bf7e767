import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { page } from './site-server.js';

/** One request as the server saw it: enough to check scope, politeness and the user agent afterwards. */
export interface SeenRequest {
    /** Path with query. */
    path: string;
    /** The Host header (`127.0.0.1:port` or `localhost:port`). */
    host: string;
    userAgent: string;
    /** When the request arrived (ms since epoch). */
    at: number;
    /** When the answer was finished or the connection dropped (ms since epoch); `null` while open. */
    endedAt: number | null;
}

/** A local HTTP server with its request log. */
export interface LoggingServer {
    url: string;
    requests: SeenRequest[];
    /** Requests of a path (with query) so far. */
    hits(path: string): number;
    close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

/** Every hostile route of the fault server, by what it does. */
export const FAULT_ROUTES = {
    error500: '/fault/error-500',
    retryAfter503: '/fault/busy-503',
    resetMidBody: '/fault/reset-mid-body',
    /** The first request's connection is reset before any answer; the next gets the page (a transient network fault). */
    resetOnce: '/fault/reset-once',
    neverEnds: '/fault/never-ends',
    slowFirstByte: '/fault/slow-first-byte',
    redirectLoop: '/fault/redirect-loop',
    redirectOtherHost: '/fault/redirect-other-host',
    redirectSameServerOtherName: '/fault/redirect-localhost',
    redirectNonHttp: '/fault/redirect-file-scheme',
    huge: '/fault/huge',
    binary: '/fault/binary',
    wrongCharset: '/fault/wrong-charset',
    hostileLinks: '/fault/hostile-links',
    jsThrows: '/fault/js-throws',
    neverSettles: '/fault/never-settles',
} as const;

/** Entry points of the four infinite traps. */
export const TRAP_ROUTES = {
    calendar: '/trap/calendar?month=2024-01',
    sessionIds: '/trap/shop/catalog',
    pagination: '/trap/list?page=1',
    relativeExplosion: '/trap/rel/',
} as const;

/** Which trap a fetched path belongs to (`null` for normal pages). */
export function trapOf(path: string): keyof typeof TRAP_ROUTES | null {
    if (path.startsWith('/trap/calendar')) return 'calendar';
    if (path.startsWith('/trap/shop')) return 'sessionIds';
    if (path.startsWith('/trap/list')) return 'pagination';
    if (path.startsWith('/trap/rel/')) return 'relativeExplosion';
    return null;
}

export interface FaultServerOptions {
    /** Normal pages (`/normal/1` …), a tree under the home page. @default 30 */
    normalPages?: number;
    /** Links from each normal page to the next level of the tree (a small fan-out makes a deep site). @default 10 */
    fanout?: number;
    /** Link the hostile routes from the home page. @default true */
    faults?: boolean;
    /** Link the traps from the home page and from every normal page. @default true */
    traps?: boolean;
    /** Body of /robots.txt; without it, 404. @default undefined */
    robotsTxt?: string;
    /** Size of the huge page. @default 20 MiB */
    hugeBytes?: number;
    /** How long the slow route waits before its first byte. @default 10_000 */
    slowFirstByteMillis?: number;
}

export interface FaultServer extends LoggingServer {
    /** The "other host": a second server, addressed as `localhost`, that no crawl of {@link url} may reach. */
    other: LoggingServer;
    /** Paths of the normal pages. */
    normalPaths: string[];
    /** Words every normal page has (the focused crawls' query). */
    topic: string;
}

const TOPIC = 'telescope optics';

/** Starts a server on 127.0.0.1 that logs every request; a route may return `false` to answer 404. */
export async function startLoggingServer(route: (url: URL) => Handler | undefined, host = '127.0.0.1'): Promise<LoggingServer> {
    const requests: SeenRequest[] = [];
    const sockets = new Set<import('node:net').Socket>();
    const server: Server = createServer(async (req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const seen: SeenRequest = { path: url.pathname + url.search, host: req.headers.host ?? '', userAgent: req.headers['user-agent'] ?? '', at: Date.now(), endedAt: null };
        requests.push(seen);
        const end = () => (seen.endedAt ??= Date.now());
        res.on('close', end);
        const handler = route(url);
        try {
            if (!handler) res.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found', '<h1>Not found</h1>'));
            else await handler(req, res, url);
        } catch (error) {
            if (!res.headersSent) res.writeHead(500).end(String(error));
        }
    });
    server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
        url: `http://${host}:${port}`,
        requests,
        hits: (path) => requests.filter((r) => r.path === path).length,
        close: () =>
            new Promise<void>((resolve) => {
                for (const socket of sockets) socket.destroy();
                server.close(() => resolve());
            }),
    };
}

const html = (body: string, status = 200, headers: Record<string, string> = {}): Handler => (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
};

function normalPage(i: number, count: number, fanout: number, withTraps: boolean): string {
    const children = Array.from({ length: fanout }, (_, k) => fanout * i + k + 1).filter((k) => k < count);
    const links = children.map((k) => `<li><a href="/normal/${k}">Telescope optics guide ${k}</a></li>`).join('');
    const traps = withTraps ? trapLinks() : '';
    return page(
        `Telescope optics guide ${i}`,
        `<main><h1>Telescope optics guide ${i}</h1><p>Chapter ${i} of the telescope optics guide: lenses, mirrors and eyepieces, ` +
            `with notes ${wordsFor(i)}.</p><ul>${links}</ul></main><footer>${traps}</footer>`,
    );
}

/** A few words unique to page `i`, so no two normal pages share their text. */
function wordsFor(i: number): string {
    const syllables = ['ka', 'lo', 'mi', 'ne', 'pu', 'ra', 'si', 'tu', 'vo', 'ze'];
    const word = String(i)
        .split('')
        .map((d) => syllables[Number(d)])
        .join('');
    return `${word} ${word}x ${word}y`;
}

function trapLinks(): string {
    return [
        `<a href="${TRAP_ROUTES.calendar}">Events calendar</a>`,
        `<a href="/trap/shop/catalog?sessid=${sessionId()}">Shop</a>`,
        `<a href="${TRAP_ROUTES.pagination}">All items</a>`,
        `<a href="${TRAP_ROUTES.relativeExplosion}">Archive</a>`,
    ].join(' ');
}

function sessionId(): string {
    return randomBytes(12).toString('hex');
}

function nextMonth(month: string, delta: number): string {
    const [y, m] = month.split('-').map(Number) as [number, number];
    const date = new Date(Date.UTC(y, m - 1 + delta, 1));
    return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

const ITEMS = Array.from({ length: 10 }, (_, i) => `<li>Item ${i}: a folding chair in oak</li>`).join('');

function trapRoute(url: URL): Handler | undefined {
    const path = url.pathname;
    if (path === '/trap/calendar') {
        const month = /^\d{4}-\d{2}$/.test(url.searchParams.get('month') ?? '') ? url.searchParams.get('month')! : '2024-01';
        return html(
            page(`Events ${month}`, `<main><h1>Events in ${month}</h1><p>No events this month.</p>` +
                `<a href="?month=${nextMonth(month, -1)}">Previous month</a> <a href="?month=${nextMonth(month, 1)}">Next month</a></main>`),
        );
    }
    if (path === '/trap/shop/catalog') {
        // Every link carries a fresh session id the URL cleaner does not know: only repeated content gives it away.
        const links = ['Home', 'Catalog', 'Refresh'].map((anchor) => `<a href="/trap/shop/catalog?sessid=${sessionId()}">${anchor}</a>`).join(' ');
        return html(page('Shop', `<main><h1>Shop</h1><p>Furniture for every room, delivered to your door.</p>${links}</main>`));
    }
    if (path === '/trap/list') {
        const n = Math.max(1, Number(url.searchParams.get('page')) || 1);
        return html(page('All items', `<main><h1>All items</h1><ul>${ITEMS}</ul><a href="/trap/list?page=${n + 1}">Next page</a></main>`));
    }
    if (path.startsWith('/trap/rel/')) {
        // The same page at every depth, with relative links that grow the path: a/b/a/b/…
        return html(page('Archive', '<main><h1>Archive</h1><p>Older material of the society.</p><a href="a/">Section A</a> <a href="b/">Section B</a></main>'));
    }
    return undefined;
}

function hostileLinks(otherUrl: string): string {
    const longPath = `/long/${'x'.repeat(10_240)}`;
    const links = [
        'javascript:alert(1)',
        'javascript:void(0)',
        'data:text/html,<h1>hi</h1>',
        'file:///etc/passwd',
        'mailto:someone@example.com',
        '/bad%zz%',
        '/half-escape%E2%8',
        longPath,
        'http://bücher.example/katalog',
        'http://xn--bcher-kva.example/',
        'http://[::1',
        'http://',
        `${otherUrl}/linked-directly`,
    ];
    return page('Hostile links', `<main><h1>Hostile links</h1><p>A page whose links are all broken or dangerous.</p><ul>${links.map((href, i) => `<li><a href="${href.replace(/"/g, '&quot;')}">Link ${i}</a></li>`).join('')}</ul></main>`);
}

function faultRoute(url: URL, options: Required<Omit<FaultServerOptions, 'robotsTxt'>>, servers: { other: () => string; selfPort: () => number; busyCalls: number; resetCalls: number }): Handler | undefined {
    switch (url.pathname) {
        case FAULT_ROUTES.error500:
            return html(page('Error', '<h1>Internal error</h1>'), 500);
        case FAULT_ROUTES.retryAfter503:
            return (req, res) => {
                servers.busyCalls += 1;
                if (servers.busyCalls === 1) res.writeHead(503, { 'retry-after': '2', 'content-type': 'text/html' }).end(page('Busy', '<h1>Busy</h1>'));
                else html(page('Recovered', '<main><h1>Recovered</h1><p>The telescope optics service is back after a short rest.</p></main>'))(req, res, url);
            };
        case FAULT_ROUTES.resetOnce:
            return (req, res) => {
                servers.resetCalls += 1;
                if (servers.resetCalls === 1) req.socket.destroy();
                else html(page('Reconnected', '<main><h1>Reconnected</h1><p>The telescope optics notes load on the second try.</p></main>'))(req, res, url);
            };
        case FAULT_ROUTES.resetMidBody:
            return (_req, res) => {
                res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': '100000' });
                res.write(`<!doctype html><html><head><title>Reset</title></head><body><main><h1>Reset</h1><p>${'Half a page. '.repeat(200)}`);
                setTimeout(() => res.socket?.destroy(), 50);
            };
        case FAULT_ROUTES.neverEnds:
            return (_req, res) => {
                res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
                res.write('<!doctype html><html><head><title>Endless</title></head><body><main><h1>Endless</h1>');
                const timer = setInterval(() => res.write('<p>more</p>'), 200);
                res.on('close', () => clearInterval(timer));
            };
        case FAULT_ROUTES.slowFirstByte:
            return (_req, res) => {
                const timer = setTimeout(() => html(page('Slow', '<main><h1>Slow</h1><p>Finally.</p></main>'))(_req, res, url), options.slowFirstByteMillis);
                res.on('close', () => clearTimeout(timer));
            };
        case FAULT_ROUTES.redirectLoop:
        case `${FAULT_ROUTES.redirectLoop}-b`:
            return (_req, res) => {
                res.writeHead(302, { location: url.pathname.endsWith('-b') ? FAULT_ROUTES.redirectLoop : `${FAULT_ROUTES.redirectLoop}-b` }).end();
            };
        case FAULT_ROUTES.redirectOtherHost:
            return (_req, res) => void res.writeHead(302, { location: `${servers.other()}/landing` }).end();
        case FAULT_ROUTES.redirectSameServerOtherName:
            return (_req, res) => void res.writeHead(301, { location: `http://localhost:${servers.selfPort()}/normal/0?via=localhost` }).end();
        case FAULT_ROUTES.redirectNonHttp:
            return (_req, res) => void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
        case FAULT_ROUTES.huge:
            return (_req, res) => {
                res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
                const paragraph = '<p>Huge page paragraph about telescope optics, repeated to fill twenty megabytes of markup.</p>\n';
                res.write('<!doctype html><html><head><title>Huge page</title></head><body><main><h1>Huge page</h1>');
                const chunk = paragraph.repeat(Math.ceil(65_536 / paragraph.length));
                let sent = 0;
                const pump = () => {
                    while (sent < options.hugeBytes) {
                        sent += chunk.length;
                        if (!res.write(chunk)) return void res.once('drain', pump);
                    }
                    res.end('</main></body></html>');
                };
                pump();
            };
        case FAULT_ROUTES.binary:
            return (_req, res) => {
                // Deterministic noise with NUL bytes, as a JPEG or a ZIP served with the wrong type would be.
                const bytes = Buffer.alloc(200_000);
                for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + (i >> 3) * 131) & 0xff;
                res.writeHead(200, { 'content-type': 'text/html' }).end(bytes);
            };
        case FAULT_ROUTES.wrongCharset:
            return (_req, res) => {
                // Latin-1 bytes under a UTF-8 label: é and è are invalid UTF-8.
                const body = page('Wrong charset', '<main><h1>Wrong charset</h1><p>Caf\u00e9 cr\u00e8me and telescope optics at the caf\u00e9.</p></main>');
                res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(Buffer.from(body.replace('charset="utf-8"', ''), 'latin1'));
            };
        case FAULT_ROUTES.hostileLinks:
            return html(hostileLinks(servers.other()));
        case FAULT_ROUTES.jsThrows:
            return html(
                page('Script error', '<main><h1>Script error</h1><p>This page has telescope optics notes; its script throws.</p><ul id="list"></ul></main>',
                    "<script>document.addEventListener('DOMContentLoaded', () => { document.getElementById('list').innerHTML = '<li><a href=\"/normal/1\">Guide 1</a></li>'; throw new Error('boom'); }); null.property;</script>"),
            );
        case FAULT_ROUTES.neverSettles:
            return html(
                page('Busy page', '<main><h1>Busy page</h1><p>Telescope optics ticker that never stops.</p><ol id="ticks"></ol></main>',
                    "<script>let n = 0; setInterval(() => { fetch('/api/tick?n=' + (n++)).catch(() => {}); const li = document.createElement('li'); li.textContent = 'tick ' + n; document.addEventListener('DOMContentLoaded', () => {}); document.getElementById('ticks')?.append(li); }, 50);</script>"),
            );
        case '/api/tick':
            return (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        default:
            return undefined;
    }
}

/**
 * A site on 127.0.0.1 with normal pages, every hostile behaviour of issue 6 and four infinite traps, plus a second
 * server (the "other host", addressed as `localhost`) that redirects point to.
 */
export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
    const settings = {
        normalPages: options.normalPages ?? 30,
        fanout: options.fanout ?? 10,
        faults: options.faults ?? true,
        traps: options.traps ?? true,
        hugeBytes: options.hugeBytes ?? 20 * 1024 * 1024,
        slowFirstByteMillis: options.slowFirstByteMillis ?? 10_000,
    };
    const other = await startLoggingServer(
        (url) => html(page('Other host', `<main><h1>Other host</h1><p>You left the crawl at ${url.pathname}.</p></main>`)),
        'localhost',
    );
    let selfPort = 0;
    // The 503 route answers 503 (Retry-After: 2) once, then 200.
    const state = { other: () => other.url, selfPort: () => selfPort, busyCalls: 0, resetCalls: 0 };
    const normalPaths = Array.from({ length: settings.normalPages }, (_, i) => `/normal/${i}`);
    const main = await startLoggingServer((url) => {
        if (url.pathname === '/robots.txt') return options.robotsTxt === undefined ? undefined : (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end(options.robotsTxt);
        if (url.pathname === '/') {
            const faults = settings.faults ? Object.values(FAULT_ROUTES).map((p) => `<li><a href="${p}">Fault ${p}</a></li>`).join('') : '';
            const normal = Array.from({ length: Math.min(settings.fanout, settings.normalPages - 1) }, (_, k) => `<li><a href="/normal/${k + 1}">Telescope optics guide ${k + 1}</a></li>`).join('');
            return html(page('Telescope optics', `<main><h1>Telescope optics</h1><p>The telescope optics guide.</p><ul>${normal}</ul><ul>${faults}</ul></main><footer>${settings.traps ? trapLinks() : ''}</footer>`));
        }
        const normal = /^\/normal\/(\d+)$/.exec(url.pathname);
        if (normal) {
            const i = Number(normal[1]);
            return i > 0 && i < settings.normalPages ? html(normalPage(i, settings.normalPages, settings.fanout, settings.traps)) : undefined;
        }
        if (settings.traps) {
            const trap = trapRoute(url);
            if (trap) return trap;
        }
        return settings.faults ? faultRoute(url, settings, state) : undefined;
    });
    selfPort = Number(new URL(main.url).port);
    return {
        ...main,
        other,
        normalPaths: normalPaths.slice(1),
        topic: TOPIC,
        close: async () => {
            await Promise.all([main.close(), other.close()]);
        },
    };
}
