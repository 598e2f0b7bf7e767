/**
 * The Actor's input: Website Content Crawler's names where the meaning is the same (`startUrls`, `maxCrawlPages`,
 * `crawlerType`, `useSitemaps`, `respectRobotsTxtFile`, `proxyConfiguration`, `ignoreHttpsErrors`, `maxConcurrency`)
 * plus crawlee-focus's own (`query`, `stop`, `minRelevance`, the politeness options, `documents`). Checked here, with
 * messages that say what to fix, because a local run does not go through the platform's schema validation.
 */
import type { CrawlMode, CreateFocusedCrawlerOptions } from '../crawlee/index.js';
import { MIN_RELEVANCE } from '../focus/index.js';

/** Website Content Crawler's crawler types that mean one of our modes. */
export const CRAWLER_TYPES: Readonly<Record<string, CrawlMode>> = Object.freeze({
    'playwright:chrome': 'browser',
    'playwright:adaptive': 'adaptive',
    cheerio: 'http',
});

/** The crawler type when the input names none: adaptive, as the command line's default mode (`DEFAULT_CLI_MODE`). */
export const DEFAULT_CRAWLER_TYPE = 'playwright:adaptive';

/** The input as the Actor receives it (see `.actor/input_schema.json` for titles, defaults and limits). */
export interface ActorInput {
    startUrls?: Array<string | { url?: unknown }>;
    query?: string;
    maxCrawlPages?: number;
    maxCrawlDepth?: number;
    includeUrlGlobs?: Array<string | { glob?: unknown }>;
    excludeUrlGlobs?: Array<string | { glob?: unknown }>;
    crawlerType?: string;
    stop?: string;
    minRelevance?: number;
    useSitemaps?: boolean;
    respectRobotsTxtFile?: boolean;
    proxyConfiguration?: Record<string, unknown>;
    ignoreHttpsErrors?: boolean;
    maxConcurrency?: number;
    maxRequestsPerHost?: number;
    minDelayPerHostMillis?: number;
    documents?: boolean;
}

/** The crawl options an input asks for (everything but the proxy, which needs the SDK), or what is wrong with it. */
export type ParsedInput = { ok: true; options: CreateFocusedCrawlerOptions } | { ok: false; errors: string[] };

function positiveInteger(errors: string[], name: string, value: unknown, { min = 1 } = {}): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
        errors.push(`"${name}" must be a whole number ≥ ${min} (got ${JSON.stringify(value)}).`);
        return undefined;
    }
    return value;
}

function flag(errors: string[], name: string, value: unknown): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') {
        errors.push(`"${name}" must be true or false (got ${JSON.stringify(value)}).`);
        return undefined;
    }
    return value;
}

function startUrlsOf(errors: string[], value: unknown): string[] {
    if (!Array.isArray(value) || value.length === 0) {
        errors.push('"startUrls" must list at least one URL, e.g. [{ "url": "https://example.com/" }].');
        return [];
    }
    const urls: string[] = [];
    value.forEach((entry, i) => {
        const url = typeof entry === 'string' ? entry : (entry as { url?: unknown } | null)?.url;
        if (typeof url !== 'string' || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
            errors.push(`"startUrls[${i}]" must be an http(s) URL (got ${JSON.stringify(url ?? entry)}).`);
        } else urls.push(url);
    });
    return urls;
}

/** Website Content Crawler's glob lists: `[{ "glob": "https://e.org/docs/**" }]` (plain strings are taken too). */
function globsOf(errors: string[], name: string, value: unknown): string[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) {
        errors.push(`"${name}" must be a list of globs, e.g. [{ "glob": "https://example.com/docs/**" }].`);
        return undefined;
    }
    const globs: string[] = [];
    value.forEach((entry, i) => {
        const glob = typeof entry === 'string' ? entry : (entry as { glob?: unknown } | null)?.glob;
        if (typeof glob !== 'string' || glob.trim() === '') errors.push(`"${name}[${i}]" must be a glob such as "https://example.com/docs/**" (got ${JSON.stringify(entry)}).`);
        else globs.push(glob.trim());
    });
    return globs;
}

/** Checks an input and turns it into crawl options. */
export function parseActorInput(input: unknown): ParsedInput {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
        return { ok: false, errors: ['The input must be a JSON object with at least "startUrls" (and a "query" to focus on).'] };
    }
    const raw = input as ActorInput;
    const errors: string[] = [];
    const startUrls = startUrlsOf(errors, raw.startUrls);
    if (raw.query !== undefined && raw.query !== null && typeof raw.query !== 'string') errors.push(`"query" must be text (got ${JSON.stringify(raw.query)}).`);
    const crawlerType = raw.crawlerType ?? DEFAULT_CRAWLER_TYPE;
    const mode = CRAWLER_TYPES[crawlerType];
    if (!mode) errors.push(`"crawlerType" must be one of ${Object.keys(CRAWLER_TYPES).map((t) => `"${t}"`).join(', ')} (got ${JSON.stringify(raw.crawlerType)}).`);
    const stop = raw.stop ?? 'adaptive';
    if (stop !== 'adaptive' && stop !== 'never') errors.push(`"stop" must be "adaptive" or "never" (got ${JSON.stringify(raw.stop)}).`);
    const minRelevance = raw.minRelevance ?? MIN_RELEVANCE;
    if (typeof minRelevance !== 'number' || !(minRelevance >= 0 && minRelevance <= 1)) errors.push(`"minRelevance" must be a number from 0 to 1 (got ${JSON.stringify(raw.minRelevance)}).`);
    const maxPages = positiveInteger(errors, 'maxCrawlPages', raw.maxCrawlPages) ?? 100;
    const maxDepth = positiveInteger(errors, 'maxCrawlDepth', raw.maxCrawlDepth, { min: 0 });
    const includeUrlGlobs = globsOf(errors, 'includeUrlGlobs', raw.includeUrlGlobs);
    const excludeUrlGlobs = globsOf(errors, 'excludeUrlGlobs', raw.excludeUrlGlobs);
    const maxConcurrency = positiveInteger(errors, 'maxConcurrency', raw.maxConcurrency);
    const maxRequestsPerHost = positiveInteger(errors, 'maxRequestsPerHost', raw.maxRequestsPerHost);
    const minDelayPerHostMillis = positiveInteger(errors, 'minDelayPerHostMillis', raw.minDelayPerHostMillis, { min: 0 });
    const useSitemaps = flag(errors, 'useSitemaps', raw.useSitemaps);
    const respectRobotsTxt = flag(errors, 'respectRobotsTxtFile', raw.respectRobotsTxtFile);
    const ignoreHttpsErrors = flag(errors, 'ignoreHttpsErrors', raw.ignoreHttpsErrors);
    const documents = flag(errors, 'documents', raw.documents);
    if (errors.length > 0) return { ok: false, errors };
    const query = typeof raw.query === 'string' && raw.query.trim() !== '' ? raw.query.trim() : null;
    return {
        ok: true,
        options: {
            startUrls,
            query,
            mode: mode!,
            maxPages,
            stop: stop as 'adaptive' | 'never',
            minRelevance,
            ...(maxDepth !== undefined ? { maxDepth } : {}),
            ...(includeUrlGlobs?.length ? { includeUrlGlobs } : {}),
            ...(excludeUrlGlobs?.length ? { excludeUrlGlobs } : {}),
            ...(maxConcurrency !== undefined ? { maxConcurrency } : {}),
            ...(maxRequestsPerHost !== undefined ? { maxRequestsPerHost } : {}),
            ...(minDelayPerHostMillis !== undefined ? { minDelayPerHostMillis } : {}),
            ...(useSitemaps !== undefined ? { useSitemaps } : {}),
            ...(respectRobotsTxt !== undefined ? { respectRobotsTxt } : {}),
            ...(ignoreHttpsErrors !== undefined ? { ignoreHttpsErrors } : {}),
            ...(documents !== undefined ? { documents } : {}),
        },
    };
}
