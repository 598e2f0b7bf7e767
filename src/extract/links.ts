/** Links of a page: where they point, what their anchor says, and whether they sit in the content. */
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { collapseWhitespace, elementsWhere, isInside, textOf } from './dom.js';

export interface ExtractedLink {
  /** Absolute http(s) URL without fragment; the href as written when it is not a web URL or cannot be resolved. */
  url: string;
  /** Link text, trimmed and whitespace-collapsed; else the title, aria-label or image alt text. */
  anchor: string;
  /** The line around the link in the main content's Markdown (≤ CONTEXT_BYTES bytes); '' outside the main content or when no line holds the link. */
  context: string;
  /** True when the URL is linked from the main content (navigation, header, footer, asides and link-dense menus inside the main container are not). */
  inMainContent: boolean;
}

/** One `a[href]`, `area[href]` or `frame[src]` element. */
export interface LinkOccurrence {
  element: Element;
  url: string;
  inMainContent: boolean;
}

/** The base for relative links: the first `<base href>` resolved against the page URL, else the page URL. */
export function baseUrl($: CheerioAPI, pageUrl: string): URL | undefined {
  const page = URL.canParse(pageUrl) ? new URL(pageUrl) : undefined;
  const href = $('base[href]').first().attr('href')?.trim();
  if (href !== undefined && URL.canParse(href, page)) return new URL(href, page);
  return page;
}

/**
 * The absolute http(s) URL of `href` without its fragment (a fragment never names another
 * document). Other schemes (javascript:, mailto:, data:, tel:) and hrefs that cannot be
 * resolved come back as written; the caller skips them.
 */
export function resolveHref(href: string, base: URL | undefined): string {
  const written = href.trim();
  let url: URL;
  try {
    url = new URL(written, base);
  } catch {
    return written;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return written;
  url.hash = '';
  return url.href;
}

/** Every link element with its resolved URL, in document order. `mainRoot` contains the main content. */
export function linkOccurrences(elements: readonly Element[], base: URL | undefined, mainRoot: AnyNode): LinkOccurrence[] {
  return elements.map((element) => ({
    element,
    url: resolveHref((element.name === 'frame' ? element.attribs['src'] : element.attribs['href']) ?? '', base),
    inMainContent: isInside(element, mainRoot),
  }));
}

/**
 * One link per URL, in the order the URLs first appear, at most `maxLinks`. The anchor comes from
 * the first occurrence in the main content when there is one (the content's own words about the
 * target beat a menu label), else from the first occurrence.
 */
export function uniqueLinks(occurrences: readonly LinkOccurrence[], maxLinks: number): ExtractedLink[] {
  const byUrl = new Map<string, ExtractedLink>();
  for (const { element, url, inMainContent } of occurrences) {
    const known = byUrl.get(url);
    if (known === undefined) {
      if (byUrl.size >= maxLinks) continue;
      byUrl.set(url, { url, anchor: anchorText(element), context: '', inMainContent });
    } else if (inMainContent && !known.inMainContent) {
      known.anchor = anchorText(element);
      known.inMainContent = true;
    }
  }
  return [...byUrl.values()];
}

/** What a reader (or a screen reader) takes the link to be called. */
function anchorText(link: Element): string {
  const candidates = [
    () => textOf(link),
    () => link.attribs['title'],
    () => link.attribs['aria-label'],
    () => elementsWhere(link, (element) => element.name === 'img' && (element.attribs['alt'] ?? '').trim() !== '')[0]?.attribs['alt'],
    () => (link.name === 'area' ? link.attribs['alt'] : undefined),
  ];
  for (const candidate of candidates) {
    const text = collapseWhitespace(candidate() ?? '');
    if (text !== '') return text;
  }
  return '';
}
