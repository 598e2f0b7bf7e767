// Runs one crawl with createFocusedCrawler on a fresh storage and returns what it delivered and reported.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Dataset } from 'crawlee';

import { createFocusedCrawler } from '../../src/index.js';
import type { CreateFocusedCrawlerOptions, FocusReport } from '../../src/index.js';

export interface CrawlResult {
    report: FocusReport;
    items: Array<{ url: string; markdown: string; title: string }>;
    /** Paths (with query) of the delivered pages. */
    delivered: string[];
    millis: number;
}

export async function crawl(options: CreateFocusedCrawlerOptions): Promise<CrawlResult> {
    const started = Date.now();
    const focused = await createFocusedCrawler({ storageDir: mkdtempSync(join(tmpdir(), 'cf-robust-')), ...options });
    const report = await focused.run();
    const { items } = await (await Dataset.open(undefined, { config: focused.focus.config })).getData();
    const typed = items as CrawlResult['items'];
    return {
        report,
        items: typed,
        delivered: typed.map((item) => {
            const url = new URL(item.url);
            return url.pathname + url.search;
        }),
        millis: Date.now() - started,
    };
}

/** Failures counted under any of the reasons. */
export function failuresOf(report: FocusReport, ...reasons: string[]): number {
    return reasons.reduce((sum, reason) => sum + (report.failures[reason] ?? 0), 0);
}
