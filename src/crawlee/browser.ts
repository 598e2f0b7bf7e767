import { existsSync } from 'node:fs';
import type { Page, Request as PlaywrightRequest } from 'playwright';

/** Where Chromium's own update and sign-in services are sent: the discard port on loopback, which no proxy sees. */
const SERVICE_SINK = 'http://127.0.0.1:9/';

/**
 * Flags for a headless Chromium that works offline and as root: no sandbox (root), no GPU, and none of the
 * background services that try to reach Google's hosts (a closed network refuses them by the dozen).
 */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    '--disable-default-apps',
    '--disable-extensions',
    // Chromium's own services call Google whatever the flags above say: the component updater asks for the on-device
    // model manifest on demand (component ceofaddefefcbblgcgnibnonglccbfja), the account service calls GAIA, and
    // autofill asks content-autofill.googleapis.com about every page with a form (a few requests per page, each
    // naming the page's form structure). All are pointed at a loopback port that answers nothing, so they never
    // reach the network or the crawl's proxy. (A `--disable-features` of our own would replace Playwright's list.)
    `--component-updater=url-source=${SERVICE_SINK}`,
    `--gaia-url=${SERVICE_SINK}`,
    `--autofill-server-url=${SERVICE_SINK}`,
]);

/**
 * The `--blink-settings` Playwright passes to a headless Chromium: a mouse-like pointer that hovers, so pages see
 * `(hover: hover)` and `(pointer: fine)`. Chromium keeps only the last `--blink-settings`, so a flag that sets
 * another Blink setting must repeat these.
 */
const PLAYWRIGHT_HEADLESS_BLINK_SETTINGS = 'primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4';

/**
 * Flags under which Chromium never requests images (`<img>`, CSS backgrounds) or web fonts. Failing them one by one
 * through the Fetch domain cost a pause and a round trip to Node per request; these are never asked for. Audio and
 * video have no such flag and are still failed at their request (`blockMedia`).
 */
export function mediaBlockingArgs(headless: boolean): string[] {
    return [`--blink-settings=${headless ? `${PLAYWRIGHT_HEADLESS_BLINK_SETTINGS},` : ''}imagesEnabled=false`, '--disable-remote-fonts'];
}

/** Debian's Chromium launcher (`apt-get install chromium`), used when Playwright has no browser of its own. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** The binary Debian's launcher runs. */
export const DEBIAN_CHROMIUM_BINARY = '/usr/lib/chromium/chromium';

/**
 * The browser to launch: the caller's choice, then `CRAWLEE_DEFAULT_BROWSER_PATH`, then Debian's Chromium when it is
 * installed; `undefined` leaves the choice to Playwright.
 *
 * Debian's launcher is replaced by the binary it runs. The launcher sources `/etc/chromium.d/`, which exports Google
 * API keys and adds `--enable-remote-extensions`: with them Chromium polls `update.googleapis.com` for extension
 * updates and `accounts.google.com` for sign-in, through the crawl's proxy, whatever flags the crawl passes.
 */
export function chromiumExecutable(explicit?: string): string | undefined {
    const chosen = explicit || process.env.CRAWLEE_DEFAULT_BROWSER_PATH || (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined);
    return chosen === DEBIAN_CHROMIUM && existsSync(DEBIAN_CHROMIUM_BINARY) ? DEBIAN_CHROMIUM_BINARY : chosen;
}

export interface SettleOptions {
    /** The DOM must stay unchanged this long. */
    quietMillis: number;
    /** Give up waiting after this long (pages that never settle). */
    timeoutMillis: number;
}

/** Requests whose answers scripts turn into content: a list built from `fetch('/api/…')` is not there until they end. */
const DATA_REQUEST_TYPES = new Set(['fetch', 'xhr']);
/** How often the settle loop looks at the pending data requests. */
const PENDING_POLL_MILLIS = 25;

const pendingDataRequests = new WeakMap<Page, Set<PlaywrightRequest>>();
/** When the page's last counted data request ended (ms since the epoch). */
const lastDataEnd = new WeakMap<Page, number>();

/**
 * Starts counting a page's pending fetch/XHR requests; call it before navigation (a pre-navigation hook), so that
 * {@link settleRenderedPage} can wait for data that arrives after the DOM went quiet.
 *
 * @param counts Which requests to wait for. The crawl passes "in its scope": a list the page builds comes from its
 *   own site, while calls to analytics, video and tag hosts (which a closed network or a refusing proxy may never
 *   answer) build nothing the crawl reads, and waiting for them cost the settle step up to its timeout.
 * @default every fetch/XHR
 */
export function trackDataRequests(page: Page, counts: (url: string) => boolean = () => true): void {
    if (pendingDataRequests.has(page)) return;
    const pending = new Set<PlaywrightRequest>();
    pendingDataRequests.set(page, pending);
    page.on('request', (request) => {
        if (DATA_REQUEST_TYPES.has(request.resourceType()) && counts(request.url())) pending.add(request);
    });
    const done = (request: PlaywrightRequest) => {
        if (pending.delete(request)) lastDataEnd.set(page, Date.now());
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
}

/**
 * Waits until the rendered DOM stops changing and no fetch/XHR is pending, so links and text built by JavaScript are
 * read. `waitUntil: 'load'` misses timer-created links and `networkidle` is racy (crawlee-notes §2); a mutation-quiet
 * period after the last data request, with a cap, handles both, and endless pages cost at most `timeoutMillis`.
 * Resolves to whether the page changed after its load event (what {@link waitForLoad} alone would have missed): data
 * it was still waiting for, no load event by the end, or a change after it in {@link trackDomChanges}'s record.
 */
export async function settleRenderedPage(page: Page, { quietMillis, timeoutMillis }: SettleOptions): Promise<boolean> {
    const deadline = Date.now() + timeoutMillis;
    const pending = pendingDataRequests.get(page);
    let waitedForData = false;
    for (;;) {
        await waitForQuietDom(page, quietMillis, Math.max(0, deadline - Date.now()));
        if (!pending || pending.size === 0 || Date.now() >= deadline) break;
        // Data still on its way: wait for it, then for the DOM it produces to go quiet again.
        waitedForData = true;
        while (pending.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, PENDING_POLL_MILLIS));
    }
    if (waitedForData) return true;
    // A page that navigated away or crashed reads as changed: it is not taken for a still one.
    return (await domChangedAfterLoad(page)) ?? true;
}

/**
 * Whether the page had no load event yet or its DOM changed after it, in {@link trackDomChanges}'s record; null when
 * the page cannot be asked (it navigated away or crashed).
 */
async function domChangedAfterLoad(page: Page): Promise<boolean | null> {
    const times = await (page.evaluate(LOAD_TIMES_SOURCE) as Promise<{ loadEnd: number; lastChange: number | null }>).catch(() => null);
    if (times === null) return null;
    return times.loadEnd === 0 || (times.lastChange !== null && times.lastChange > times.loadEnd);
}

/**
 * Waits for the page's load event (as plain PlaywrightCrawler does), at most `timeoutMillis`: for pages whose kind
 * is known not to change after it. Navigation itself returns at DOMContentLoaded.
 */
export async function waitForLoad(page: Page, timeoutMillis: number): Promise<void> {
    await page.waitForLoadState('load', { timeout: timeoutMillis }).catch(() => undefined); // read as it is
}

/** Where the init script of {@link trackDomChanges} keeps the page-clock time of the DOM's last change. */
const LAST_CHANGE_KEY = '__crawleeFocusLastDomChange';
const tracksDomChanges = new WeakSet<Page>();

/**
 * Starts recording when the page's DOM last changed, from the first parsed node; call it before navigation (a
 * pre-navigation hook). {@link settleRenderedPage} reads this record to tell whether the page changed after its load
 * event, also when the change came before it started looking (the handler reaches the page some time after
 * DOMContentLoaded); without it, only data still coming or a missing load event count as a change.
 */
export async function trackDomChanges(page: Page): Promise<void> {
    if (tracksDomChanges.has(page)) return;
    tracksDomChanges.add(page);
    await page.addInitScript(`new MutationObserver(() => { window.${LAST_CHANGE_KEY} = performance.now(); }).observe(document, { subtree: true, childList: true, characterData: true });`);
}

/** Whether the page still waits for data it asked for (fetch/XHR counted by {@link trackDataRequests}). */
export function hasPendingData(page: Page): boolean {
    return (pendingDataRequests.get(page)?.size ?? 0) > 0;
}

/**
 * For a page read at its load event: whether it changed after load after all, so that it must be read once its DOM is
 * quiet. It did when its DOM changed after load ({@link trackDomChanges}), when data it asked for is still coming, or
 * when some arrived less than `quietMillis` ago (the script that turns it into links may not have run yet). The page
 * is asked first, so every request event Chromium sent before it has reached Node: a fetch begun before load but
 * not yet counted read as none (CI read the demo's programme list before it was built, once, under load).
 */
export async function changedAfterLoad(page: Page, quietMillis: number): Promise<boolean> {
    const changed = await domChangedAfterLoad(page);
    if (changed === null) return false; // navigated away or crashed: read as it is
    return changed || hasPendingData(page) || Date.now() - (lastDataEnd.get(page) ?? 0) < quietMillis;
}

/**
 * The in-page half of {@link waitForQuietDom}, as source text. A function handed to `page.evaluate` is serialised
 * as its source after the TypeScript transform: esbuild's `keepNames` (tsx, which runs the bench) wraps named inner
 * functions in a `__name` helper the page does not have, so the wait threw at once and was skipped, silently, in
 * every bench crawl; compiled with tsc it ran. Text passes through untouched.
 */
const QUIET_DOM_SOURCE = `(quiet, cap) => new Promise((resolve) => {
    let timer;
    let settled = false;
    const observer = new MutationObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(done, quiet);
    });
    const done = () => {
        if (settled) return;
        settled = true;
        observer.disconnect();
        resolve();
    };
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    // Quiet means quiet after the load event too: pages build on load, and navigation returned at DOMContentLoaded.
    if (document.readyState === 'complete') timer = setTimeout(done, quiet);
    else window.addEventListener('load', () => { clearTimeout(timer); timer = setTimeout(done, quiet); }, { once: true });
    setTimeout(done, cap);
})`;

/**
 * On the page's own clock (`performance.now()`): the end of its load event (0 before it) and its DOM's last change
 * (null unless {@link trackDomChanges} runs); as text, like {@link QUIET_DOM_SOURCE}.
 */
const LOAD_TIMES_SOURCE = `({ loadEnd: performance.getEntriesByType('navigation')[0]?.loadEventEnd ?? 0, lastChange: window.${LAST_CHANGE_KEY} ?? null })`;

/** Resolves once the DOM has not changed for `quietMillis` (after the load event too), or after `capMillis`. */
async function waitForQuietDom(page: Page, quietMillis: number, capMillis: number): Promise<void> {
    // A page that navigated away or crashed is read as it is.
    await page.evaluate(`(${QUIET_DOM_SOURCE})(${Number(quietMillis)}, ${Number(capMillis)})`).catch(() => undefined);
}
