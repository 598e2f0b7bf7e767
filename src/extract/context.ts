/**
 * Link contexts from Markdown (algorithms.md §5.4): the words around a link in its own line,
 * where the line stands for the sentence or list item that the link sits in.
 */

/** pagesift `context.rs`: about a sentence, some 30 English words on each side of the anchor. */
export const CONTEXT_BYTES = 400;

export interface LinkContext {
  /** The link text, trimmed, with Markdown escapes removed. */
  anchor: string;
  /** At most {@link CONTEXT_BYTES} UTF-8 bytes of the plain line, centred on the anchor. */
  line: string;
}

/** `![alt](src "title")`: images count as their alt text and are not links. */
const IMAGE = /!\[((?:\\.|[^[\]\\])*)\]\([^\s()]*(?:\s+"(?:\\.|[^"\\])*")?\)/g;
/** `[text](url)` or `[text](url "title")`; text without brackets, URL without spaces or parentheses. */
const LINK = /\[((?:\\.|[^[\]\\])*)\]\(([^\s()]+)(?:\s+"(?:\\.|[^"\\])*")?\)/g;
/** Block markers at the start of a line (list bullets and numbers, heading hashes, quotes): not words. */
const BLOCK_MARKERS = /^(?:\s*(?:[-*+>]|\d{1,9}[.)]|#{1,6})(?=\s))*\s*/;
/** CommonMark backslash escapes: a backslash before ASCII punctuation. */
const ESCAPE = /\\([!-/:-@[-`{-~])/g;

/**
 * Maps each link URL in `markdown` (fragment removed, first occurrence wins) to its anchor text
 * and the window of its line with every link replaced by its anchor text.
 */
export function linkContexts(markdown: string): Map<string, LinkContext> {
  const contexts = new Map<string, LinkContext>();
  for (const line of markdown.split('\n')) {
    if (!line.includes('](')) continue;
    const withoutImages = line.replace(BLOCK_MARKERS, '').replace(IMAGE, '$1');
    const links: Array<{ url: string; start: number; end: number }> = [];
    let plain = '';
    let from = 0;
    for (const match of withoutImages.matchAll(LINK)) {
      const [whole, text = '', target = ''] = match;
      plain += unescape(withoutImages.slice(from, match.index));
      const anchor = unescape(text);
      links.push({ url: target.split('#', 1)[0] ?? '', start: plain.length, end: plain.length + anchor.length });
      plain += anchor;
      from = match.index + whole.length;
    }
    plain += unescape(withoutImages.slice(from));
    for (const { url, start, end } of links) {
      if (url === '' || contexts.has(url)) continue;
      contexts.set(url, { anchor: plain.slice(start, end).trim(), line: contextWindow(plain, start, end) });
    }
  }
  return contexts;
}

function unescape(markdown: string): string {
  return markdown.replace(ESCAPE, '$1');
}

/**
 * At most `maxBytes` UTF-8 bytes of `line` around `line.slice(start, end)`: half the spare bytes on
 * each side (a short side gives its rest to the other), cut between characters and then back to
 * whole words, so no broken character and no word fragment ends up in the context.
 */
function contextWindow(line: string, start: number, end: number, maxBytes: number = CONTEXT_BYTES): string {
  if (line.length <= maxBytes && utf8Bytes(line, 0, line.length) <= maxBytes) return line.trim();
  const anchorBytes = utf8Bytes(line, start, end);
  if (anchorBytes >= maxBytes) return line.slice(start, stepRight(line, start, maxBytes).index).trim();
  const spare = maxBytes - anchorBytes;
  const leftRoom = stepLeft(line, start, spare).bytes;
  const rightRoom = stepRight(line, end, spare).bytes;
  const leftBytes = Math.min(leftRoom, Math.max(Math.floor(spare / 2), spare - rightRoom));
  const left = stepLeft(line, start, leftBytes);
  let from = left.index;
  let to = stepRight(line, end, spare - left.bytes).index;
  if (from > 0 && isWordCut(line, from)) from = nextSpace(line, from, start);
  if (to < line.length && isWordCut(line, to)) to = previousSpace(line, to, end);
  return line.slice(from, to).trim();
}

/**
 * Longest word the window is moved back for; a longer token (a URL, a run of Chinese text with no
 * spaces) is cut where the bytes run out rather than dropping the whole side.
 */
const MAX_WORD_CHARS = 40;

/** Letters and digits of scripts that separate words with spaces. */
const SPACED_WORD_CHAR = /^(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}\p{M}]$/u;

/** True when position `at` falls inside a space-separated word. */
function isWordCut(line: string, at: number): boolean {
  return SPACED_WORD_CHAR.test(line.charAt(at - 1)) && SPACED_WORD_CHAR.test(line.charAt(at));
}

/** The first whitespace at or after `from`, looking at most {@link MAX_WORD_CHARS} ahead and not past `limit`; else `from`. */
function nextSpace(line: string, from: number, limit: number): number {
  for (let i = from; i < Math.min(limit, from + MAX_WORD_CHARS); i++) if (/\s/.test(line.charAt(i))) return i;
  return from;
}

/** The last position after whitespace at or before `to`, looking at most {@link MAX_WORD_CHARS} back and not before `limit`; else `to`. */
function previousSpace(line: string, to: number, limit: number): number {
  for (let i = to; i > Math.max(limit, to - MAX_WORD_CHARS); i--) if (/\s/.test(line.charAt(i - 1))) return i;
  return to;
}

/** Moves left from `index` over whole characters while they fit in `maxBytes`. */
function stepLeft(line: string, index: number, maxBytes: number): { index: number; bytes: number } {
  let bytes = 0;
  while (index > 0) {
    const width = isSurrogatePair(line, index - 2) ? 2 : 1;
    const size = charBytes(line, index - width);
    if (bytes + size > maxBytes) break;
    bytes += size;
    index -= width;
  }
  return { index, bytes };
}

/** Moves right from `index` over whole characters while they fit in `maxBytes`. */
function stepRight(line: string, index: number, maxBytes: number): { index: number; bytes: number } {
  let bytes = 0;
  while (index < line.length) {
    const width = isSurrogatePair(line, index) ? 2 : 1;
    const size = charBytes(line, index);
    if (bytes + size > maxBytes) break;
    bytes += size;
    index += width;
  }
  return { index, bytes };
}

function utf8Bytes(text: string, start: number, end: number): number {
  let bytes = 0;
  for (let i = start; i < end; i += isSurrogatePair(text, i) ? 2 : 1) bytes += charBytes(text, i);
  return bytes;
}

/** UTF-8 size of the character at `i`; a lone surrogate is encoded as U+FFFD (3 bytes). */
function charBytes(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  return isSurrogatePair(text, i) ? 4 : 3;
}

function isSurrogatePair(text: string, i: number): boolean {
  if (i < 0) return false;
  const high = text.charCodeAt(i);
  const low = text.charCodeAt(i + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
