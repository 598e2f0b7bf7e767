import { LogLevel, log } from 'crawlee';
import { afterEach, describe, expect, it } from 'vitest';

import type { CrawlMode } from '../../src/index.js';
import { TRAP_ROUTES, startFaultServer, trapOf } from '../helpers/fault-server.js';
import type { FaultServer } from '../helpers/fault-server.js';
import { crawl } from './crawl.js';

log.setLevel(LogLevel.ERROR);

const BUDGET = 100;
/** Issue 6: each trap may take at most 5 % of the page budget. */
const MAX_TRAP_SHARE = 0.05;

/**
 * A deep site (fan-out 2) with 300 normal pages, three times the budget, and the four infinite traps linked from the
 * home page and from every normal page: calendar, session ids, endless pagination, relative-link explosion.
 */
describe.each<[CrawlMode, string | null]>([
    ['http', null],
    ['http', 'telescope optics'],
    // The browser fetches what the frontier hands out, as http mode does: one breadth-first run checks the wiring.
    ['browser', null],
])('traps in %s mode, query %s', (mode, query) => {
    let server: FaultServer | undefined;
    afterEach(async () => server?.close());

    it(`spends at most ${MAX_TRAP_SHARE * 100} % of the budget on each trap`, async () => {
        server = await startFaultServer({ normalPages: 300, fanout: 2, faults: false });
        const { report } = await crawl({ mode, query, startUrls: [`${server.url}/`], maxPages: BUDGET, maxConcurrency: 4, stop: 'never' });
        const pages = server.requests.filter((r) => r.path !== '/robots.txt' && r.path !== '/favicon.ico');
        expect(pages).toHaveLength(BUDGET);
        expect(report.pagesFetched).toBe(BUDGET);

        const perTrap = Object.fromEntries(Object.keys(TRAP_ROUTES).map((trap) => [trap, pages.filter((p) => trapOf(p.path) === trap).length]));
        console.log(`trap pages of ${BUDGET} (${mode}, ${query ? 'focused' : 'breadth-first'}): ${JSON.stringify(perTrap)}`);
        for (const [trap, count] of Object.entries(perTrap)) expect(count, trap).toBeLessThanOrEqual(MAX_TRAP_SHARE * BUDGET);
        expect(pages.filter((p) => trapOf(p.path) === null).length).toBeGreaterThanOrEqual(BUDGET * (1 - 4 * MAX_TRAP_SHARE));
        // breadth-first meets the traps early: the learner must have demoted the ones it fetched repeatedly
        if (!query) expect(report.traps.length).toBeGreaterThanOrEqual(1);
    }, 240_000);
});
