/**
 * Sitemaps (sitemaps.org protocol 0.9): the URLs of a `<urlset>`, the child sitemaps of a `<sitemapindex>`, or the
 * lines of a plain-text sitemap. Pure: the caller fetches (and gunzips) the file.
 */

/** URLs read from one sitemap file at most (the protocol's limit per file). */
export const SITEMAP_MAX_URLS = 50_000;

export interface ParsedSitemap {
    /** `index`: `urls` are further sitemaps; `urls`: pages. */
    kind: 'index' | 'urls';
    urls: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
    return text
        .replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1')
        .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
            if (name[0] === '#') {
                const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
                return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
            }
            return ENTITIES[name.toLowerCase()] ?? whole;
        });
}

/** Reads a sitemap; absolute http(s) `<loc>` values only, at most {@link SITEMAP_MAX_URLS}. */
export function parseSitemap(text: string): ParsedSitemap {
    const urls: string[] = [];
    const isXml = /^\s*(<\?xml|<)/.test(text);
    const kind = isXml && /<sitemapindex[\s>]/i.test(text) ? 'index' : 'urls';
    const candidates = isXml ? locValues(text) : text.split(/\r?\n/).map((line) => line.trim());
    for (const candidate of candidates) {
        if (urls.length >= SITEMAP_MAX_URLS) break;
        if (/^https?:\/\//i.test(candidate)) urls.push(candidate);
    }
    return { kind, urls };
}

function* locValues(xml: string): Generator<string> {
    const loc = /<(?:[a-z0-9]+:)?loc>\s*([\s\S]*?)\s*<\/(?:[a-z0-9]+:)?loc>/gi;
    for (let match = loc.exec(xml); match; match = loc.exec(xml)) yield decodeXml(match[1]!.trim());
}
