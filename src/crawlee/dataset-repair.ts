import { readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import type { Configuration } from 'crawlee';

const ITEM_FILE = /^(\d{9})\.json$/;

/**
 * The folder of the default dataset when the crawl stores it locally (Crawlee's memory storage with files), else
 * `null`: a remote storage client has no files to repair.
 */
export function localDatasetDirectory(config: Configuration): string | null {
    const options = config.get('storageClientOptions') as { localDataDirectory?: string; persistStorage?: boolean } | undefined;
    if (config.get('persistStorage') === false || options?.persistStorage === false) return null;
    const root = options?.localDataDirectory ?? process.env.CRAWLEE_STORAGE_DIR ?? './storage';
    return resolve(root, 'datasets', 'default');
}

/**
 * Makes a local dataset readable again after a kill -9. Crawlee writes one file per item in place (not atomically)
 * and locks it with a lock folder, so a kill can leave an empty or cut item and a lock that stalls the next write.
 * It numbers an item before writing it, so two concurrent writes can also leave a hole: item 6 written, item 5 not
 * yet begun. Such an item belongs to a page whose request was not yet handled, so the resumed crawl delivers that
 * page again: the torn file is dropped, the numbering is closed up by moving the last items into the holes (Crawlee
 * numbers the next item from the count, and would overwrite the item after a hole), and stale locks are removed.
 * Returns how many items were dropped.
 * Call it before the dataset is opened in this process.
 */
export async function repairTornDatasetItems(directory: string): Promise<number> {
    let names: string[];
    try {
        names = await readdir(directory);
    } catch {
        return 0; // no dataset yet
    }
    for (const name of names) if (name.endsWith('.lock')) await rm(join(directory, name), { recursive: true, force: true });
    const items = names.filter((name) => ITEM_FILE.test(name)).sort();
    const good: string[] = [];
    for (const name of items) {
        try {
            JSON.parse(await readFile(join(directory, name), 'utf8'));
            good.push(name);
        } catch {
            await rm(join(directory, name), { force: true });
        }
    }
    const dropped = items.length - good.length;
    await fixMetadataCount(directory, good.length);
    // Items 1…good.length must all exist: move the highest-numbered survivors into the holes.
    const wanted = Array.from({ length: good.length }, (_, i) => `${String(i + 1).padStart(9, '0')}.json`);
    const present = new Set(good);
    const wantedSet = new Set(wanted);
    const movable = good.filter((name) => !wantedSet.has(name)).reverse();
    for (const hole of wanted.filter((name) => !present.has(name))) await rename(join(directory, movable.pop()!), join(directory, hole));
    return dropped;
}

/** Crawlee prefers the metadata file's item count to the file count, and a kill can leave it stale or torn. */
async function fixMetadataCount(directory: string, itemCount: number): Promise<void> {
    const path = join(directory, '__metadata__.json');
    let metadata: Record<string, unknown>;
    try {
        metadata = JSON.parse(await readFile(path, 'utf8'));
    } catch {
        await rm(path, { force: true }); // absent, or torn: Crawlee counts the files instead
        return;
    }
    await writeFile(path, JSON.stringify({ ...metadata, itemCount }, null, '\t'));
}
