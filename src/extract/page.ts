/** HTML → PageData: the one entry point the crawler calls for every fetched or rendered page. */
import type { AnyNode } from 'domhandler';
import { isolateMainContent } from './content.js';
import { linkContexts } from './context.js';
import { collapseWhitespace, elementsWhere, textOf } from './dom.js';
import { baseUrl, linkOccurrences, uniqueLinks, type ExtractedLink } from './links.js';
import { markdownUrl, toMarkdown } from './markdown.js';
import { parseHtml } from './parse.js';
import { readMainText } from './text.js';

export interface PageData {
  /** The page URL as given. */
  url: string;
  /** `<title>`, else the first heading of the main content; whitespace-collapsed. */
  title: string;
  /** Text of the h1–h6 elements in the main content, in document order. */
  headings: string[];
  /** The main content as Markdown; links point to absolute URLs. */
  markdown: string;
  /** Plain main text, one line per block, for hashing and duplicate detection. */
  text: string;
  /** `<html lang>`, or null when absent or empty. */
  lang: string | null;
  /** Every `a[href]`, `area[href]` and `frame[src]` of the whole document, in document order, one per URL. */
  links: ExtractedLink[];
  /** Words in the main content outside links, headings and code. */
  proseWords: number;
  /** `<link rel=canonical>` resolved to an absolute URL, or null. */
  canonical: string | null;
  /** True when the HTML was longer than `maxHtmlChars` and only its beginning was read. */
  truncated: boolean;
}

export interface ExtractOptions {
  /**
   * Characters of HTML read; the rest is dropped and `truncated` is set. Bounds the time one page
   * can hold the event loop: extraction is linear, about 1 s of CPU per MiB of link-dense markup.
   * @default MAX_HTML_CHARS
   */
  maxHtmlChars?: number;
  /**
   * Distinct link URLs returned; later new URLs are dropped.
   * @default 5_000
   */
  maxLinks?: number;
  /**
   * Whether to convert the main content to Markdown (and give in-content links their context line). Off, `markdown` is
   * empty and links have no context: for a second reading of a page that only compares its links and text, where the
   * conversion would be most of the time spent.
   * @default true
   */
  markdown?: boolean;
}

/**
 * HTML characters read per page by default: 2 MiB. Long articles (a large Wikipedia page is about
 * 1.5 MB) fit; longer pages are data dumps, and each MiB costs about a second of blocked event loop.
 */
export const MAX_HTML_CHARS = 2 * 1024 * 1024;
const DEFAULT_MAX_LINKS = 5_000;
const HEADING = /^h[1-6]$/;

/**
 * Reads a page: title, headings, Markdown and plain text of the main content, and all links with
 * anchor text and, for links in the main content, the words around them. Never throws on page
 * content; `url` need not be valid (relative links then stay as written).
 */
export function extractPage(html: string, url: string, options: ExtractOptions = {}): PageData {
  const maxHtmlChars = positiveInteger('maxHtmlChars', options.maxHtmlChars ?? MAX_HTML_CHARS);
  const maxLinks = positiveInteger('maxLinks', options.maxLinks ?? DEFAULT_MAX_LINKS);
  const { $, truncated } = parseHtml(html, maxHtmlChars);
  const base = baseUrl($, url);
  // The frames of a frameset are its content: each is a page to fetch, like a link.
  const linkElements = $('a[href], area[href], frame[src]').toArray();
  const main = isolateMainContent($);
  const occurrences = linkOccurrences(linkElements, base, main);
  const links = uniqueLinks(occurrences, maxLinks);

  let markdown = '';
  if (options.markdown !== false) {
    // Markdown links carry the resolved URL, so each context can be found again by URL.
    for (const { element, url: target, inMainContent } of occurrences) {
      if (inMainContent) element.attribs['href'] = markdownUrl(target);
    }
    // A frameset holds no text, and turndown's own parser cannot take one as a fragment.
    markdown = isFrameset(main) ? '' : toMarkdown($(main).html() ?? '');
    const contexts = linkContexts(markdown);
    for (const link of links) {
      if (link.inMainContent) link.context = contexts.get(markdownUrl(link.url))?.line ?? '';
    }
  }

  const { text, proseWords } = readMainText(main);
  // Walked directly: cheerio's find() de-duplicates the root's children in quadratic time (flat pages are slow).
  const headings = elementsWhere(main, (element) => HEADING.test(element.name))
    .map((heading) => collapseWhitespace(textOf(heading)))
    .filter((heading) => heading !== '');
  const canonicalHref = $('link[href]')
    .filter((_, link) => /(^|\s)canonical(\s|$)/i.test(link.attribs['rel'] ?? ''))
    .first()
    .attr('href');
  const canonical = canonicalHref === undefined ? null : absoluteUrl(canonicalHref, base);
  return {
    url,
    title: collapseWhitespace($('title').first().text()) || (headings[0] ?? ''),
    headings,
    markdown,
    text,
    lang: $('html').first().attr('lang')?.trim() || null,
    links,
    proseWords,
    canonical,
    truncated,
  };
}

function isFrameset(node: AnyNode): boolean {
  return 'name' in node && node.name === 'frameset';
}

function absoluteUrl(href: string, base: URL | undefined): string | null {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}

function positiveInteger(name: string, value: number): number {
  if (Number.isInteger(value) && value > 0) return value;
  throw new RangeError(`extractPage: ${name} must be a positive integer, got ${value}; omit it for the default.`);
}
