/**
 * `REPORT.html`: one self-contained page (no script, no external file) that shows a focused crawl at a glance: the
 * relevant pages found and the harvest against pages fetched, where and why it stopped, what it learned about the
 * site, what it skipped, and the best pages it delivered. Every figure on it comes from the `FOCUS_REPORT` it is made
 * from, which it also embeds as JSON.
 */
import { escapeHtml } from '../extract/escape-html.js';
import { STOP_REASONS, ruleAction, type FocusReport } from './focus-report.js';
import type { CurvePoint } from './harvest-curve.js';
import { learnedRules } from './learned-rules.js';
import { tickStep } from './ticks.js';

/** The harvest line is the share of relevant pages among the last `max(MIN_HARVEST_WINDOW, fetched / 10)` pages. */
export const MIN_HARVEST_WINDOW = 10;

const CHART = { width: 760, height: 380, left: 64, right: 690, top: 36, bottom: 320 };
const RELEVANT_COLOUR = '#1a7f37';
const HARVEST_COLOUR = '#8250df';
const STOP_COLOUR = '#cf222e';

const fmt = (n: number) => n.toFixed(1);
const percent = (value: number) => `${Math.round(value * 100)} %`;

/** Pages in the window the harvest line averages over. */
export function harvestWindow(fetched: number): number {
    return Math.max(MIN_HARVEST_WINDOW, Math.ceil(fetched / 10));
}

/** The harvest over the last {@link harvestWindow} pages at each point of the curve (from the second point on). */
export function windowedHarvest(curve: readonly CurvePoint[]): Array<{ fetched: number; harvest: number }> {
    const window = harvestWindow(curve.at(-1)?.fetched ?? 0);
    const result: Array<{ fetched: number; harvest: number }> = [];
    let start = 0;
    for (let i = 1; i < curve.length; i++) {
        const point = curve[i]!;
        while (start < i - 1 && curve[start + 1]!.fetched <= point.fetched - window) start += 1;
        const from = curve[start]!;
        const pages = point.fetched - from.fetched;
        if (pages > 0) result.push({ fetched: point.fetched, harvest: Math.min(1, (point.relevant - from.relevant) / pages) });
    }
    return result;
}

/** Relevant pages the estimate expects on the site (found ÷ recall), with its interval; null without an estimate. */
export function expectedTotal(report: FocusReport): { value: number; low: number; high: number | null } | null {
    const estimate = report.estimatedRecall;
    if (!estimate || estimate.value <= 0 || estimate.found <= 0) return null;
    return { value: estimate.found / estimate.value, low: estimate.found / Math.max(estimate.high, estimate.value), high: estimate.low > 0 ? estimate.found / estimate.low : null };
}

/** The inline SVG chart: relevant pages (left axis) and harvest (right axis) against pages fetched, and the stop. */
export function reportChartSvg(report: FocusReport): string {
    const curve = report.curve.length > 0 ? report.curve : [{ fetched: report.pagesFetched, relevant: report.relevantPages }];
    const points = curve[0]!.fetched > 0 ? [{ fetched: 0, relevant: 0 }, ...curve] : curve;
    const lastFetched = points.at(-1)!.fetched;
    const xMax = Math.max(1, lastFetched, report.maxPages ?? 0);
    const total = expectedTotal(report);
    const lastRelevant = points.at(-1)!.relevant;
    // The expected total is drawn while it fits in 3× the pages found; beyond that the chart would show nothing else.
    const showTotal = total !== null && total.value <= Math.max(3 * lastRelevant, lastRelevant + 10);
    const yTop = Math.max(1, lastRelevant, showTotal ? (total!.high !== null ? Math.min(total!.high, 3 * total!.value) : total!.value) : 0);
    const yStep = Math.max(1, tickStep(yTop * 1.05));
    const yMax = Math.ceil((yTop * 1.05) / yStep) * yStep;
    const x = (pages: number) => CHART.left + ((CHART.right - CHART.left) * pages) / xMax;
    const y = (relevant: number) => CHART.bottom - ((CHART.bottom - CHART.top) * relevant) / yMax;
    const yHarvest = (harvest: number) => CHART.bottom - (CHART.bottom - CHART.top) * harvest;
    const parts: string[] = [
        `<svg id="harvest-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART.width} ${CHART.height}" width="${CHART.width}" height="${CHART.height}" role="img" aria-label="Relevant pages found and harvest against pages fetched">`,
        `<rect width="${CHART.width}" height="${CHART.height}" fill="#ffffff"/>`,
    ];
    for (let tick = 0; tick <= yMax; tick += yStep) {
        parts.push(
            `<line x1="${CHART.left}" y1="${fmt(y(tick))}" x2="${CHART.right}" y2="${fmt(y(tick))}" stroke="#eaeef2"/>`,
            `<text x="${CHART.left - 8}" y="${fmt(y(tick) + 4)}" text-anchor="end" class="tick">${tick}</text>`,
        );
    }
    for (let tick = 0; tick <= 100; tick += 25) {
        parts.push(`<text x="${CHART.right + 8}" y="${fmt(yHarvest(tick / 100) + 4)}" class="tick" fill="${HARVEST_COLOUR}">${tick} %</text>`);
    }
    const xStep = Math.max(1, tickStep(xMax));
    for (let pages = 0; pages <= xMax; pages += xStep) {
        parts.push(`<text x="${fmt(x(pages))}" y="${CHART.bottom + 18}" text-anchor="middle" class="tick">${pages}</text>`);
    }
    parts.push(
        `<rect x="${CHART.left}" y="${CHART.top}" width="${CHART.right - CHART.left}" height="${CHART.bottom - CHART.top}" fill="none" stroke="#57606a"/>`,
        `<text x="${(CHART.left + CHART.right) / 2}" y="${CHART.bottom + 40}" text-anchor="middle" class="axis">pages fetched</text>`,
        `<text x="18" y="${(CHART.top + CHART.bottom) / 2}" text-anchor="middle" class="axis" fill="${RELEVANT_COLOUR}" transform="rotate(-90 18 ${(CHART.top + CHART.bottom) / 2})">relevant pages delivered</text>`,
        `<text x="${CHART.width - 12}" y="${(CHART.top + CHART.bottom) / 2}" text-anchor="middle" class="axis" fill="${HARVEST_COLOUR}" transform="rotate(90 ${CHART.width - 12} ${(CHART.top + CHART.bottom) / 2})">harvest, last ${harvestWindow(lastFetched)} pages</text>`,
    );
    if (showTotal) {
        const { value, low, high } = total!;
        const bandTop = y(Math.min(high ?? yMax, yMax));
        parts.push(
            `<rect id="expected-band" x="${CHART.left}" y="${fmt(bandTop)}" width="${CHART.right - CHART.left}" height="${fmt(Math.max(0, y(low) - bandTop))}" fill="${RELEVANT_COLOUR}" fill-opacity="0.08"/>`,
            `<line id="expected-total" x1="${CHART.left}" y1="${fmt(y(value))}" x2="${CHART.right}" y2="${fmt(y(value))}" stroke="${RELEVANT_COLOUR}" stroke-dasharray="6 4" stroke-opacity="0.7"/>`,
            `<text x="${CHART.left + 6}" y="${fmt(y(value) - 6)}" class="note" fill="${RELEVANT_COLOUR}">expected on the site ≈ ${value.toFixed(0)}</text>`,
        );
    }
    const harvest = windowedHarvest(points);
    if (harvest.length > 0) {
        const path = harvest.map((p) => `${fmt(x(p.fetched))},${fmt(yHarvest(p.harvest))}`).join(' ');
        parts.push(`<polyline id="harvest-line" points="${path}" fill="none" stroke="${HARVEST_COLOUR}" stroke-width="1.8" stroke-opacity="0.75"/>`);
    }
    const path = points.map((p) => `${fmt(x(p.fetched))},${fmt(y(p.relevant))}`).join(' ');
    parts.push(`<polyline id="relevant-line" points="${path}" fill="none" stroke="${RELEVANT_COLOUR}" stroke-width="2.8" stroke-linejoin="round"/>`);
    const stopX = x(report.pagesFetched);
    parts.push(
        `<line id="stop-marker" x1="${fmt(stopX)}" y1="${CHART.top}" x2="${fmt(stopX)}" y2="${CHART.bottom}" stroke="${STOP_COLOUR}" stroke-width="1.5" stroke-dasharray="3 3"/>`,
        `<circle cx="${fmt(stopX)}" cy="${fmt(y(report.relevantPages))}" r="4.5" fill="${STOP_COLOUR}"/>`,
        `<text x="${fmt(Math.min(stopX, CHART.right - 4))}" y="${CHART.top - 8}" text-anchor="${stopX > (CHART.left + CHART.right) / 2 ? 'end' : 'start'}" class="note" fill="${STOP_COLOUR}">stopped: ${escapeHtml(report.stopReason)} at ${report.pagesFetched} pages</text>`,
    );
    if (report.maxPages !== null && report.maxPages > report.pagesFetched) {
        parts.push(`<text x="${CHART.right - 4}" y="${CHART.bottom - 6}" text-anchor="end" class="note">budget ${report.maxPages}</text>`);
    }
    parts.push('</svg>');
    return parts.join('\n');
}

function figure(name: string, label: string, value: string, detail = ''): string {
    return `<div class="figure"><div class="label">${escapeHtml(label)}</div><div class="value" data-figure="${name}">${escapeHtml(value)}</div>${detail ? `<div class="detail">${escapeHtml(detail)}</div>` : ''}</div>`;
}

/** A table of counts by reason, largest first, with a bar for each. */
function countsTable(id: string, counts: Record<string, number>, empty: string): string {
    const rows = Object.entries(counts).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
    if (rows.length === 0) return `<p class="empty" id="${id}">${escapeHtml(empty)}</p>`;
    const max = rows[0]![1];
    return (
        `<table id="${id}"><thead><tr><th>reason</th><th class="num">count</th><th></th></tr></thead><tbody>` +
        rows.map(([reason, n]) => `<tr><td>${escapeHtml(reason)}</td><td class="num" data-count="${escapeHtml(reason)}">${n}</td><td class="bar"><span style="width:${fmt((100 * n) / max)}%"></span></td></tr>`).join('') +
        '</tbody></table>'
    );
}

function section(title: string, body: string): string {
    return `<section><h2>${escapeHtml(title)}</h2>${body}</section>`;
}

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;margin:0;background:#f6f8fa}
main{max-width:980px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:17px;margin:0 0 10px}
header p{margin:4px 0;color:#57606a}
.stop{background:#fff;border-left:4px solid ${STOP_COLOUR};padding:10px 14px;margin:16px 0;border-radius:4px}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:10px;margin:16px 0}
.figure{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:10px 12px}
.figure .label{font-size:12px;color:#57606a;text-transform:uppercase;letter-spacing:.03em}
.figure .value{font-size:22px;font-weight:600}.figure .detail{font-size:12px;color:#57606a}
section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:14px 16px;margin:14px 0;overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eaeef2;vertical-align:top}
th{font-size:12px;color:#57606a;text-transform:uppercase}.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.bar{width:35%}td.bar span{display:block;height:10px;background:#54aeff;border-radius:2px}
td.url a{color:#0969da;text-decoration:none;word-break:break-all}code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;padding:1px 4px;border-radius:3px;word-break:break-all}
.empty{color:#57606a;margin:0}svg{max-width:100%;height:auto}svg .tick{font-size:12px;fill:#57606a}svg .axis{font-size:13px}svg .note{font-size:12px}
.legend{font-size:13px;color:#57606a;margin:6px 0 0}.legend b{display:inline-block;width:18px;height:3px;vertical-align:middle;margin:0 4px 0 10px}
footer{color:#57606a;font-size:12px;text-align:center;margin:20px 0}`;

/** The stop rule's own estimate, when it fired, as a sentence after the final one. */
function atStopSentence(report: FocusReport): string {
    const atStop = report.estimatedRecallAtStop;
    return atStop ? ` The stop rule fired at ${percent(atStop.value)} [${percent(atStop.low)}–${percent(atStop.high)}] with ${atStop.found} found; pages in flight then finished after it.` : '';
}

/** REPORT.html for a crawl's report. `generatedAt` is shown in the footer. */
export function reportHtml(report: FocusReport, { generatedAt = new Date() }: { generatedAt?: Date } = {}): string {
    const estimate = report.estimatedRecall;
    const title = report.query ? `Focused crawl: “${report.query}”` : 'Breadth-first crawl';
    const figures = [
        figure('pagesFetched', 'Pages fetched', String(report.pagesFetched), report.maxPages !== null ? `of a budget of ${report.maxPages}` : 'no page budget'),
        figure('relevantPages', 'Relevant pages', String(report.relevantPages), 'delivered to the dataset'),
        figure('harvestRate', 'Harvest', percent(report.harvestRate), `${report.relevantPages} of ${report.pagesProcessed} pages read`),
        ...(estimate ? [figure('estimatedRecall', 'Estimated recall', percent(estimate.value), `interval ${percent(estimate.low)} – ${percent(estimate.high)}`)] : []),
        ...(report.coverage !== null ? [figure('coverage', 'Query coverage', percent(report.coverage), 'query facets with evidence')] : []),
        figure('frontierLeft', 'Links left', String(report.frontierLeft), `queued; ${report.reserve.held} more set aside`),
        figure('exploration', 'Exploration', String(report.exploration.pages), `pages into sections not opened before (${report.exploration.sectionsOpened} opened)`),
        figure('elapsed', 'Time', `${(report.elapsedMillis / 1000).toFixed(1)} s`, `${report.rendering.browser} rendered, ${report.rendering.http} over HTTP`),
    ];
    const total = expectedTotal(report);
    const estimateLine = estimate
        ? `<p>Estimated recall ${percent(estimate.value)} [${percent(estimate.low)}–${percent(estimate.high)}]: ${estimate.found} relevant pages found, ${estimate.expectedQueued.toFixed(1)} expected behind the links still queued, ${estimate.expectedDropped.toFixed(1)} behind links dropped${total ? `, so about ${total.value.toFixed(0)} on the site` : ''}.${atStopSentence(report)}</p>`
        : '';
    const topPages = report.topPages.length
        ? `<table id="top-pages"><thead><tr><th class="num">#</th><th>page</th><th class="num">relevance</th><th class="num">depth</th></tr></thead><tbody>` +
          report.topPages
              .map((p, i) => `<tr><td class="num">${i + 1}</td><td class="url"><a href="${escapeHtml(p.url)}">${escapeHtml(p.title || p.url)}</a><br><code>${escapeHtml(p.url)}</code></td><td class="num" data-relevance>${p.relevance.toFixed(3)}</td><td class="num">${p.depth}</td></tr>`)
              .join('') +
          '</tbody></table>'
        : '<p class="empty" id="top-pages">No page was delivered.</p>';
    const learned = learnedRules(report);
    const traps = report.traps.length + report.failing.length
        ? `<table id="traps"><thead><tr><th>URL template</th><th>why</th><th>glob for excludeUrlGlobs</th></tr></thead><tbody>` +
          [
              ...report.traps.map((t, i) => [t.shape, `trap: ${t.repeated} of ${t.fetched} pages repeated earlier content`, learned.excludeUrlGlobs[i]!.glob]),
              ...report.failing.map((f, i) => [f.part, `failing: ${f.failed} of ${f.fetched} fetches failed`, learned.excludeUrlGlobs[report.traps.length + i]!.glob]),
          ]
              .map(([shape, why, glob]) => `<tr><td><code>${escapeHtml(shape!)}</code></td><td>${escapeHtml(why!)}</td><td><code>${escapeHtml(glob!)}</code></td></tr>`)
              .join('') +
          '</tbody></table>'
        : '<p class="empty" id="traps">No URL template was demoted.</p>';
    const rules = report.rewriteRules.length
        ? `<table id="rewrite-rules"><thead><tr><th>host</th><th>rule</th><th class="num">duplicate pairs</th></tr></thead><tbody>` +
          report.rewriteRules.map((r) => `<tr><td>${escapeHtml(r.host)}</td><td><code>${escapeHtml(ruleAction(r))}</code></td><td class="num">${r.support}</td></tr>`).join('') +
          '</tbody></table>'
        : '<p class="empty" id="rewrite-rules">No rewrite rule was learned.</p>';
    const evidence = Object.entries(report.termEvidence);
    const evidenceBody = evidence.length
        ? `<table id="term-evidence"><thead><tr><th>query term</th><th class="num">relevant paragraphs</th></tr></thead><tbody>${evidence.map(([term, n]) => `<tr><td>${escapeHtml(term)}</td><td class="num">${n}</td></tr>`).join('')}</tbody></table>`
        : '<p class="empty">No query.</p>';
    const documents = Object.entries(report.documents);
    const documentsBody = documents.length
        ? `<table id="documents"><thead><tr><th>type</th><th class="num">fetched</th><th class="num">converted</th><th class="num">delivered</th></tr></thead><tbody>${documents.map(([kind, c]) => `<tr><td>${escapeHtml(kind)}</td><td class="num">${c.fetched}</td><td class="num">${c.converted}</td><td class="num">${c.delivered}</td></tr>`).join('')}</tbody></table>`
        : '<p class="empty">No document was fetched.</p>';
    // `<` is escaped so that no text in the report can end the script element.
    const json = JSON.stringify(report).replace(/</g, '\\u003c');
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · crawlee-focus report</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header>
<h1>${escapeHtml(title)}</h1>
<p>crawlee-focus report: ${report.pagesFetched} pages fetched, ${report.relevantPages} relevant pages delivered.</p>
</header>
<div class="stop" id="stop" data-stop-reason="${escapeHtml(report.stopReason)}"><strong>Stopped: ${escapeHtml(report.stopReason)}</strong> after ${report.pagesFetched} pages. ${escapeHtml(STOP_REASONS[report.stopReason] ?? '')}</div>
<div class="figures">${figures.join('')}</div>
<section id="chart"><h2>Relevant pages found against pages fetched</h2>
${reportChartSvg(report)}
<p class="legend"><b style="background:${RELEVANT_COLOUR}"></b>relevant pages delivered<b style="background:${HARVEST_COLOUR}"></b>harvest over the last ${harvestWindow(report.curve.at(-1)?.fetched ?? report.pagesFetched)} pages<b style="background:${STOP_COLOUR}"></b>the stop${total ? `<b style="background:${RELEVANT_COLOUR};opacity:.4"></b>relevant pages expected on the site, with the estimate's interval` : ''}</p>
${estimateLine}
</section>
${section('Top delivered pages', topPages)}
${section('Traps and failing parts demoted', traps)}
${section('Rewrite rules: spellings of one page', rules)}
${section('Links skipped, by reason', countsTable('skipped', report.skipped, 'No link was skipped.'))}
${section('Pages that could not be read, by reason', countsTable('failures', report.failures, 'Every page fetched was read.'))}
${section('Evidence per query term', evidenceBody)}
${section('Documents', documentsBody)}
<footer>Generated by crawlee-focus on ${escapeHtml(generatedAt.toISOString())}. ${report.duplicates.length} relevant pages were not delivered because their text was delivered under another URL.</footer>
</main>
<script type="application/json" id="focus-report">${json}</script>
</body>
</html>
`;
}
