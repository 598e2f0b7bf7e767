import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

import { freePort } from '../../test/helpers/free-port.js';
import { SERVER_SCRIPT, SITES_CONFIG } from './paths.js';

/** A running corpus server (serve.mjs) that logs every request it answers. */
export interface CorpusServer {
    /** Forward-proxy URL to give crawlers, e.g. `http://127.0.0.1:28080`. */
    proxyUrl: string;
    port: number;
    tlsPort: number;
    close(): Promise<void>;
}

/** How long serve.mjs may take to print that it listens. */
const STARTUP_TIMEOUT_MILLIS = 10_000;
/** Grace period for the server's log stream before it is stopped. */
const LOG_FLUSH_MILLIS = 500;

/** Attempts at starting serve.mjs: a port probed free can be taken by another process before the server binds it. */
const START_ATTEMPTS = 3;

/** Starts serve.mjs on free ports, logging requests (JSON lines) to `logFile`. */
export async function startCorpusServer(logFile: string): Promise<CorpusServer> {
    for (let attempt = 1; ; attempt++) {
        try {
            return await startOnFreePorts(logFile);
        } catch (error) {
            if (attempt >= START_ATTEMPTS || !/EADDRINUSE/.test(String(error))) throw error;
        }
    }
}

async function startOnFreePorts(logFile: string): Promise<CorpusServer> {
    const port = await freePort();
    let tlsPort = await freePort();
    while (tlsPort === port) tlsPort = await freePort(); // the first probe's port is free again once it closed
    const child = spawn(
        process.execPath,
        [SERVER_SCRIPT, '--config', SITES_CONFIG, '--port', String(port), '--tls-port', String(tlsPort), '--log', logFile],
        { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await waitForListening(child, tlsPort);
    return {
        proxyUrl: `http://127.0.0.1:${port}`,
        port,
        tlsPort,
        close: async () => {
            // serve.mjs writes its log asynchronously and SIGTERM does not flush it: let the last lines land first.
            await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_MILLIS));
            await stopChild(child);
        },
    };
}

function waitForListening(child: ChildProcess, tlsPort: number): Promise<void> {
    return new Promise((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => fail(new Error(`serve.mjs did not start within ${STARTUP_TIMEOUT_MILLIS} ms:\n${output}`)), STARTUP_TIMEOUT_MILLIS);
        const onData = (chunk: Buffer) => {
            output += chunk.toString();
            // It prints the https line last.
            if (output.includes(`https on 127.0.0.1:${tlsPort}`)) {
                clearTimeout(timer);
                resolve();
            }
        };
        function fail(error: Error) {
            clearTimeout(timer);
            child.kill();
            reject(error);
        }
        child.stdout?.on('data', onData);
        child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('exit', (code) => fail(new Error(`serve.mjs exited with code ${code}:\n${output}`)));
    });
}

/** Stops a child process and waits until it is gone, so its log stream is flushed. */
export function stopChild(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
    });
}
