import { chromium } from 'playwright';

import { CHROMIUM_ARGS, chromiumExecutable } from '../../src/index.js';

/** What Chromium shows of a REPORT.html: the figures, the drawn chart and the lists, read from the rendered page. */
export interface RenderedReport {
    figures: Record<string, string>;
    stopReason: string | null;
    stopText: string;
    /** Points of the relevant-pages line, and its drawn length and box in pixels. */
    relevantPoints: number;
    relevantLength: number;
    relevantBox: { width: number; height: number };
    harvestPoints: number;
    /** The chart lies within the page's width (no overflow off screen). */
    chartVisible: boolean;
    topPages: Array<{ url: string; relevance: string }>;
    skipped: Record<string, string>;
    embedded: unknown;
    /** Requests the page made: a self-contained page makes none. */
    requests: string[];
    /** Script elements other than the embedded JSON. */
    scripts: number;
}

/** Opens the page in Debian's Chromium (as content, so it can load nothing relative) and reads what it shows. */
export async function renderReport(html: string): Promise<RenderedReport> {
    const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: [...CHROMIUM_ARGS], headless: true });
    try {
        const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
        const requests: string[] = [];
        page.on('request', (request) => void requests.push(request.url()));
        await page.setContent(html, { waitUntil: 'load' });
        const read = await page.evaluate(() => {
            const line = document.querySelector<SVGPolylineElement>('#relevant-line');
            const box = line?.getBBox();
            const chart = document.querySelector('#harvest-chart')?.getBoundingClientRect();
            return {
                figures: Object.fromEntries([...document.querySelectorAll<HTMLElement>('[data-figure]')].map((e) => [e.dataset.figure!, e.textContent ?? ''])),
                stopReason: document.querySelector<HTMLElement>('#stop')?.dataset.stopReason ?? null,
                stopText: document.querySelector('#stop')?.textContent ?? '',
                relevantPoints: line?.points.numberOfItems ?? 0,
                relevantLength: line?.getTotalLength() ?? 0,
                relevantBox: { width: box?.width ?? 0, height: box?.height ?? 0 },
                harvestPoints: document.querySelector<SVGPolylineElement>('#harvest-line')?.points.numberOfItems ?? 0,
                chartVisible: chart !== undefined && chart.width > 100 && chart.height > 100 && chart.right <= window.innerWidth,
                topPages: [...document.querySelectorAll('#top-pages tbody tr')].map((row) => ({
                    url: row.querySelector('a')?.getAttribute('href') ?? '',
                    relevance: row.querySelector('[data-relevance]')?.textContent ?? '',
                })),
                skipped: Object.fromEntries([...document.querySelectorAll<HTMLElement>('#skipped [data-count]')].map((e) => [e.dataset.count!, e.textContent ?? ''])),
                embedded: JSON.parse(document.querySelector('#focus-report')?.textContent ?? 'null'),
                scripts: [...document.querySelectorAll('script')].filter((s) => s.type !== 'application/json').length,
            };
        });
        return { ...read, requests };
    } finally {
        await browser.close();
    }
}
