import { recallChartSvg } from './chart.js';
import type { ChartMarker, ChartSeries } from './chart.js';
import { CRAWLERS } from './crawlers.js';
import type { ScoredRun } from './runner.js';

/**
 * The chart of one (site, query): per crawler the curve of its largest run, and a dot where each smaller
 * crawlee-focus run (run separately, its order depends on the budget) ended.
 */
export function chartFor(runs: ScoredRun[], budgets: readonly number[]): string {
    const first = runs[0];
    if (!first) throw new Error('chartFor needs at least one scored run.');
    const series: ChartSeries[] = [];
    const markers: ChartMarker[] = [];
    for (const { kind, label, colour } of CRAWLERS) {
        const mine = runs.filter((one) => one.finished.run.crawler === kind).sort((a, b) => a.finished.run.budget - b.finished.run.budget);
        const largest = mine.at(-1);
        if (!largest) continue;
        // Dashed lines stay visible over a line they coincide with (Cheerio often crawls exactly what Playwright does).
        series.push({ label, colour, recall: largest.score.recallCurve, dashed: kind === 'focus-never' || kind === 'cheerio' });
        for (const smaller of mine.slice(0, -1)) {
            const curve = smaller.score.recallCurve;
            markers.push({ colour, pages: curve.length, recall: curve.at(-1) ?? 0 });
        }
    }
    const hasMarkers = markers.length > 0;
    return recallChartSvg({
        title: `${first.label.site}: "${first.label.query}"`,
        subtitle: `${first.score.summary.total_relevant} relevant pages; recall against pages fetched, counted from the server log`,
        maxPages: Math.max(...budgets),
        series,
        markers,
        ...(hasMarkers ? { markerNote: 'end of a run at a smaller budget' } : {}),
    });
}
