import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Configuration, Dataset } from 'crawlee';
import { describe, expect, it } from 'vitest';

import { localDatasetDirectory, repairTornDatasetItems } from '../../src/crawlee/dataset-repair.js';

const name = (i: number) => `${String(i).padStart(9, '0')}.json`;

describe('repairTornDatasetItems', () => {
    it('drops items a kill cut, closes the numbering, removes stale locks, and Crawlee reads the rest', async () => {
        const root = mkdtempSync(join(tmpdir(), 'cf-repair-'));
        const config = new Configuration({ storageClientOptions: { localDataDirectory: root }, purgeOnStart: false });
        const directory = localDatasetDirectory(config)!;
        mkdirSync(directory, { recursive: true });
        for (let i = 1; i <= 6; i++) writeFileSync(join(directory, name(i)), JSON.stringify({ url: `https://e.edu/${i}` }));
        writeFileSync(join(directory, name(3)), ''); // killed before the write
        writeFileSync(join(directory, name(5)), '{"url": "https://e.ed'); // killed during the write
        mkdirSync(join(directory, `${name(5)}.lock`));
        writeFileSync(join(directory, '__metadata__.json'), JSON.stringify({ id: 'x', name: 'default', itemCount: 4 }));

        expect(await repairTornDatasetItems(directory)).toBe(2);
        expect(readdirSync(directory).sort()).toEqual([name(1), name(2), name(3), name(4), '__metadata__.json']);
        expect(JSON.parse(readFileSync(join(directory, '__metadata__.json'), 'utf8')).itemCount).toBe(4);
        expect(await repairTornDatasetItems(directory)).toBe(0); // idempotent

        const dataset = await Dataset.open(undefined, { config });
        const { items } = await dataset.getData();
        expect(items.map((item) => item.url).sort()).toEqual(['https://e.edu/1', 'https://e.edu/2', 'https://e.edu/4', 'https://e.edu/6']);
        await dataset.pushData({ url: 'https://e.edu/7' }); // numbering continues after the survivors: nothing overwritten
        expect((await dataset.getData()).items).toHaveLength(5);
    });

    it('closes a hole that two concurrent writes left (item 3 numbered, item 4 written), so the next item overwrites nothing', async () => {
        const root = mkdtempSync(join(tmpdir(), 'cf-repair-'));
        const config = new Configuration({ storageClientOptions: { localDataDirectory: root }, purgeOnStart: false });
        const directory = localDatasetDirectory(config)!;
        mkdirSync(directory, { recursive: true });
        for (const i of [1, 2, 4]) writeFileSync(join(directory, name(i)), JSON.stringify({ url: `https://e.edu/${i}` }));
        writeFileSync(join(directory, '__metadata__.json'), JSON.stringify({ id: 'x', name: 'default', itemCount: 4 }));

        expect(await repairTornDatasetItems(directory)).toBe(0); // nothing torn, nothing dropped
        expect(readdirSync(directory).sort()).toEqual([name(1), name(2), name(3), '__metadata__.json']);

        const dataset = await Dataset.open(undefined, { config });
        await dataset.pushData({ url: 'https://e.edu/5' });
        const { items } = await dataset.getData();
        expect(items.map((item) => item.url).sort()).toEqual(['https://e.edu/1', 'https://e.edu/2', 'https://e.edu/4', 'https://e.edu/5']);
    });

    it('does nothing without a dataset or with in-memory storage', async () => {
        expect(await repairTornDatasetItems(join(tmpdir(), 'cf-no-such-dataset'))).toBe(0);
        expect(localDatasetDirectory(new Configuration({ persistStorage: false }))).toBeNull();
    });
});
