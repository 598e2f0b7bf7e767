// Local HTTP server for the bundled demo site (demo/site): a small university department with the
// traps a focused crawler meets on real sites. Loopback only, no dependencies beyond Node's `http`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * The bundled demo/site folder. Resolved from this module's own location, which is two levels below the
 * package root both as source (src/cli/demo-site.ts under tsx) and compiled (dist/cli/demo-site.js).
 */
export const DEFAULT_DEMO_SITE_ROOT = fileURLToPath(new URL('../../demo/site/', import.meta.url));

export interface DemoSiteOptions {
    /**
     * TCP port to listen on; 0 lets the operating system pick a free one.
     * @default 0
     */
    port?: number;
    /**
     * Address to listen on. The server listens on this address only.
     * @default '127.0.0.1'
     */
    host?: string;
    /**
     * Folder holding the site's static files.
     * @default DEFAULT_DEMO_SITE_ROOT (the bundled demo/site folder)
     */
    root?: string;
    /**
     * Each answer waits this long first, as a remote site's would (a crawl shared by workers lasts long enough for all
     * of them to take part).
     * @default 0
     */
    latencyMillis?: number;
}

/** One request as the server answered it. */
export interface DemoSiteRequest {
    method: string;
    /** Path and query string exactly as requested, e.g. `/news/?utm_source=newsletter`. */
    path: string;
    status: number;
}

export interface DemoSite {
    /** Base URL with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
    url: string;
    /** Every request answered so far, in the order the answers were sent. */
    requests: DemoSiteRequest[];
    /** Stops listening and drops open keep-alive connections. */
    close(): Promise<void>;
}

/** Ground truth for the demo query, from demo/site/labels.json. */
export interface DemoLabels {
    /** The query the demo crawls for. */
    query: string;
    /** Site paths (`/dir/` spelling) of the pages relevant to `query`. */
    relevant: string[];
    /** How the pages were labelled. */
    how: string;
}

/** Reads the ground-truth labels of a demo site folder (the bundled one by default). */
export function demoLabels(root: string = DEFAULT_DEMO_SITE_ROOT): DemoLabels {
    const file = join(root, 'labels.json');
    let labels: Partial<DemoLabels>;
    try {
        labels = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoLabels>;
    } catch (error) {
        throw new Error(`Cannot read the demo labels at ${file} (${(error as Error).message}); reinstall crawlee-focus, whose package includes demo/.`);
    }
    if (typeof labels.query !== 'string' || !Array.isArray(labels.relevant) || typeof labels.how !== 'string') {
        throw new Error(`${file} must hold { query: string, relevant: string[], how: string }.`);
    }
    return { query: labels.query, relevant: labels.relevant, how: labels.how };
}

const CONTENT_TYPES: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.js': 'text/javascript; charset=utf-8',
    '.json': 'application/json; charset=utf-8',
    '.txt': 'text/plain; charset=utf-8',
    '.pdf': 'application/pdf',
    '.jpg': 'image/jpeg',
    '.png': 'image/png',
    '.zip': 'application/zip',
};

/** Directory of the calendar trap: its index.html is a template rendered for whatever month is asked for. */
const CALENDAR_PATH = '/events/calendar/';
/** Month shown when the calendar is requested without `?month=`: the demo site's "now". */
const DEFAULT_CALENDAR_MONTH = '2026-01';
/** `YYYY-MM`; the year may grow past four digits so that "next month" never runs out. */
const MONTH_PATTERN = /^(\d{4,})-(0[1-9]|1[0-2])$/;

/**
 * Serves the demo site on `host` (127.0.0.1 by default). Query strings are ignored for static files, so
 * `?print=1` and tracking parameters return the same bytes; `/dir/` and `/dir/index.html` are the same
 * file; `/dir` redirects to `/dir/`; `/events/calendar/?month=YYYY-MM` is rendered for any month.
 */
export async function startDemoSite(options: DemoSiteOptions = {}): Promise<DemoSite> {
    const { port = 0, host = '127.0.0.1', latencyMillis = 0 } = options;
    if (!(latencyMillis >= 0)) throw new RangeError(`latencyMillis must be a number ≥ 0, got ${latencyMillis}`);
    const root = resolve(options.root ?? DEFAULT_DEMO_SITE_ROOT);
    await stat(join(root, 'index.html')).catch(() => {
        throw new Error(`The demo site is missing: no index.html in ${root}. Pass \`root\` pointing at a demo/site folder, or reinstall crawlee-focus (its package includes demo/).`);
    });

    const requests: DemoSiteRequest[] = [];
    const server = createServer((req, res) => {
        delay(latencyMillis)
            .then(() => handle(root, req, res))
            .catch(() => send(res, 500, 'text/plain; charset=utf-8', 'Internal server error\n'))
            .finally(() => requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', status: res.statusCode }));
    });

    await new Promise<void>((resolveListen, rejectListen) => {
        server.once('error', (error: NodeJS.ErrnoException) => {
            rejectListen(new Error(`The demo site cannot listen on ${host}:${port} (${error.code ?? error.message}). Choose another port, or 0 for a free one.`));
        });
        server.listen(port, host, () => resolveListen());
    });

    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('The demo site server has no TCP address; this should not happen with a host and port.');
    const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return {
        url: `http://${hostInUrl}:${address.port}/`,
        requests,
        close: () =>
            new Promise<void>((resolveClose, rejectClose) => {
                server.close((error) => (error ? rejectClose(error) : resolveClose()));
                server.closeAllConnections();
            }),
    };
}

async function handle(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed: this site only answers GET and HEAD.\n');
    }
    const url = new URL(req.url ?? '/', 'http://demo-site.invalid');
    const path = decodePath(url.pathname);
    if (path === undefined) return notFound(root, res);
    const file = resolve(root, `.${path}`);
    if (file !== root && !file.startsWith(root + sep)) return notFound(root, res);

    const info = await stat(file).catch(() => undefined);
    if (info === undefined || (info.isFile() && path.endsWith('/'))) return notFound(root, res);
    if (info.isDirectory() && !path.endsWith('/')) {
        res.setHeader('Location', `${url.pathname}/${url.search}`);
        return send(res, 301, 'text/plain; charset=utf-8', `Moved to ${url.pathname}/\n`);
    }
    const target = info.isDirectory() ? join(file, 'index.html') : file;

    if (target === join(root, CALENDAR_PATH, 'index.html')) {
        const month = url.searchParams.get('month') ?? DEFAULT_CALENDAR_MONTH;
        if (!MONTH_PATTERN.test(month)) return notFound(root, res);
        const template = await readFile(target, 'utf8').catch(() => undefined);
        if (template === undefined) return notFound(root, res);
        return send(res, 200, CONTENT_TYPES['.html']!, renderCalendar(template, month));
    }

    const body = await readFile(target).catch(() => undefined);
    if (body === undefined) return notFound(root, res);
    send(res, 200, CONTENT_TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream', body);
}

/** Percent-decodes a URL path; undefined for malformed escapes or NUL bytes, which no file can match. */
function decodePath(pathname: string): string | undefined {
    try {
        const path = decodeURIComponent(pathname);
        return path.includes('\0') ? undefined : path;
    } catch {
        return undefined;
    }
}

/** Fills the calendar template; pages for different months differ only in their digits. */
function renderCalendar(template: string, month: string): string {
    const values: Record<string, string> = { month, prev: shiftMonth(month, -1), next: shiftMonth(month, 1) };
    return template.replace(/\{\{(month|prev|next)\}\}/g, (_, key: string) => values[key]!);
}

function shiftMonth(month: string, delta: number): string {
    const [, year, monthOfYear] = MONTH_PATTERN.exec(month)!;
    const index = Number(year) * 12 + Number(monthOfYear) - 1 + delta;
    return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

async function notFound(root: string, res: ServerResponse): Promise<void> {
    const page = await readFile(join(root, '404.html')).catch(() => 'Not found\n');
    send(res, 404, typeof page === 'string' ? 'text/plain; charset=utf-8' : CONTENT_TYPES['.html']!, page);
}

function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
    res.statusCode = status;
    res.setHeader('Content-Type', contentType);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(res.req.method === 'HEAD' ? undefined : body);
}
