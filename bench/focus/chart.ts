import { escapeHtml } from '../../src/extract/escape-html.js';
import { tickStep } from '../../src/report/ticks.js';

/** One crawler's line: recall after each page fetched. */
export interface ChartSeries {
    label: string;
    colour: string;
    /** `recall[i]` after i + 1 pages. */
    recall: number[];
    /** Drawn dashed (a variant of another line). @default false */
    dashed?: boolean;
}

/** A single point, e.g. where a separate smaller-budget run ended. */
export interface ChartMarker {
    colour: string;
    pages: number;
    recall: number;
}

export interface RecallChart {
    title: string;
    subtitle: string;
    /** Right end of the x axis. */
    maxPages: number;
    series: ChartSeries[];
    markers?: ChartMarker[];
    /** Legend line explaining the markers. @default none */
    markerNote?: string;
}

const WIDTH = 760;
const HEIGHT = 440;
const PLOT = { left: 64, top: 64, right: 520, bottom: 380 };
const LEGEND_X = 540;
const FONT = 'font-family="Helvetica, Arial, sans-serif"';

/** An SVG line chart of recall against pages fetched, one line per crawler; no dependencies. */
export function recallChartSvg(chart: RecallChart): string {
    const x = (pages: number) => PLOT.left + ((PLOT.right - PLOT.left) * pages) / chart.maxPages;
    const y = (recall: number) => PLOT.bottom - (PLOT.bottom - PLOT.top) * recall;
    const fmt = (n: number) => n.toFixed(1);
    const parts: string[] = [
        `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" ${FONT}>`,
        `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
        `<text x="${PLOT.left}" y="26" font-size="17" font-weight="bold">${escapeHtml(chart.title)}</text>`,
        `<text x="${PLOT.left}" y="46" font-size="12" fill="#555">${escapeHtml(chart.subtitle)}</text>`,
    ];
    for (let tick = 0; tick <= 10; tick += 2) {
        const recall = tick / 10;
        parts.push(
            `<line x1="${PLOT.left}" y1="${fmt(y(recall))}" x2="${PLOT.right}" y2="${fmt(y(recall))}" stroke="#e3e3e3"/>`,
            `<text x="${PLOT.left - 8}" y="${fmt(y(recall) + 4)}" font-size="12" text-anchor="end">${recall.toFixed(1)}</text>`,
        );
    }
    const step = tickStep(chart.maxPages);
    for (let pages = 0; pages <= chart.maxPages; pages += step) {
        parts.push(
            `<line x1="${fmt(x(pages))}" y1="${PLOT.top}" x2="${fmt(x(pages))}" y2="${PLOT.bottom}" stroke="#f0f0f0"/>`,
            `<text x="${fmt(x(pages))}" y="${PLOT.bottom + 18}" font-size="12" text-anchor="middle">${pages}</text>`,
        );
    }
    parts.push(
        `<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#444"/>`,
        `<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 40}" font-size="13" text-anchor="middle">pages fetched (HTML pages and documents, from the server log)</text>`,
        `<text x="18" y="${(PLOT.top + PLOT.bottom) / 2}" font-size="13" text-anchor="middle" transform="rotate(-90 18 ${(PLOT.top + PLOT.bottom) / 2})">recall</text>`,
    );
    for (const series of chart.series) {
        const points = [[0, 0] as const, ...series.recall.slice(0, chart.maxPages).map((recall, i) => [i + 1, recall] as const)];
        const path = points.map(([pages, recall]) => `${fmt(x(pages))},${fmt(y(recall))}`).join(' ');
        parts.push(
            `<polyline points="${path}" fill="none" stroke="${series.colour}" stroke-width="2.5" stroke-linejoin="round"${series.dashed ? ' stroke-dasharray="7 4"' : ''}/>`,
        );
    }
    for (const marker of chart.markers ?? []) {
        parts.push(`<circle cx="${fmt(x(marker.pages))}" cy="${fmt(y(marker.recall))}" r="5" fill="${marker.colour}" stroke="#ffffff" stroke-width="1.5"/>`);
    }
    let legendY = PLOT.top + 10;
    for (const series of chart.series) {
        const final = series.recall.at(-1) ?? 0;
        parts.push(
            `<line x1="${LEGEND_X}" y1="${legendY}" x2="${LEGEND_X + 26}" y2="${legendY}" stroke="${series.colour}" stroke-width="3"${series.dashed ? ' stroke-dasharray="7 4"' : ''}/>`,
            `<text x="${LEGEND_X + 34}" y="${legendY + 4}" font-size="12">${escapeHtml(series.label)}</text>`,
            `<text x="${LEGEND_X + 34}" y="${legendY + 19}" font-size="11" fill="#555">recall ${final.toFixed(2)} after ${series.recall.length} pages</text>`,
        );
        legendY += 38;
    }
    if (chart.markerNote) {
        parts.push(
            `<circle cx="${LEGEND_X + 13}" cy="${legendY}" r="5" fill="#777"/>`,
            `<text x="${LEGEND_X + 34}" y="${legendY + 4}" font-size="11" fill="#555">${escapeHtml(chart.markerNote)}</text>`,
        );
    }
    parts.push('</svg>');
    return `${parts.join('\n')}\n`;
}
