/** How much of a bad URL an error message shows. */
const MAX_URL_IN_MESSAGE = 200;

/**
 * A string that is not an absolute URL the WHATWG parser accepts. Extends `TypeError` (what
 * `new URL()` throws) and carries Node's `ERR_INVALID_URL` code, so existing handlers still match.
 */
export class InvalidUrlError extends TypeError {
    readonly code = 'ERR_INVALID_URL';
    /** The rejected input, in full. */
    readonly url: string;
    /** Why it was rejected, e.g. `no scheme (relative URL?)` or `invalid port`. */
    readonly reason: string;

    constructor(url: string, reason: string) {
        const shown = url.length > MAX_URL_IN_MESSAGE ? `${url.slice(0, MAX_URL_IN_MESSAGE)}…` : url;
        super(`Invalid URL ${JSON.stringify(shown)}: ${reason}`);
        this.name = 'InvalidUrlError';
        this.url = url;
        this.reason = reason;
    }
}

const SPECIAL_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp']);

/**
 * A short explanation of why the WHATWG parser rejected `url` (called only after it did, so
 * the cost does not matter).
 */
export function diagnoseUrl(url: string): string {
    // The parser ignores leading/trailing C0 controls and spaces, and tabs/newlines anywhere.
    const s = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
    if (s === '') return 'empty string';
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(s);
    if (!scheme) return 'no scheme (relative URL?); an absolute URL is required';
    const name = scheme[1]!.toLowerCase();
    if (!SPECIAL_SCHEMES.has(name)) return `not parseable as a ${name}: URL`;
    const rest = s.slice(scheme[0].length).replace(/^[/\\]+/, '');
    const end = rest.search(/[/\\?#]/);
    let authority = end < 0 ? rest : rest.slice(0, end);
    const at = authority.lastIndexOf('@');
    if (at >= 0) authority = authority.slice(at + 1);
    if (authority === '') return 'missing host';
    const port = /:([^\]:]*)$/.exec(authority);
    if (port && !authority.startsWith('[')) {
        if (!/^\d*$/.test(port[1]!) || Number(port[1]) > 65535) return `invalid port ${JSON.stringify(port[1])}`;
        authority = authority.slice(0, port.index);
    }
    if (authority === '') return 'missing host';
    return `invalid host ${JSON.stringify(authority.length > 80 ? `${authority.slice(0, 80)}…` : authority)}`;
}
