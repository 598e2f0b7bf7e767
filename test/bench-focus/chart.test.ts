import { describe, expect, it } from 'vitest';

import { recallChartSvg } from '../../bench/focus/chart.js';
import { tickStep } from '../../src/report/ticks.js';

describe('tickStep', () => {
    it('gives 1, 2 or 5 times a power of ten with at most ten ticks', () => {
        expect(tickStep(200)).toBe(20);
        expect(tickStep(50)).toBe(5);
        expect(tickStep(100)).toBe(10);
        for (const max of [7, 13, 60, 333, 1000]) {
            const step = tickStep(max);
            expect(max / step).toBeLessThanOrEqual(10);
            expect(max / step).toBeGreaterThanOrEqual(2);
        }
    });
});

describe('recallChartSvg', () => {
    const svg = recallChartSvg({
        title: 'site: "a <b> & c"',
        subtitle: '3 relevant',
        maxPages: 4,
        series: [
            { label: 'one', colour: '#111111', recall: [0, 0.5, 0.5, 1] },
            { label: 'two', colour: '#222222', recall: [0, 0], dashed: true },
        ],
        markers: [{ colour: '#111111', pages: 2, recall: 0.5 }],
        markerNote: 'a smaller run',
    });

    it('draws one line per series, starting at the origin, and the markers', () => {
        const lines = [...svg.matchAll(/<polyline points="([^"]+)"/g)].map((m) => m[1]!.split(' '));
        expect(lines).toHaveLength(2);
        expect(lines[0]).toHaveLength(5);
        expect(lines[0]![0]).toBe(lines[1]![0]); // both start at (0, 0)
        expect(svg.match(/<circle /g)).toHaveLength(2); // the marker and its legend dot
        expect(svg).toContain('stroke-dasharray');
    });

    it('puts full recall at the top of the plot and zero at the bottom', () => {
        const points = [...svg.matchAll(/<polyline points="([^"]+)"/g)][0]![1]!.split(' ').map((p) => p.split(',').map(Number));
        const yZero = points[0]![1]!;
        const yFull = points[4]![1]!;
        expect(yFull).toBeLessThan(yZero);
        expect(points[4]![0]).toBeGreaterThan(points[0]![0]!);
    });

    it('escapes text and labels the legend with the final recall', () => {
        expect(svg).toContain('&quot;a &lt;b&gt; &amp; c&quot;');
        expect(svg).toContain('recall 1.00 after 4 pages');
        expect(svg).toContain('recall 0.00 after 2 pages');
        expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    });
});
