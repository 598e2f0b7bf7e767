import { gunzipSync } from 'node:zlib';

import { log as crawleeLog } from 'crawlee';

import { hostOrNull } from '../url/index.js';
import { fetchBounded } from './bounded-fetch.js';
import { ROBOTS_PRODUCT_TOKEN, RobotsPolicy } from '../url/robots.js';
import { parseSitemap } from '../url/sitemap.js';

/** The User-Agent header of both crawler modes: it names the robots.txt product token, so site owners can address us. */
export const CRAWLEE_FOCUS_USER_AGENT = `Mozilla/5.0 (compatible; ${ROBOTS_PRODUCT_TOKEN}/0.1)`;

/** robots.txt and sitemap files read at most (RFC 9309 §2.5 asks parsers to read at least 500 KiB; sitemaps.org allows 50 MB). */
export const MAX_FETCHED_TEXT_BYTES = 50 * 1024 * 1024;

/** Redirect hops followed for robots.txt (RFC 9309 §2.3.1.2: at least five). */
export const ROBOTS_MAX_REDIRECTS = 5;

/** Largest honoured `Crawl-delay` (Heritrix's `respectCrawlDelayUpToSeconds` default). */
export const MAX_CRAWL_DELAY_SECONDS = 300;

/** Sitemap files read per host at most (robots.txt entries and index children together); bounds a sitemap-index bomb. */
export const MAX_SITEMAP_FILES_PER_HOST = 10;

/** Pauses before the second and third attempt at an unreachable robots.txt. */
export const ROBOTS_UNREACHABLE_RETRY_MILLIS: readonly number[] = Object.freeze([1_000, 4_000]);

/** A fetched file: its status and raw body (`status` 0 when the server could not be reached). */
export interface FetchedText {
    status: number;
    body: Buffer;
}

/** Fetches a robots.txt or sitemap file; must not throw (network errors are status 0). */
export type TextFetcher = (url: string) => Promise<FetchedText>;

export interface TextFetcherOptions {
    /** @default CRAWLEE_FOCUS_USER_AGENT */
    userAgent?: string;
    /** Proxy for these requests (the crawl's first proxy URL). @default none */
    proxyUrl?: string;
    /** Accept invalid TLS certificates. @default false */
    ignoreHttpsErrors?: boolean;
    /** @default 10_000 */
    timeoutMillis?: number;
    /** Bodies are cut here. @default MAX_FETCHED_TEXT_BYTES */
    maxBytes?: number;
}

/** The default {@link TextFetcher}: got-scraping with our User-Agent, through the crawl's proxy. */
export function createTextFetcher(options: TextFetcherOptions = {}): TextFetcher {
    return async (url) => {
        try {
            const { status, body } = await fetchBounded({
                url,
                ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
                userAgent: options.userAgent ?? CRAWLEE_FOCUS_USER_AGENT,
                maxRedirects: ROBOTS_MAX_REDIRECTS,
                timeoutMillis: options.timeoutMillis ?? 10_000,
                maxBytes: options.maxBytes ?? MAX_FETCHED_TEXT_BYTES,
                ignoreHttpsErrors: options.ignoreHttpsErrors ?? false,
            });
            return { status, body };
        } catch {
            return { status: 0, body: Buffer.alloc(0) };
        }
    };
}

export interface RobotsCacheOptions {
    /** Reads robots.txt and sitemap files. @default createTextFetcher() */
    fetchText?: TextFetcher;
    /** The name robots.txt groups are matched against. @default ROBOTS_PRODUCT_TOKEN */
    productToken?: string;
    /** Read the sitemaps robots.txt names and hand their URLs to `onSitemapUrls`. @default true */
    useSitemaps?: boolean;
    /** Receives the page URLs of each sitemap read. @default none */
    onSitemapUrls?: (urls: string[], sitemapUrl: string) => void;
    /**
     * Pauses before each new attempt at a robots.txt that could not be reached or answered 5xx; the host is treated
     * as disallowed only after the last. @default ROBOTS_UNREACHABLE_RETRY_MILLIS (1 s, then 4 s)
     */
    unreachableRetryMillis?: readonly number[];
    /** Where the cache explains what it decided. @default Crawlee's `log` */
    log?: { info(message: string): void; warning(message: string): void };
}

/**
 * robots.txt of every host the crawl touches and the sitemaps it names. Hosts are keyed as the politeness limits key
 * them (`hostOf`: www.e.edu and e.edu are one), and each file is fetched once, from the first URL's scheme and port.
 */
export class RobotsCache {
    private readonly policies = new Map<string, RobotsPolicy>();
    private readonly loading = new Map<string, Promise<RobotsPolicy>>();
    private readonly fetchText: TextFetcher;
    private readonly log: NonNullable<RobotsCacheOptions['log']>;
    private readonly sitemapFilesRead = new Map<string, number>();
    private pendingSitemaps = 0;

    constructor(private readonly options: RobotsCacheOptions = {}) {
        this.fetchText = options.fetchText ?? createTextFetcher();
        this.log = options.log ?? crawleeLog;
    }

    /** The host's policy, or `undefined` while its robots.txt is being fetched (which this starts). */
    policyFor(url: string): RobotsPolicy | undefined {
        const host = hostOrNull(url);
        if (host === null) return RobotsPolicy.disallowAll();
        const policy = this.policies.get(host);
        if (!policy) void this.load(url, host);
        return policy;
    }

    /** The host's policy once its robots.txt has been read. */
    async ready(url: string): Promise<RobotsPolicy> {
        const host = hostOrNull(url);
        if (host === null) return RobotsPolicy.disallowAll();
        return this.policies.get(host) ?? this.load(url, host);
    }

    /** Whether the host's robots.txt has been read (`host` as `hostOf` gives it). */
    isLoaded(host: string): boolean {
        return this.policies.has(host);
    }

    /** `Crawl-delay` of a loaded host, in milliseconds (capped at {@link MAX_CRAWL_DELAY_SECONDS}). */
    crawlDelayMillis(host: string): number {
        const seconds = this.policies.get(host)?.crawlDelaySeconds ?? 0;
        return Math.min(seconds, MAX_CRAWL_DELAY_SECONDS) * 1000;
    }

    /** True while a robots.txt or sitemap is being read: the crawl is not finished yet. */
    get hasPendingWork(): boolean {
        return this.loading.size > 0 || this.pendingSitemaps > 0;
    }

    private load(url: string, host: string): Promise<RobotsPolicy> {
        const running = this.loading.get(host);
        if (running) return running;
        const robotsUrl = new URL('/robots.txt', url).href;
        // The load always settles with a policy, so no host waits forever: a fetcher that throws counts as an
        // unreachable server.
        const promise = (async () => {
            const fetched = await this.fetchRobots(robotsUrl);
            const policy = this.interpret(robotsUrl, fetched.status, fetched.body);
            this.policies.set(host, policy);
            this.loading.delete(host);
            if (this.options.useSitemaps ?? true) for (const sitemap of policy.sitemaps) void this.readSitemap(sitemap, host);
            return policy;
        })();
        this.loading.set(host, promise);
        return promise;
    }

    /**
     * Fetches robots.txt, again after a pause when the server could not be reached or answered 5xx: a moment's
     * overload (of the site, or of this machine) must not close a host for the whole crawl. The host takes nothing
     * meanwhile, as RFC 9309 §2.3.1.4 asks of an unreachable robots.txt.
     */
    private async fetchRobots(robotsUrl: string): Promise<FetchedText> {
        for (let attempt = 0; ; attempt++) {
            let fetched: FetchedText;
            try {
                fetched = await this.fetchText(robotsUrl);
            } catch {
                fetched = { status: 0, body: Buffer.alloc(0) };
            }
            const unreachable = fetched.status === 0 || fetched.status >= 500;
            const pause = (this.options.unreachableRetryMillis ?? ROBOTS_UNREACHABLE_RETRY_MILLIS)[attempt];
            if (!unreachable || pause === undefined) return fetched;
            this.log.info(`crawlee-focus: ${robotsUrl} could not be read (${fetched.status === 0 ? 'network error' : `HTTP ${fetched.status}`}); trying again in ${pause / 1000} s.`);
            await new Promise((resolve) => setTimeout(resolve, pause));
        }
    }

    /** RFC 9309 §2.3.1: 2xx is parsed, 4xx allows everything, 5xx and unreachable disallow everything. */
    private interpret(robotsUrl: string, status: number, body: Buffer): RobotsPolicy {
        if (status >= 200 && status < 300) {
            const policy = RobotsPolicy.parse(body.toString('utf8'), this.options.productToken ?? ROBOTS_PRODUCT_TOKEN);
            if (policy.crawlDelaySeconds) this.log.info(`crawlee-focus: ${robotsUrl} asks for ${policy.crawlDelaySeconds} s between requests.`);
            return policy;
        }
        if (status >= 400 && status < 500) return RobotsPolicy.allowAll();
        this.log.warning(
            `crawlee-focus: ${robotsUrl} is unreachable (${status === 0 ? 'network error' : `HTTP ${status}`}); the host is treated as disallowed (RFC 9309). Use respectRobotsTxt: false (--ignore-robots) to crawl it anyway.`,
        );
        return RobotsPolicy.disallowAll();
    }

    private async readSitemap(sitemapUrl: string, host: string): Promise<void> {
        const read = this.sitemapFilesRead.get(host) ?? 0;
        if (read >= MAX_SITEMAP_FILES_PER_HOST) return;
        this.sitemapFilesRead.set(host, read + 1);
        this.pendingSitemaps += 1;
        try {
            const { status, body } = await this.fetchText(sitemapUrl);
            if (status < 200 || status >= 300) {
                this.log.warning(`crawlee-focus: sitemap ${sitemapUrl} answered ${status || 'nothing'}; skipped.`);
                return;
            }
            const text = (body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body, { maxOutputLength: MAX_FETCHED_TEXT_BYTES }) : body).toString('utf8');
            const sitemap = parseSitemap(text);
            if (sitemap.kind === 'index') for (const child of sitemap.urls) void this.readSitemap(child, host);
            else if (sitemap.urls.length > 0) this.options.onSitemapUrls?.(sitemap.urls, sitemapUrl);
        } catch (error) {
            this.log.warning(`crawlee-focus: sitemap ${sitemapUrl} could not be read (${(error as Error).message}); skipped.`);
        } finally {
            this.pendingSitemaps -= 1;
        }
    }
}
