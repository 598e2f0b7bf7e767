import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Configuration, KeyValueStore } from 'crawlee';
import { afterEach, describe, expect, it } from 'vitest';

import { StateStore } from '../../src/crawlee/state-store.js';

const dirs: string[] = [];
afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function openStore(dir: string): Promise<KeyValueStore> {
    const config = new Configuration({ storageClientOptions: { localDataDirectory: dir } });
    return KeyValueStore.open('focus-state', { config });
}

function newDir(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'state-store-'));
    dirs.push(dir);
    return dir;
}

describe('StateStore', () => {
    it('gives a new process the newest snapshot, written as compact JSON', async () => {
        const dir = newDir();
        const first = new StateStore<{ pages: number; urls: string[] }>(await openStore(dir));
        expect(await first.load()).toBeNull();
        await first.save(() => ({ pages: 1, urls: ['https://example.com/a'] }));
        await first.save(() => ({ pages: 2, urls: ['https://example.com/a', 'https://example.com/b'] }));

        const files = readdirSync(path.join(dir, 'key_value_stores', 'focus-state')).filter((f) => f.startsWith('FOCUS_STATE_'));
        expect(files.length).toBe(2);
        for (const file of files) expect(readFileSync(path.join(dir, 'key_value_stores', 'focus-state', file), 'utf8')).not.toContain('\n');

        const second = new StateStore<{ pages: number; urls: string[] }>(await openStore(dir));
        expect(await second.load()).toEqual({ pages: 2, urls: ['https://example.com/a', 'https://example.com/b'] });
    });

    it('falls back to the other slot when the newest file was torn by a kill', async () => {
        const dir = newDir();
        const store = new StateStore<{ pages: number }>(await openStore(dir));
        await store.load();
        await store.save(() => ({ pages: 1 }));
        await store.save(() => ({ pages: 2 }));
        const folder = path.join(dir, 'key_value_stores', 'focus-state');
        const newest = readdirSync(folder).find((f) => f.includes('_B'))!;
        const text = readFileSync(path.join(folder, newest), 'utf8');
        writeFileSync(path.join(folder, newest), text.slice(0, Math.floor(text.length / 2)));

        const resumed = new StateStore<{ pages: number }>(await openStore(dir));
        expect(await resumed.load()).toEqual({ pages: 1 });
    });

    it('shares one write among saves made while another is in flight, and each resolves after a write that began after it', async () => {
        const dir = newDir();
        const store = new StateStore<{ n: number }>(await openStore(dir));
        await store.load();
        let taken = 0;
        const snapshot = () => ({ n: ++taken });
        const first = store.save(snapshot);
        await new Promise((resolve) => setImmediate(resolve)); // the first write has taken its snapshot
        expect(taken).toBe(1);
        await Promise.all([first, store.save(snapshot), store.save(snapshot), store.save(snapshot)]);
        // The three saves made while the first write was in flight share one more write, taken after it.
        expect(taken).toBe(2);
        const resumed = new StateStore<{ n: number }>(await openStore(dir));
        expect(await resumed.load()).toEqual({ n: 2 });
    });
});
