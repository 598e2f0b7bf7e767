/** One HTTP request whose body is read only up to a limit: robots.txt, sitemaps and documents share it. */
import type { IncomingHttpHeaders } from 'node:http';

import { gotScraping } from 'crawlee';

export interface BoundedFetchOptions {
    url: string;
    /** Bytes of body read at most; a body announced or found to be longer is cut there (`truncated`). */
    maxBytes: number;
    userAgent: string;
    /** @default none */
    proxyUrl?: string;
    /** Redirect hops followed; 0 returns the redirect itself. */
    maxRedirects: number;
    /** Whole request, body included. */
    timeoutMillis: number;
    /** Accept invalid TLS certificates. @default false */
    ignoreHttpsErrors?: boolean;
    /** Extra request headers (a session's cookies). @default none */
    headers?: Record<string, string>;
}

export interface BoundedResponse {
    status: number;
    headers: IncomingHttpHeaders;
    body: Buffer;
    /** The body was longer than `maxBytes` (by its Content-Length, or as read) and was not read to its end. */
    truncated: boolean;
}

/** The part of got's response stream used here (crawlee's `gotScraping` is typed for promises only). */
interface ResponseStream extends AsyncIterable<Buffer> {
    on(event: 'response', listener: (response: { statusCode: number; headers: IncomingHttpHeaders }) => void): void;
    destroy(): void;
}

/** Streams the response and stops reading at `maxBytes`: an endless or huge body costs at most that. Throws on network errors. */
export async function fetchBounded(options: BoundedFetchOptions): Promise<BoundedResponse> {
    // Crawlee's `gotScraping` loads got-scraping (ESM) first, so even a stream comes wrapped in a promise.
    const request = gotScraping as unknown as (options: Record<string, unknown>) => Promise<ResponseStream>;
    const stream = await request({
        url: options.url,
        ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
        headers: { ...options.headers, 'user-agent': options.userAgent },
        useHeaderGenerator: false,
        isStream: true,
        followRedirect: options.maxRedirects > 0,
        maxRedirects: options.maxRedirects,
        timeout: { request: options.timeoutMillis },
        https: { rejectUnauthorized: !options.ignoreHttpsErrors },
        throwHttpErrors: false,
    });
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    let announcedTooLong = false;
    stream.on('response', (response) => {
        status = response.statusCode;
        headers = response.headers;
        announcedTooLong = Number(response.headers['content-length'] ?? 0) > options.maxBytes;
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of stream) {
        if (announcedTooLong) {
            truncated = true;
            break;
        }
        chunks.push(chunk);
        size += chunk.length;
        if (size > options.maxBytes) {
            truncated = true;
            break;
        }
    }
    if (truncated) stream.destroy(); // the rest is never read
    return { status, headers, body: Buffer.concat(chunks).subarray(0, options.maxBytes), truncated };
}
