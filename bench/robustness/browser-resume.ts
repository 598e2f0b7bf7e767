// The full crash-safety run of issue 6: a 200-page browser crawl at concurrency 8, killed with SIGKILL at five random
// points and resumed after each. CI runs a 40-page version (test/robustness/crash.test.ts).
// Usage: npx tsx bench/robustness/browser-resume.ts [pages=200] [kills=5]
import { killAndResume, treeSite } from '../../test/robustness/kill-resume.js';

const pages = Number(process.argv[2] ?? 200);
const kills = Number(process.argv[3] ?? 5);
const concurrency = 8;
// Random kill points, each after 10–40 page requests of a run, so every run makes progress before it dies.
const killPoints = Array.from({ length: kills }, () => 10 + Math.floor(Math.random() * 31));

const site = await treeSite(pages, 300);
try {
    const options = { mode: 'browser', startUrls: [`${site.url}/p0`], maxPages: pages, maxConcurrency: concurrency, minConcurrency: concurrency, maxRequestsPerHost: concurrency };
    const result = await killAndResume(site, options, killPoints);
    const lost = pages - new Set(result.fetched).size;
    const duplicated = result.delivered.length - new Set(result.delivered).size;
    console.log(
        JSON.stringify({
            pages,
            concurrency,
            killPoints,
            kills: result.kills,
            finalExitCode: result.finalRun.code,
            pageRequests: result.fetched.length,
            refetched: result.refetched,
            refetchBound: result.kills * concurrency,
            delivered: result.delivered.length,
            duplicatedDeliveries: duplicated,
            lostPages: lost,
            seconds: Math.round(result.seconds),
        }),
    );
    if (result.finalRun.code !== 0 || lost > 0 || duplicated > 0 || result.delivered.length !== pages || result.refetched > result.kills * concurrency) {
        console.error(result.finalRun.stderr.slice(-3000));
        process.exitCode = 1;
    }
} finally {
    await site.close();
}
