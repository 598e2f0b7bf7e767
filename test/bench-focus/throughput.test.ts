import { describe, expect, it } from 'vitest';

import { throughputTable } from '../../bench/focus/throughput.js';
import type { ThroughputRow } from '../../bench/focus/throughput.js';

const row = (mode: ThroughputRow['mode'], wallSeconds: number, recall: number, rendered: number | null = null): ThroughputRow => ({
    labelId: 'stanford-cs--guide',
    mode,
    budget: 100,
    pages: 100,
    wallSeconds,
    pagesPerSecond: 100 / wallSeconds,
    recall,
    rendering: rendered === null ? null : { browser: rendered, http: 100 - rendered },
});

describe('the throughput table', () => {
    it('gives one crawl per cell as it is', () => {
        const table = throughputTable([row('browser', 50, 0.94, 100), row('adaptive', 10, 0.9, 8)]);
        expect(table).toContain('| stanford-cs--guide | browser | 1 | 100 | 50.0 | 2.00 | 1.00× | 0.94 | 100 / 0 |');
        expect(table).toContain('| stanford-cs--guide | adaptive | 1 | 100 | 10.0 | 10.00 | 5.00× | 0.90 | 8 / 92 |');
    });

    it('pools repeated crawls of a mode: mean speed against the mean browser speed, mean recall and each crawl\'s', () => {
        const table = throughputTable([
            row('browser', 50, 0.94, 100), row('adaptive', 10, 0.97, 7), row('http', 4, 0.94),
            row('browser', 100, 0.9, 100), row('adaptive', 20, 0.9, 8), row('http', 4, 0.94),
        ]);
        const lines = table.split('\n');
        expect(lines).toHaveLength(2 + 3);
        // Browser 2 and 1 pages/s (mean 1.5), adaptive 10 and 5 (mean 7.5): 5×.
        expect(lines).toContain('| stanford-cs--guide | adaptive | 2 | 100 | 15.0 | 7.50 | 5.00× | 0.94 (0.97 / 0.90) | 7.5 / 92.5 |');
        expect(lines).toContain('| stanford-cs--guide | browser | 2 | 100 | 75.0 | 1.50 | 1.00× | 0.92 (0.94 / 0.90) | 100 / 0 |');
        expect(lines).toContain('| stanford-cs--guide | http | 2 | 100 | 4.0 | 25.00 | 16.67× | 0.94 (0.94 / 0.94) | — |');
    });
});
