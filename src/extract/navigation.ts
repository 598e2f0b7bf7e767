/**
 * Link-dense navigation blocks: menus, sidebars and pagers that sit inside the main content when a
 * site marks them with nothing but a <div> or <ul>. Their links stay in PageData.links; only the
 * page's own text (Markdown, plain text, prose words) loses them.
 */
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { isElement } from './dom.js';

/**
 * A block whose link text is more than this share of its text is navigation (Mozilla Readability,
 * `_cleanConditionally`: `linkDensity > 0.5` removes a block; Kohlschütter et al. 2010 tell
 * boilerplate from content mainly by link density and word counts).
 */
export const MAX_LINK_DENSITY = 0.5;

/**
 * Anchors this many words long on average name what they lead to (paper titles, article headlines):
 * such a list is content even when it is all links. Menu entries average two or three words.
 */
const DESCRIPTIVE_ANCHOR_WORDS = 5;

/**
 * Words of their own per link, beside the anchors, from which a list describes what it links to
 * (an API index: "copyText – copy a segment of text"); a menu has none, a pager one or two.
 */
const DESCRIBED_LINK_WORDS = 3;

/** Fewer links than this are a button, a download or a pager, not a menu; they stay. */
const MIN_NAVIGATION_LINKS = 3;

/**
 * Text, in non-whitespace characters, below which a page is an index whose link lists are its
 * content (Mozilla Readability's `DEFAULT_CHAR_THRESHOLD`, under which it stops cleaning blocks).
 */
const MIN_CONTENT_CHARS = 500;

/** Elements that group links into a menu, a sidebar or a list. */
const BLOCKS = new Set(['div', 'section', 'header', 'footer', 'aside', 'nav', 'ul', 'ol', 'dl', 'menu', 'table']);

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Elements whose text, when mostly not link text, is the page speaking in its own words. */
const OWN_WORDS_ELEMENTS = new Set([...HEADINGS, 'p']);

interface TextStats {
  /** Non-whitespace characters. */
  chars: number;
  /** Whitespace-separated words. */
  words: number;
  /** Non-whitespace characters inside links. */
  linkChars: number;
  /** Words inside links. */
  linkWords: number;
  /** `<a>` elements. */
  links: number;
  /** Headings and paragraphs mostly in their own words, and data tables: content wherever they sit. */
  contentMarks: number;
}

/** The share of `element`'s text that is link text; 0 for an element without text. */
export function linkDensity(element: Element): number {
  const stats = measure(element).get(element)!;
  return stats.chars === 0 ? 0 : stats.linkChars / stats.chars;
}

/**
 * Removes the navigation blocks under `root`: blocks of at least {@link MIN_NAVIGATION_LINKS} links
 * whose text is mostly link text, with short anchors and few words of their own beside them. A
 * block holding content (a heading or paragraph mostly in its own words, or a data table) is judged
 * by its parts; a data table stays whole, links and all, since its cells are data (Readability
 * never cleans inside one either).
 *
 * When the rest would say less than {@link MIN_CONTENT_CHARS}, the page is an index whose link
 * lists are its content: the blocks that follow its title (the first <h1>, else the first heading)
 * stay, and only the menu above the title goes. A page without a heading keeps them all.
 */
export function removeNavigationBlocks($: CheerioAPI, root: AnyNode): void {
  const stats = measure(root);
  const blocks: Array<{ element: Element; order: number }> = [];
  let removedChars = 0;
  let title: number | undefined;
  let firstHeading: number | undefined;
  let order = 0;
  const pending: AnyNode[] = [root];
  for (let current = pending.pop(); current !== undefined; current = pending.pop(), order += 1) {
    if (!isElement(current)) continue;
    if (current !== root && current.name === 'table' && isDataTable(current)) continue;
    const own = stats.get(current)!;
    if (current !== root && BLOCKS.has(current.name) && own.contentMarks === 0 && isNavigation(own)) {
      blocks.push({ element: current, order });
      removedChars += own.chars;
      continue;
    }
    if (HEADINGS.has(current.name)) {
      firstHeading ??= order;
      if (current.name === 'h1') title ??= order;
    }
    for (let i = current.children.length - 1; i >= 0; i--) pending.push(current.children[i]!);
  }
  const isIndex = stats.get(root)!.chars - removedChars < MIN_CONTENT_CHARS;
  const contentStart = isIndex ? (title ?? firstHeading ?? -1) : Infinity;
  $(blocks.filter((block) => block.order < contentStart).map((block) => block.element)).remove();
}

function isNavigation({ chars, words, linkChars, linkWords, links }: TextStats): boolean {
  return (
    links >= MIN_NAVIGATION_LINKS &&
    linkChars > MAX_LINK_DENSITY * chars &&
    linkWords < DESCRIPTIVE_ANCHOR_WORDS * links &&
    words - linkWords < DESCRIBED_LINK_WORDS * links
  );
}

function isContentMark(element: Element, own: TextStats): boolean {
  if (element.name === 'table') return isDataTable(element);
  return OWN_WORDS_ELEMENTS.has(element.name) && own.chars - own.linkChars > own.linkChars;
}

/**
 * A table that holds data rather than page layout, by its markup alone (after Mozilla Readability's
 * `_markDataTables`): header cells, a head section or a caption, and no table nested inside.
 */
function isDataTable(table: Element): boolean {
  let hasHeader = false;
  const pending: AnyNode[] = [...table.children];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (!isElement(current)) continue;
    if (current.name === 'table') return false;
    if (current.name === 'th' || current.name === 'thead' || current.name === 'caption') hasHeader = true;
    for (const child of current.children) pending.push(child);
  }
  return hasHeader;
}

/** Text statistics of every element under `root` (and of `root`), in one pass without recursion. */
function measure(root: AnyNode): Map<AnyNode, TextStats> {
  const stats = new Map<AnyNode, TextStats>();
  // Each node is visited twice: once going down (children queued), once coming back up (totals added to the parent).
  const pending: Array<{ node: AnyNode; inLink: boolean; closing: boolean }> = [{ node: root, inLink: false, closing: false }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { node, inLink, closing } = item;
    if (closing) {
      const own = stats.get(node)!;
      if (isElement(node) && isContentMark(node, own)) own.contentMarks += 1;
      const parent = node === root ? undefined : stats.get(node.parent!);
      if (parent !== undefined) add(parent, own);
      continue;
    }
    if (node.type === 'text') {
      const counted = countText((node as { data: string }).data, inLink);
      const parent = node === root ? undefined : stats.get(node.parent!);
      if (parent !== undefined) add(parent, counted);
      else stats.set(node, counted);
      continue;
    }
    if (!('children' in node)) continue;
    const isLink = isElement(node) && node.name === 'a';
    stats.set(node, { chars: 0, words: 0, linkChars: 0, linkWords: 0, links: isLink ? 1 : 0, contentMarks: 0 });
    pending.push({ node, inLink, closing: true });
    for (let i = node.children.length - 1; i >= 0; i--) pending.push({ node: node.children[i]!, inLink: inLink || isLink, closing: false });
  }
  return stats;
}

function add(total: TextStats, part: TextStats): void {
  total.chars += part.chars;
  total.words += part.words;
  total.linkChars += part.linkChars;
  total.linkWords += part.linkWords;
  total.links += part.links;
  total.contentMarks += part.contentMarks;
}

/** Non-whitespace characters and whitespace-separated words of a text node. */
function countText(text: string, inLink: boolean): TextStats {
  let chars = 0;
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const isSpace = text.charCodeAt(i) <= 0x20;
    if (!isSpace) chars += 1;
    if (!isSpace && !inWord) words += 1;
    inWord = !isSpace;
  }
  return { chars, words, linkChars: inLink ? chars : 0, linkWords: inLink ? words : 0, links: 0, contentMarks: 0 };
}
