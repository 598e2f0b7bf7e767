import { existsSync } from 'node:fs';
import type { Page } from 'playwright';

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
]);

/** Debian's Chromium package, used when Playwright has no browser of its own (it downloads none here). */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * The browser to launch: the caller's choice, then `CRAWLEE_DEFAULT_BROWSER_PATH`, then Debian's Chromium when it is
 * installed; `undefined` leaves the choice to Playwright.
 */
export function chromiumExecutable(explicit?: string): string | undefined {
    if (explicit) return explicit;
    const fromEnv = process.env.CRAWLEE_DEFAULT_BROWSER_PATH;
    if (fromEnv) return fromEnv;
    return existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}

export interface SettleOptions {
    /** The DOM must stay unchanged this long. */
    quietMillis: number;
    /** Give up waiting after this long (pages that never settle). */
    timeoutMillis: number;
}

/**
 * Waits until the rendered DOM stops changing, so links and text built by JavaScript are read.
 * `waitUntil: 'load'` misses timer-created links and `networkidle` is racy (crawlee-notes §2); a mutation-quiet
 * period with a cap handles both, and endless pages cost at most `timeoutMillis`.
 */
export async function settleRenderedPage(page: Page, { quietMillis, timeoutMillis }: SettleOptions): Promise<void> {
    await page
        .evaluate(
            ({ quiet, cap }) =>
                new Promise<void>((resolve) => {
                    let timer: ReturnType<typeof setTimeout>;
                    const observer = new MutationObserver(() => {
                        clearTimeout(timer);
                        timer = setTimeout(done, quiet);
                    });
                    function done() {
                        observer.disconnect();
                        resolve();
                    }
                    observer.observe(document, { subtree: true, childList: true, characterData: true });
                    timer = setTimeout(done, quiet);
                    setTimeout(done, cap);
                }),
            { quiet: quietMillis, cap: timeoutMillis },
        )
        .catch(() => undefined); // a page that navigated away or crashed is read as it is
}
