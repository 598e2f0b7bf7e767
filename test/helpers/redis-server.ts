import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Redis } from 'ioredis';

import { freePort } from './free-port.js';

export { freePort };

/** Debian's package puts it here; `REDIS_SERVER` overrides. */
export const REDIS_SERVER_PATH = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** Why Redis tests are skipped, or `null` when they can run. */
export const redisUnavailable: string | null = existsSync(REDIS_SERVER_PATH)
    ? null
    : `redis-server not found at ${REDIS_SERVER_PATH}: install it (apt-get install -y redis-server) or set REDIS_SERVER; Redis tests are skipped`;

export interface TestRedis {
    url: string;
    port: number;
    pid: number;
    /** A new client; closed by {@link TestRedis.stop}. */
    client(): Redis;
    /** Closes the clients and stops the server by its PID. */
    stop(): Promise<void>;
}

/**
 * Starts a private redis-server on a free port, with no persistence, in a temporary directory. Redis's `--port 0`
 * means "no TCP", so the port is picked here, and picked again if Redis finds it taken.
 */
export async function startRedis({ attempts = 5, timeoutMillis = 10_000, pickPort = freePort } = {}): Promise<TestRedis> {
    if (redisUnavailable) throw new Error(redisUnavailable);
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
        const port = await pickPort();
        const dir = mkdtempSync(join(tmpdir(), 'cf-redis-'));
        const child = spawn(
            REDIS_SERVER_PATH,
            ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning'],
            { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
        try {
            await waitForPing(port, child, timeoutMillis);
            return handle(port, child, dir);
        } catch (error) {
            killChild(child);
            await closed; // all of its output is in
            rmSync(dir, { recursive: true, force: true });
            lastError = error;
            // Someone took the port between our probe and Redis's bind: pick another. Anything else is a real failure.
            if (!/Address already in use/.test(output)) throw new Error(`redis-server did not start: ${String(error)}\n${output}`);
        }
    }
    throw new Error(`redis-server found no free port in ${attempts} attempts: ${String(lastError)}`);
}

async function waitForPing(port: number, child: ChildProcess, timeoutMillis: number): Promise<void> {
    const deadline = Date.now() + timeoutMillis;
    while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
        // Timeouts: whatever took the port may accept and never answer.
        const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500, commandTimeout: 500 });
        probe.on('error', () => {});
        try {
            await probe.connect();
            if ((await probe.ping()) === 'PONG') return;
        } catch {
            // not up yet
        } finally {
            probe.disconnect();
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMillis} ms`);
}

function handle(port: number, child: ChildProcess, dir: string): TestRedis {
    const clients: Redis[] = [];
    const url = `redis://127.0.0.1:${port}`;
    return {
        url,
        port,
        pid: child.pid!,
        client() {
            const client = new Redis(url);
            clients.push(client);
            return client;
        },
        async stop() {
            for (const client of clients) client.disconnect();
            // A server killed by a signal has no exit code, only a signal code: it has exited all the same.
            const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
            killChild(child);
            await exited;
            rmSync(dir, { recursive: true, force: true });
        },
    };
}

/**
 * `INFO commandstats` as one field per command (`evalsha`, `hget`, `config|resetstat`, …): `calls`, or `usec` (time
 * spent in it). The commands a script runs are counted too, and their time is inside the script's as well.
 */
export function commandStats(info: string, field: 'calls' | 'usec' = 'calls'): Map<string, number> {
    const stats = new Map<string, number>();
    for (const match of info.matchAll(new RegExp(`^cmdstat_([^:]+):.*\\b${field}=(\\d+)`, 'gm'))) stats.set(match[1]!, Number(match[2]));
    return stats;
}

/** Stops the server by its own PID (never by name: other tests may run their own). */
function killChild(child: ChildProcess): void {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
            process.kill(child.pid, 'SIGTERM');
        } catch {
            // already gone
        }
    }
}
