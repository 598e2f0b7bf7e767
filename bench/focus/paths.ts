import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (two levels above this file). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Shared material next to the repository; the corpora are referenced there, never copied in. */
export const SHARED_ROOT = path.resolve(REPO_ROOT, '../shared');
export const CORPORA_DIR = path.join(SHARED_ROOT, 'corpora');
export const LABELS_DIR = path.join(CORPORA_DIR, 'labels');
export const SITES_CONFIG = path.join(CORPORA_DIR, 'sites.json');
export const SERVER_SCRIPT = path.join(CORPORA_DIR, 'serve.mjs');
export const SCORE_SCRIPT = path.join(CORPORA_DIR, 'score.mjs');
/** Committed results: the table, the JSON and the charts. */
export const RESULTS_DIR = path.join(REPO_ROOT, 'bench', 'results');
/** Raw runs (server logs, Crawlee storages), cached per run id and not committed. */
export const RUNS_DIR = path.join(RESULTS_DIR, 'runs');

/** A relevance label file of the corpora: one (site, query) with its entry URLs and relevant pages. */
export interface Label {
    /** File name without `.json`, e.g. `acl2020--summarization`. */
    id: string;
    file: string;
    site: string;
    query: string;
    entry: string[];
    hosts?: string[];
    relevant: string[];
}

/** Every label file, sorted by id. Errors say where the corpora were looked for. */
export function loadLabels(dir = LABELS_DIR): Label[] {
    let names: string[];
    try {
        names = readdirSync(dir).filter((name) => name.endsWith('.json'));
    } catch {
        throw new Error(`No corpora labels at ${dir}: the bench expects the shared corpora in ../shared/corpora next to the repository.`);
    }
    return names.sort().map((name) => {
        const file = path.join(dir, name);
        const json = JSON.parse(readFileSync(file, 'utf8')) as Omit<Label, 'id' | 'file'>;
        return { ...json, entry: [json.entry].flat(), id: name.replace(/\.json$/, ''), file };
    });
}
