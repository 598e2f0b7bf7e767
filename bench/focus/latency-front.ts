// A forward proxy in front of the corpus server that answers every request a fixed time late: the network delay of a
// real site, on 127.0.0.1 only. Plain-http requests (absolute form) wait and go on to the corpus server's port; a
// CONNECT tunnel ends in this front's own TLS server (the corpus's self-signed certificate), whose requests wait and go
// on to the corpus server's TLS port. So every request is delayed, https ones too, and the corpus server still logs
// each one.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

import type { CorpusServer } from './corpus-server.js';
import { CORPORA_DIR } from './paths.js';

export interface LatencyFront {
    /** Forward-proxy URL to give crawlers instead of the corpus server's. */
    proxyUrl: string;
    latencyMillis: number;
    close(): Promise<void>;
}

/** Starts the front on free ports of 127.0.0.1; `latencyMillis` is added before each request goes on. */
export async function startLatencyFront(upstream: CorpusServer, latencyMillis: number): Promise<LatencyFront> {
    const tlsDir = path.join(CORPORA_DIR, 'tls');
    const sockets = new Set<Socket>();
    const track = (socket: Socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
    };
    const httpAgent = new http.Agent({ keepAlive: true });
    const httpsAgent = new https.Agent({ keepAlive: true, rejectUnauthorized: false });

    const forward = (request: IncomingMessage, response: ServerResponse, send: () => http.ClientRequest) => {
        setTimeout(() => {
            const onward = send();
            onward.on('response', (answer) => {
                response.writeHead(answer.statusCode ?? 502, answer.headers);
                answer.pipe(response);
            });
            onward.on('error', () => response.destroy());
            request.pipe(onward);
        }, latencyMillis);
    };

    const tls = https.createServer({ cert: readFileSync(path.join(tlsDir, 'cert.pem')), key: readFileSync(path.join(tlsDir, 'key.pem')) }, (request, response) =>
        forward(request, response, () =>
            https.request({ host: '127.0.0.1', port: upstream.tlsPort, path: request.url, method: request.method, headers: request.headers, agent: httpsAgent }),
        ),
    );
    // The request line is in absolute form (`GET http://host/path`): the corpus server reads the host from it.
    const plain = http.createServer((request, response) =>
        forward(request, response, () =>
            http.request({ host: '127.0.0.1', port: upstream.port, path: request.url, method: request.method, headers: request.headers, agent: httpAgent }),
        ),
    );
    plain.on('connect', (_request: IncomingMessage, socket: Socket, head: Buffer) => {
        track(socket);
        const tunnel = net.connect((tls.address() as AddressInfo).port, '127.0.0.1', () => {
            socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
            if (head.length) tunnel.write(head);
            tunnel.pipe(socket);
            socket.pipe(tunnel);
        });
        track(tunnel);
        tunnel.on('error', () => socket.destroy());
        socket.on('error', () => tunnel.destroy());
    });
    for (const server of [plain, tls]) server.on('connection', track);
    const listen = (server: net.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
    await listen(tls);
    const port = await listen(plain);
    return {
        proxyUrl: `http://127.0.0.1:${port}`,
        latencyMillis,
        close: async () => {
            for (const socket of sockets) socket.destroy();
            httpAgent.destroy();
            httpsAgent.destroy();
            await Promise.all([plain, tls].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
        },
    };
}
