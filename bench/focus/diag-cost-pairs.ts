// Cost diagnostic (issue 11): tsx bench/focus/diag-cost-pairs.ts <rounds> <variants.json> <requests.jsonl of a 100-page acl2020 dialogue crawl>
// The cost list (its first 60 pages), crawled by each variant once per round, the order reversed every other round,
// so that variants sit side by side in time on a machine whose speed drifts. A variant is {name, kind, env}: its env
// variables (names starting with X_) are set for its crawl only; a crawlee-focus variant is a code change that reads them, made in a scratch
// worktree (the twenty-sixth session's runs in bench/results/session-2026-12-06g/ toggled the scope guard, the media flags, the
// snapshot wait and the request events this way). The variant named "plain" is the reference of the ratios.
import path from 'node:path';

import { mean, median } from '../measure.js';
import { COST_CONCURRENCY, COST_PAGES, alternatingRounds } from './cost.js';
import { crawlInChild } from './runner.js';
import { scoreLog } from './score.js';
import { RUNS_DIR, loadLabels } from './paths.js';

const rounds = Number(process.argv[2] ?? 4);
const variants: Array<{ name: string; kind: 'playwright-list' | 'focus-list'; env: Record<string, string> }> = JSON.parse(process.argv[3]!);
const sourceLog = process.argv[4]!;
const label = loadLabels().find((l) => l.id === 'acl2020--dialogue-systems')!;
const list = (await scoreLog(sourceLog, label, [100])).pageUrls.slice(0, COST_PAGES);
const results: Record<string, number[]> = {};
const cpu: Record<string, Array<{ node: number; children: number }>> = {};
const phases: Record<string, Array<Record<string, number>>> = {};
for (const { round: r, item: v } of alternatingRounds(variants, rounds)) {
    for (const k of Object.keys(process.env)) if (k.startsWith('X_')) delete process.env[k];
    Object.assign(process.env, v.env);
    const dir = path.join(RUNS_DIR, 'cost-pairs', `${v.name}-${r}`);
    const outcome = await crawlInChild({ kind: v.kind, startUrls: list, query: label.query, budget: list.length, maxConcurrency: COST_CONCURRENCY, minConcurrency: COST_CONCURRENCY }, dir);
    if (outcome.error) throw new Error(outcome.error);
    (results[v.name] ??= []).push(outcome.wallMillis / 1000);
    if (outcome.cpuSeconds) (cpu[v.name] ??= []).push(outcome.cpuSeconds);
    if (outcome.report?.timings) (phases[v.name] ??= []).push(outcome.report.timings.millisPerPage);
    console.log(`round ${r} ${v.name}: ${(outcome.wallMillis / 1000).toFixed(1)} s cpu ${JSON.stringify(outcome.cpuSeconds)}`);
}
const plain = results['plain']!;
for (const [name, secs] of Object.entries(results)) {
    const ratios = secs.map((s, i) => s / plain[i]!);
    const ph = phases[name];
    const mp = ph ? Object.fromEntries(Object.keys(ph[0]!).map((k) => [k, Math.round(mean(ph.map((p) => p[k] ?? 0)))])) : {};
    const c = cpu[name] ?? [];
    console.log(`${name}: mean ${mean(secs).toFixed(1)} s, ratio of means ${(mean(secs) / mean(plain)).toFixed(3)}, ratios ${ratios.map((x) => x.toFixed(3)).join(' ')}, median ${median(ratios).toFixed(3)}, cpu node ${mean(c.map((x) => x.node)).toFixed(2)} chromium ${mean(c.map((x) => x.children)).toFixed(2)} ${JSON.stringify(mp)}`);
}
