import { AdaptivePlaywrightCrawler, GotScrapingHttpClient } from 'crawlee';
import type { Dictionary, PlaywrightCrawlingContext, Request } from 'crawlee';

import { mergeGotHooks } from './got-hooks.js';
import type { GotGuardHooks } from './got-hooks.js';

type HttpRequest = Parameters<GotScrapingHttpClient['sendRequest']>[0];

/**
 * AdaptivePlaywrightCrawler whose plain-HTTP runs fetch the way its browser does: through the crawl's proxy, and as
 * the crawl's user agent. Crawlee 3.18 sets `proxyInfo` only where `BrowserCrawler` opens a page, so `sendRequest` in
 * the HTTP-only path (`() => crawlingContext.proxyInfo?.url`) connected directly, around the proxy the user
 * configured and to hosts only that proxy can resolve; and it sent got-scraping's generated browser user agent.
 */
export class ProxiedAdaptivePlaywrightCrawler extends AdaptivePlaywrightCrawler {
    /** Sent by the plain-HTTP runs; the browser gets it from the launch context. */
    userAgent: string | undefined;
    /**
     * What the crawl checks of a plain-HTTP run, which Crawlee gives no got options and whose post-navigation hooks it
     * runs only after the request handler:
     * - `hooks`: got hooks for the request (the scope guard, `FocusedCrawl.httpGuardHooks`); without them a redirect
     *   to another host was followed in adaptive mode;
     * - `checkResponse`: called on the response before the handler reads it; throwing fails the run (a 503 with
     *   `Retry-After`, `FocusedCrawl.backOffOnRetryAfter`).
     */
    httpGuard:
        | {
              hooks: (request: Request) => GotGuardHooks;
              checkResponse: (request: Request, response: PlainHttpResponse) => void;
              /**
               * When this plain-HTTP run may send (ms since the epoch; 0 = now). A run that compares a page just rendered
               * asks the site a second time, and waits for the host's politeness delay like any request.
               */
              sendAt?: (context: PlaywrightCrawlingContext) => number;
          }
        | undefined;

    protected override async runRequestHandlerWithPlainHTTP(context: PlaywrightCrawlingContext, oldStateCopy?: Dictionary) {
        if (this.proxyConfiguration && !context.proxyInfo) {
            context.proxyInfo = await this.proxyConfiguration.newProxyInfo(context.session?.id, { request: context.request });
        }
        if (this.userAgent && !context.request.headers?.['user-agent']) context.request.headers = { ...context.request.headers, 'user-agent': this.userAgent };
        const guard = this.httpGuard;
        if (!guard) return super.runRequestHandlerWithPlainHTTP(context, oldStateCopy);
        const wait = (guard.sendAt?.(context) ?? 0) - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const send = context.sendRequest;
        const hooks = guard.hooks(context.request);
        context.sendRequest = (async (options = {}) => {
            const response = await send({
                // As CheerioCrawler does: a body that never ends is abandoned at the navigation timeout. Crawlee's
                // timeout of the run leaves the request itself open, and a never-ending answer kept its socket for good.
                timeout: { request: this.navigationTimeoutMillis },
                ...options,
                hooks: mergeGotHooks(options.hooks as GotGuardHooks | undefined, hooks),
            } as typeof options);
            guard.checkResponse(context.request, response as unknown as PlainHttpResponse);
            return response;
        }) as typeof send;
        try {
            return await super.runRequestHandlerWithPlainHTTP(context, oldStateCopy);
        } finally {
            context.sendRequest = send; // the detection's browser run, or a retry, sends its own way
        }
    }
}

/** What the crawl reads of a plain-HTTP run's response before the handler does. */
export interface PlainHttpResponse {
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
}

/**
 * Crawlee's got-scraping client, with certificate checks off: for adaptive mode's plain-HTTP fetches when the user
 * asked for `ignoreHttpsErrors` (a TLS-intercepting proxy, a self-signed test site). AdaptivePlaywrightCrawler has no
 * `ignoreSslErrors` option of its own (CheerioCrawler does), so this is the one place to say it.
 */
export class InsecureHttpClient extends GotScrapingHttpClient {
    override async sendRequest<T extends 'text' | 'json' | 'buffer' = 'text'>(request: HttpRequest & { responseType?: T }) {
        return super.sendRequest(insecure(request) as typeof request);
    }

    override async stream(request: Parameters<GotScrapingHttpClient['stream']>[0], handleRedirect?: Parameters<GotScrapingHttpClient['stream']>[1]) {
        return super.stream(insecure(request) as typeof request, handleRedirect);
    }
}

function insecure<R extends object>(request: R): R {
    const https = (request as { https?: Dictionary }).https;
    return { ...request, https: { ...https, rejectUnauthorized: false } };
}
