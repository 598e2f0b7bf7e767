/**
 * Offline check of the page judge: every captured page of a corpus site is extracted and judged with site
 * statistics taken over the whole capture, and the judgement is compared with the relevance labels.
 * Prints, per label: AUC (relevant against the rest), and at the evidence bar the pages counted, how many of them
 * are relevant, and how many relevant pages fall below it. A development tool for finding where the judge fails;
 * a crawl sees only part of the site, so its statistics differ.
 *
 *   npx tsx bench/focus/judge.ts [label-substring …]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { extractPage } from '../../src/extract/index.js';
import { EVIDENCE_RELEVANCE } from '../../src/focus/adaptive.js';
import { Facets, FacetStats } from '../../src/focus/facets.js';
import { Query } from '../../src/focus/query.js';
import { locator } from '../../src/focus/url-shape.js';
import { CORPORA_DIR, SITES_CONFIG, loadLabels } from './paths.js';

interface SiteConfig { host: string; root: string; aliases?: string[] }

function htmlFiles(dir: string): string[] {
    const out: string[] = [];
    for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) out.push(...htmlFiles(path));
        else if (/\.html?$/i.test(name) || /\.html%3F/i.test(name)) out.push(path);
    }
    return out;
}

/** The capture's file for a URL path, as the corpus server maps it. */
function fileKey(pathname: string): string {
    let path = decodeURIComponent(pathname);
    if (path.endsWith('/')) path += 'index.html';
    return path.replace(/^\//, '');
}

const cache = new Map<string, { key: string; url: string; title: string; markdown: string }[]>();
function pagesOf(site: SiteConfig, scheme: string) {
    const hit = cache.get(site.host);
    if (hit) return hit;
    const root = join(CORPORA_DIR, site.root);
    const pages = htmlFiles(root).map((file) => {
        const key = relative(root, file);
        const url = `${scheme}//${site.host}/${key.replace(/(^|\/)index\.html$/, '$1')}`;
        const data = extractPage(readFileSync(file, 'utf8'), url);
        return { key, url, title: data.title, markdown: data.markdown };
    });
    cache.set(site.host, pages);
    return pages;
}

function auc(pos: number[], neg: number[]): number {
    let wins = 0;
    for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
    return wins / Math.max(1, pos.length * neg.length);
}

const sites = (JSON.parse(readFileSync(SITES_CONFIG, 'utf8')) as { sites: SiteConfig[] }).sites;
const filters = process.argv.slice(2);
for (const label of loadLabels().filter(({ id }) => filters.length === 0 || filters.some((f) => id.includes(f)))) {
    const entry = new URL(label.entry[0]!);
    const site = sites.find((s) => s.host === entry.host || s.aliases?.includes(entry.host));
    if (!site) continue;
    const pages = pagesOf(site, entry.protocol);
    const relevantKeys = new Set(label.relevant.map((u) => fileKey(new URL(u).pathname)));
    const query = new Query(label.query);
    const stats = new FacetStats(query.size);
    const facets = pages.map((p) => Facets.of(query, p.title, locator(p.url), p.markdown));
    for (const f of facets) stats.observe(f);
    const scored = pages.map((p, i) => ({ ...p, relevance: stats.relevance(facets[i]!), relevant: relevantKeys.has(p.key) }));
    const pos = scored.filter((p) => p.relevant).map((p) => p.relevance);
    const neg = scored.filter((p) => !p.relevant).map((p) => p.relevance);
    const counted = scored.filter((p) => p.relevance >= EVIDENCE_RELEVANCE);
    const countedRelevant = counted.filter((p) => p.relevant).length;
    console.log(
        `${label.id.padEnd(48)} pages ${pages.length} relevant ${pos.length}/${label.relevant.length}  AUC ${auc(pos, neg).toFixed(3)}  ` +
            `≥bar ${counted.length} (relevant ${countedRelevant}, precision ${(countedRelevant / Math.max(1, counted.length)).toFixed(2)})  relevant below bar ${pos.filter((r) => r < EVIDENCE_RELEVANCE).length}  ` +
            `weights ${stats.weights.map((w) => w.toFixed(2)).join(',')} [${query.terms.join(' ')}]`,
    );
    if (process.env.JUDGE_SHOW) {
        for (const p of scored.filter((p) => !p.relevant && p.relevance >= EVIDENCE_RELEVANCE).sort((a, b) => b.relevance - a.relevance).slice(0, Number(process.env.JUDGE_SHOW)))
            console.log(`   FP ${p.relevance.toFixed(2)} ${p.title.slice(0, 70)}  ${p.key}`);
        for (const p of scored.filter((p) => p.relevant && p.relevance < EVIDENCE_RELEVANCE).slice(0, Number(process.env.JUDGE_SHOW)))
            console.log(`   FN ${p.relevance.toFixed(2)} ${p.title.slice(0, 70)}  ${p.key}`);
    }
}
