/**
 * The hosts a crawl may fetch: given, or learned from its start URLs, each with its subdomains unless they are
 * excluded. `www.example.com` and `example.com` are one site.
 */

/** Host form used for scope: lowercase, no trailing dot, no leading `www.`. */
export function scopeHost(host: string): string {
    const lower = host.toLowerCase().replace(/\.$/, '');
    return lower.startsWith('www.') ? lower.slice(4) : lower;
}

function hostnameOf(url: string): string | null {
    try {
        return scopeHost(new URL(url).hostname);
    } catch {
        return null;
    }
}

export class CrawlScope {
    readonly #hosts = new Set<string>();
    /** Whether the start URLs define the scope (no hosts were given). */
    readonly learnsFromSeeds: boolean;

    /**
     * @param allowedHosts Hosts whose pages may be fetched; none: the hosts of the start URLs ({@link addStartUrl}).
     * @param allowSubdomains Whether subdomains of those hosts are in scope.
     */
    constructor(
        allowedHosts: Iterable<string> = [],
        private readonly allowSubdomains = true,
    ) {
        for (const host of allowedHosts) this.#hosts.add(scopeHost(host));
        this.learnsFromSeeds = this.#hosts.size === 0;
    }

    /** A start URL's host joins the scope when the scope is learned from them; a malformed URL is ignored here. */
    addStartUrl(url: string): void {
        if (!this.learnsFromSeeds) return;
        const host = hostnameOf(url);
        if (host !== null) this.#hosts.add(host);
    }

    /** Adds hosts saved with {@link hosts}. */
    restore(hosts: Iterable<string>): void {
        for (const host of hosts) this.#hosts.add(host);
    }

    /** The scope's hosts, in scope form. */
    hosts(): string[] {
        return [...this.#hosts];
    }

    /** Whether the URL's host may be fetched; every URL is, while the scope has no host yet. */
    includes(url: string): boolean {
        if (this.#hosts.size === 0) return true;
        const host = hostnameOf(url);
        if (host === null) return false;
        if (this.#hosts.has(host)) return true;
        if (!this.allowSubdomains) return false;
        for (const allowed of this.#hosts) if (host.endsWith(`.${allowed}`)) return true;
        return false;
    }

    /** Whether the host is one of the scope's own (a start site), not a subdomain of one. */
    isStartSite(host: string): boolean {
        return this.#hosts.has(scopeHost(host));
    }
}
