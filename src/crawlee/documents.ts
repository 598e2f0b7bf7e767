/**
 * Documents in a crawl: which requests are documents, how their bytes are fetched in each mode, and the counts
 * `FOCUS_REPORT.documents` gives by type.
 *
 * - http mode: CheerioCrawler is told to accept the document content types, so a PDF arrives as a body like a page.
 * - browser modes: Chromium downloads such files instead of rendering them. A link whose URL names a document format
 *   is therefore not navigated to: its bytes are fetched over HTTP through the context's proxy with its session's
 *   cookies, at most `maxBytes` of them, redirects checked against the scope hop by hop. A document the URL did not announce fails its
 *   navigation as a download; it is then fetched the same way on its next attempt, without using up a retry.
 */
import type { CrawlingContext } from 'crawlee';

import {
    convertDocument,
    documentKindOfContentType,
    documentKindOfUrl,
    type DocumentConversion,
    type DocumentKind,
    type DocumentLimits,
    MAX_DOCUMENT_BYTES,
} from '../extract/documents/index.js';
import { fetchBounded } from './bounded-fetch.js';
import { CRAWLEE_FOCUS_USER_AGENT } from './robots-cache.js';

/** Redirects a document fetch follows at most (Chromium's and got's limit is 20; a document needs few). */
const MAX_DOCUMENT_REDIRECTS = 10;
/** Time one document fetch may take, body included (20 MiB at 1 MB/s fits). */
const DOCUMENT_FETCH_TIMEOUT_MILLIS = 60_000;

/** Navigation errors that mean the answer is a file, not a page: fetch it as a document on the next attempt. */
const DOWNLOAD_ERROR = /Download is starting|served Content-Type|ERR_ABORTED/i;

/** Per document type: fetched, converted to Markdown, delivered as relevant. */
export type DocumentCounts = Record<string, { fetched: number; converted: number; delivered: number }>;

/** The bytes of a fetched document and what the server said about them. */
export interface FetchedDocument {
    bytes: Uint8Array;
    contentType: string | null;
    /** Final URL, after redirects. */
    url: string;
    status: number;
}

/** A redirect or status that ended a document fetch. */
export class DocumentFetchError extends Error {
    constructor(
        message: string,
        readonly reason: string,
    ) {
        super(message);
    }
}

export interface DocumentOptions extends DocumentLimits {
    /** Read documents at all. @default true */
    enabled?: boolean;
    /** User-Agent of document fetches in browser modes (the crawl's own). */
    userAgent?: string;
    /** Accept any TLS certificate (a TLS-intercepting proxy, a test server). @default false */
    ignoreHttpsErrors?: boolean;
    /** Whether a redirect target is in the crawl's scope. */
    inScope: (url: string) => boolean;
}

/** Marks a request to be fetched as a document instead of navigated to (browser modes). */
export function markAsDocument(request: { skipNavigation?: boolean; userData: Record<string, unknown> }): void {
    request.skipNavigation = true;
    request.userData.__focusDocument = true;
}

export class DocumentReader {
    readonly enabled: boolean;
    readonly #counts: DocumentCounts = {};
    readonly #limits: DocumentLimits;
    readonly #maxBytes: number;

    constructor(private readonly options: DocumentOptions) {
        this.enabled = options.enabled ?? true;
        this.#maxBytes = options.maxBytes ?? MAX_DOCUMENT_BYTES;
        this.#limits = {
            ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
            ...(options.timeoutMillis !== undefined ? { timeoutMillis: options.timeoutMillis } : {}),
        };
    }

    /** True for a request whose URL names a document format (browser modes fetch it over HTTP). */
    isDocumentUrl(url: string): boolean {
        return this.enabled && documentKindOfUrl(url) !== null;
    }

    /**
     * An error handler's part: a navigation that failed because the answer is a download is tried again as a
     * document fetch. True when the request was switched (its retry is then not used up).
     */
    switchToFetch(request: { skipNavigation?: boolean; userData: Record<string, unknown> }, error: Error): boolean {
        if (!this.enabled || request.userData.__focusDocument === true || !DOWNLOAD_ERROR.test(error?.message ?? '')) return false;
        markAsDocument(request);
        return true;
    }

    /** The document this context holds or must fetch, or null when it is a page. */
    async read(context: CrawlingContext): Promise<FetchedDocument | null> {
        if (!this.enabled) return null;
        const { request } = context;
        if (request.userData.__focusDocument === true) return this.#fetch(context);
        const rendered = await this.#renderedDocument(context);
        if (rendered !== undefined) return rendered;
        const { contentType, body, response } = context as unknown as {
            contentType?: { type?: string };
            body?: unknown;
            response?: { statusCode?: number; headers?: Record<string, string | string[] | undefined> };
        };
        if (Buffer.isBuffer(body)) {
            // CheerioCrawler: the body as it arrived.
            if (!isDocumentType(contentType?.type)) return null;
            return { bytes: body, contentType: contentType?.type ?? null, url: request.loadedUrl ?? request.url, status: response?.statusCode ?? 200 };
        }
        // AdaptivePlaywrightCrawler's handler sees a response without its bytes (decoded as text): fetch them.
        const declared = response?.headers?.['content-type'];
        return typeof declared === 'string' && isDocumentType(declared) ? this.#fetch(context) : null;
    }

    /** Converts a document and counts it under its type. */
    async convert(document: FetchedDocument): Promise<DocumentConversion> {
        const result = await convertDocument(document.bytes, { url: document.url, contentType: document.contentType }, this.#limits);
        const counts = this.#countsOf(result.kind ?? 'unknown');
        counts.fetched += 1;
        if (result.ok) counts.converted += 1;
        return result;
    }

    /** Counts a converted document as delivered. */
    noteDelivered(kind: DocumentKind): void {
        this.#countsOf(kind).delivered += 1;
    }

    summary(): DocumentCounts {
        return structuredClone(this.#counts);
    }

    #countsOf(kind: string): { fetched: number; converted: number; delivered: number } {
        return (this.#counts[kind] ??= { fetched: 0, converted: 0, delivered: 0 });
    }

    /**
     * Browser modes: Chromium opened a document whose URL did not announce it. Its PDF viewer replaces the response
     * body with its own page, so the file is asked for again over HTTP. Undefined when the context holds no browser
     * response, null when the response is a page.
     */
    async #renderedDocument(context: CrawlingContext): Promise<FetchedDocument | null | undefined> {
        const response = (context as unknown as { response?: { headers?: () => Record<string, string> } | null }).response;
        if (typeof response?.headers !== 'function') return undefined;
        return isDocumentType(response.headers()['content-type']) ? this.#fetch(context) : null;
    }

    /**
     * Fetches a document through the context's proxy with its session's cookies, reading at most `maxBytes`, and checks
     * every redirect hop against the scope.
     */
    async #fetch(context: CrawlingContext): Promise<FetchedDocument> {
        const { proxyInfo, session } = context as unknown as { proxyInfo?: { url?: string }; session?: { getCookieString(url: string): string } };
        const maxBytes = this.#maxBytes;
        let url = context.request.url;
        for (let hop = 0; ; hop++) {
            const cookie = session?.getCookieString(url);
            const response = await fetchBounded({
                url,
                maxBytes,
                userAgent: this.options.userAgent ?? CRAWLEE_FOCUS_USER_AGENT,
                ...(proxyInfo?.url ? { proxyUrl: proxyInfo.url } : {}),
                maxRedirects: 0,
                timeoutMillis: DOCUMENT_FETCH_TIMEOUT_MILLIS,
                ignoreHttpsErrors: this.options.ignoreHttpsErrors ?? false,
                ...(cookie ? { headers: { cookie } } : {}),
            });
            const location = response.headers['location'];
            if (response.status >= 300 && response.status < 400 && typeof location === 'string') {
                if (hop >= MAX_DOCUMENT_REDIRECTS) throw new DocumentFetchError(`crawlee-focus: ${context.request.url} redirected more than ${MAX_DOCUMENT_REDIRECTS} times`, 'redirect');
                const target = URL.canParse(location, url) ? new URL(location, url).href : location;
                if (!/^https?:/i.test(target) || !this.options.inScope(target)) {
                    throw new DocumentFetchError(`crawlee-focus: redirect blocked (out-of-scope): ${url} redirects to ${target.slice(0, 300)}`, 'redirect-blocked');
                }
                url = target;
                continue;
            }
            if (response.truncated) throw tooLarge(url, maxBytes);
            context.request.loadedUrl = url;
            const type = response.headers['content-type'];
            return { bytes: response.body, contentType: typeof type === 'string' ? type : null, url, status: response.status };
        }
    }

    /**
     * A post-navigation hook for plain HTTP crawls: a document whose Content-Length is over the limit fails before its
     * body is downloaded (CheerioCrawler reads a body whole).
     */
    sizeGuardHook() {
        return async ({ request, response }: { request: { url: string; noRetry: boolean }; response?: { headers?: Record<string, unknown> } }): Promise<void> => {
            const maxBytes = this.#maxBytes;
            const type = response?.headers?.['content-type'];
            if (!this.enabled || typeof type !== 'string' || !isDocumentType(type)) return;
            if (Number(response?.headers?.['content-length'] ?? 0) <= maxBytes) return;
            request.noRetry = true;
            throw tooLarge(request.url, maxBytes);
        };
    }
}

function tooLarge(url: string, maxBytes: number): DocumentFetchError {
    return new DocumentFetchError(`crawlee-focus: ${url} is larger than ${maxBytes} bytes (option maxDocumentBytes); not read`, 'document-too-large');
}

/** A document content type, or the generic one a server sends for files it does not know. */
function isDocumentType(contentType: string | null | undefined): boolean {
    const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    return type === 'application/octet-stream' || documentKindOfContentType(type) !== null;
}
