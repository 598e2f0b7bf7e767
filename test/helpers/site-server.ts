import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a route answers: a page body (HTML), or full control over the response. */
export type Route = string | ((req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>);

export interface TestSite {
    url: string;
    /** Every request the server saw, in order (path with query). */
    requests: string[];
    /** How often each path (with query) was requested. */
    hits(path: string): number;
    close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 serving a map of routes; unknown paths get 404.
 * `routes` may also be a function, for endless or generated sites.
 */
export async function startSite(routes: Record<string, Route> | ((path: string, url: URL) => Route | undefined)): Promise<TestSite> {
    const requests: string[] = [];
    const server = createServer(async (req, res) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        requests.push(url.pathname + url.search);
        const route = typeof routes === 'function' ? routes(url.pathname, url) : routes[url.pathname];
        try {
            if (route === undefined) {
                res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
            } else if (typeof route === 'string') {
                res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(route);
            } else {
                await route(req, res, url);
            }
        } catch (error) {
            if (!res.headersSent) res.writeHead(500).end(String(error));
        }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${port}`,
        requests,
        hits: (path) => requests.filter((r) => r === path).length,
        close: () =>
            new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}

/** A small HTML page. */
export function page(title: string, body: string, head = ''): string {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}
