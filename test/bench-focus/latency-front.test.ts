// The scaling bench's latency front: every request, plain http or inside a CONNECT tunnel, waits before it goes on.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CorpusServer } from '../../bench/focus/corpus-server.js';
import { startLatencyFront } from '../../bench/focus/latency-front.js';
import type { LatencyFront } from '../../bench/focus/latency-front.js';
import { CORPORA_DIR } from '../../bench/focus/paths.js';
import { scalingChecks } from '../../bench/focus/scaling.js';
import type { ScalingRow } from '../../bench/focus/scaling.js';

const TLS_DIR = path.join(CORPORA_DIR, 'tls');
const LATENCY = 150;

/** What the upstream saw: scheme, the request line's target and the Host header. */
type Seen = { scheme: string; url: string; host: string };

function answer(scheme: string, seen: Seen[]) {
    return (request: http.IncomingMessage, response: http.ServerResponse) => {
        seen.push({ scheme, url: request.url ?? '', host: request.headers.host ?? '' });
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`${scheme} ${request.url}`);
    };
}

const listen = (server: http.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** GET through the front as a forward proxy (absolute form); resolves with the body and the time it took. */
function viaProxy(proxy: string, url: string): Promise<{ body: string; millis: number }> {
    const { hostname, port } = new URL(proxy);
    const started = Date.now();
    return new Promise((resolve, reject) => {
        http.get({ host: hostname, port, path: url, headers: { host: new URL(url).host } }, (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve({ body, millis: Date.now() - started }));
        }).on('error', reject);
    });
}

/** GET https://host/path through a CONNECT tunnel of the front, two requests on one connection. */
function viaTunnel(proxy: string, host: string, paths: string[]): Promise<{ bodies: string[]; millis: number }> {
    const { hostname, port } = new URL(proxy);
    const started = Date.now();
    return new Promise((resolve, reject) => {
        const connect = http.request({ host: hostname, port, method: 'CONNECT', path: `${host}:443` });
        connect.on('connect', (_response, socket) => {
            const secure = tls.connect({ socket, servername: host, rejectUnauthorized: false });
            const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
            agent.createConnection = () => secure;
            const bodies: string[] = [];
            const next = () => {
                const path = paths[bodies.length];
                if (path === undefined) {
                    secure.destroy();
                    resolve({ bodies, millis: Date.now() - started });
                    return;
                }
                https.get({ host, path, agent }, (response) => {
                    let body = '';
                    response.on('data', (chunk: Buffer) => (body += chunk.toString()));
                    response.on('end', () => {
                        bodies.push(body);
                        next();
                    });
                }).on('error', reject);
            };
            next();
        });
        connect.on('error', reject);
        connect.end();
    });
}

describe.skipIf(!existsSync(path.join(TLS_DIR, 'cert.pem')))('the latency front of the scaling bench', () => {
    const seen: Seen[] = [];
    let plain: http.Server;
    let secure: https.Server;
    let front: LatencyFront;
    beforeAll(async () => {
        plain = http.createServer(answer('http', seen));
        secure = https.createServer({ cert: readFileSync(path.join(TLS_DIR, 'cert.pem')), key: readFileSync(path.join(TLS_DIR, 'key.pem')) }, answer('https', seen));
        const upstream: CorpusServer = { port: await listen(plain), tlsPort: await listen(secure), proxyUrl: '', close: async () => {} };
        front = await startLatencyFront(upstream, LATENCY);
    });
    afterAll(async () => {
        await front?.close();
        plain?.close();
        secure?.close();
    });

    it('delays a plain-http request and passes it on in absolute form', async () => {
        const { body, millis } = await viaProxy(front.proxyUrl, 'http://www-cs.stanford.edu/people/');
        expect(body).toBe('http http://www-cs.stanford.edu/people/');
        expect(millis).toBeGreaterThanOrEqual(LATENCY - 5);
        expect(seen.at(-1)).toMatchObject({ host: 'www-cs.stanford.edu' });
    });

    it('delays every request inside a CONNECT tunnel, and passes on the Host header', async () => {
        const { bodies, millis } = await viaTunnel(front.proxyUrl, 'www.openehr.org', ['/a', '/b']);
        expect(bodies).toEqual(['https /a', 'https /b']);
        expect(millis).toBeGreaterThanOrEqual(2 * LATENCY - 10);
        expect(seen.slice(-2)).toEqual([
            { scheme: 'https', url: '/a', host: 'www.openehr.org' },
            { scheme: 'https', url: '/b', host: 'www.openehr.org' },
        ]);
    });
});

describe('the scaling bench checks', () => {
    const row = (over: Partial<ScalingRow>): ScalingRow => ({
        setup: 'redis', workers: 2, inFlight: 4, urls: 100, requests: 110, pages: 90, repeats: 0, wallSeconds: 10, pagesPerSecond: 10,
        startupSeconds: 1, crawlSeconds: 9, crawlPagesPerSecond: 11, idealPagesPerSecond: 20, workerCpuSeconds: 5, machineBusy: 0.5,
        recall: 0.6, recallDelta: 0, recallDeltaSameInFlight: null, delivered: 50, deliveredDistinct: 50, deliveredRecall: 0.5, stopReasons: ['limit_reached', 'limit_reached'],
        exitCodes: [0, 0], shared: null, redis: null, ...over,
    });

    it('pass a crawl within the budget and the tolerance', () => {
        expect(scalingChecks([row({})], 100)).toEqual([]);
    });

    it('name each failure: over the budget, recall off, a failed worker, two stop reasons, a page delivered twice', () => {
        const problems = scalingChecks(
            [row({ urls: 101, recallDelta: -0.06, recall: 0.54, exitCodes: [0, 1], stopReasons: ['limit_reached', 'exhausted'], deliveredDistinct: 49 })],
            100,
        );
        expect(problems).toEqual([
            '2 workers, Redis: 101 distinct URLs fetched, over the budget of 100',
            '2 workers, Redis: recall 0.54 differs from one process\'s by −0.06, more than 0.05',
            '2 workers, Redis: exit codes 0, 1',
            '2 workers, Redis: the workers report different stop reasons (limit_reached, exhausted)',
            '2 workers, Redis: 1 page(s) delivered twice across the datasets',
        ]);
    });
});
