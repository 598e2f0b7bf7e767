/**
 * crawlee-focus as an Apify Actor: reads and checks the input, builds the focused crawler on the SDK's storages and
 * proxy, keeps a status message with live progress, and ends with the stop reason and the estimated figures. An
 * abort stops the crawl gracefully, so the report is written anyway; a migration resumes from the frontier snapshot
 * the crawl keeps in the default key-value store.
 */
import { Actor, log } from 'apify';
import { Configuration } from 'crawlee';

import { createFocusedCrawler } from '../crawlee/index.js';
import type { DeliveryGate, FocusProgress } from '../crawlee/index.js';
import type { FocusReport } from '../report/index.js';
import { parseActorInput } from './input.js';

/** The pay-per-event event charged once per relevant page delivered; name it so in the Actor's pricing. */
export const RELEVANT_PAGE_EVENT = 'relevant-page';

/** Seconds between two status messages while the crawl runs. */
const STATUS_INTERVAL_MILLIS = 5_000;

function percent(value: number): string {
    return `${Math.round(value * 100)} %`;
}

/** One line of live progress. */
export function progressMessage(progress: FocusProgress): string {
    const recall = progress.estimatedRecall;
    const estimate = recall ? `, estimated recall ${percent(recall.value)} [${percent(recall.low)}–${percent(recall.high)}]` : '';
    return `Crawled ${progress.pagesFetched}/${progress.maxPages} pages, ${progress.relevantPages} relevant, ${progress.queueSize} queued${estimate}.`;
}

/** The terminal status message: why the crawl stopped and what it estimates it found. */
export function finalMessage(report: FocusReport): string {
    const recall = report.estimatedRecall;
    const estimate = recall ? ` Estimated recall ${percent(recall.value)} [${percent(recall.low)}–${percent(recall.high)}].` : '';
    const limit = report.stopReason === 'delivery-limit' ? ' The charge limit of the run was reached.' : '';
    return `Stopped (${report.stopReason}) after ${report.pagesFetched} pages: ${report.relevantPages} relevant pages delivered.${limit}${estimate} Report: key-value store, keys REPORT.html and FOCUS_REPORT.`;
}

/**
 * Pay-per-event runs: one {@link RELEVANT_PAGE_EVENT} per relevant page, charged once the page is in the dataset, and
 * no page delivered past the user's charge limit; the crawl stops there. Undefined for other pricing.
 */
export function chargingGate(): DeliveryGate | undefined {
    const charging = Actor.getChargingManager();
    if (!charging.getPricingInfo().isPayPerEvent) return undefined;
    let admittedNotCharged = 0; // pages admitted whose push and charge are still under way
    return {
        admit: () => {
            const left = charging.calculateMaxEventChargeCountWithinLimit(RELEVANT_PAGE_EVENT) - admittedNotCharged;
            if (left <= 0) return { deliver: false, stop: true };
            admittedNotCharged += 1;
            return { deliver: true, stop: left === 1 };
        },
        delivered: async () => {
            // The charging manager counts the event before its first await (then writes its log): the page leaves
            // the admitted count at that same moment, or a page admitted meanwhile would see it counted twice.
            const charged = Actor.charge({ eventName: RELEVANT_PAGE_EVENT });
            admittedNotCharged -= 1;
            await charged;
        },
    };
}

/** The browser: the image's Chromium when its environment names one, else the library's choice (Debian's Chromium). */
function browserPath(): string | undefined {
    return process.env.APIFY_DEFAULT_BROWSER_PATH || process.env.CRAWLEE_DEFAULT_BROWSER_PATH || undefined;
}

export async function runActor(): Promise<void> {
    // The SDK's own abort handler would exit before the report is written: this one stops the crawl first.
    await Actor.init({ gracefulShutdown: false });
    const input = await Actor.getInput<Record<string, unknown>>();
    const parsed = parseActorInput(input);
    if (!parsed.ok) {
        const message = `Invalid input: ${parsed.errors.join(' ')}`;
        log.error(message);
        await Actor.fail(message);
        return;
    }
    // After Actor.init: the charging manager knows the pricing and what earlier runs of a migrated one charged.
    const deliveryGate = chargingGate();
    const proxyInput = input?.['proxyConfiguration'] as Parameters<typeof Actor.createProxyConfiguration>[0] | undefined;
    const proxyConfiguration = proxyInput ? await Actor.createProxyConfiguration(proxyInput) : undefined;
    let lastStatus = 0;
    const focused = await createFocusedCrawler({
        ...parsed.options,
        configuration: Configuration.getGlobalConfig(),
        ...(proxyConfiguration ? { proxyConfiguration } : {}),
        ...(browserPath() ? { browser: { executablePath: browserPath()! } } : {}),
        ...(deliveryGate ? { deliveryGate } : {}),
        onProgress: (progress) => {
            if (Date.now() - lastStatus < STATUS_INTERVAL_MILLIS) return;
            lastStatus = Date.now();
            void Actor.setStatusMessage(progressMessage(progress));
        },
    });
    if (focused.focus.resumed) {
        log.info(`crawlee-focus: resuming the crawl found in storage (${focused.focus.manager.pagesScheduled} of ${focused.focus.manager.maxPages} pages fetched).`);
    }
    let stopping = false;
    const stop = (why: string) => () => {
        if (stopping) return;
        stopping = true;
        log.warning(`crawlee-focus: ${why}; stopping the crawl, the report is written when the pages in flight finish.`);
        focused.stop(`crawlee-focus: ${why}`);
    };
    Actor.on('aborting', stop('the run is being aborted'));
    // The frontier snapshot is durable after every handled page; a migrated run resumes from it.
    Actor.on('migrating', stop('the run is migrating to another server'));
    const report = await focused.run();
    await Actor.exit({ statusMessage: finalMessage(report) });
}
