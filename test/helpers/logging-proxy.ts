import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy saw: `GET http://host/path` or `CONNECT host:port`. */
export interface ProxiedRequest {
    method: string;
    host: string;
    path: string;
    /** Forwarded to a site of the proxy's map (else refused with 502). */
    forwarded: boolean;
    /** The request's User-Agent header (empty for a CONNECT). */
    userAgent: string;
}

export interface LoggingProxy {
    url: string;
    requests: ProxiedRequest[];
    close(): Promise<void>;
}

/**
 * An HTTP forward proxy on 127.0.0.1 that serves only the hosts it is given, each mapped to a local origin
 * (`{ 'site.invalid': 'http://127.0.0.1:PORT' }`), and logs every request: absolute-form GETs and CONNECT tunnels.
 * Any other host, and every CONNECT, is refused with 502. Names under `.invalid` never resolve (RFC 2606), so a
 * request that went around the proxy fails instead of reaching the site.
 */
export async function startLoggingProxy(sites: Record<string, string>): Promise<LoggingProxy> {
    const requests: ProxiedRequest[] = [];
    const server = createServer((req, res) => {
        let target: URL;
        try {
            target = new URL(req.url ?? '');
        } catch {
            res.writeHead(400).end('absolute-form request expected\n');
            return;
        }
        const origin = sites[target.host];
        requests.push({ method: req.method ?? 'GET', host: target.host, path: `${target.pathname}${target.search}`, forwarded: origin !== undefined, userAgent: req.headers['user-agent'] ?? '' });
        if (origin === undefined) {
            res.writeHead(502).end('not served by this proxy\n');
            return;
        }
        const upstream = httpRequest(new URL(`${target.pathname}${target.search}`, origin), { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.on('error', () => res.destroy());
            answer.pipe(res);
        });
        // A client that gives up mid-answer resets its socket; that ends this exchange, not the test run.
        upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
        req.on('error', () => upstream.destroy());
        res.on('error', () => upstream.destroy());
        req.pipe(upstream);
    });
    server.on('connect', (req, socket) => {
        const [host = '', port = ''] = (req.url ?? '').split(':');
        socket.on('error', () => socket.destroy());
        requests.push({ method: 'CONNECT', host: port === '443' ? host : `${host}:${port}`, path: '', forwarded: false, userAgent: '' });
        socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
            new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}
