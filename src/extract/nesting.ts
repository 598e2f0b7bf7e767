/**
 * Caps how deeply tags nest before the HTML reaches a parser.
 *
 * htmlparser2 keeps its open-element stack with `Array#unshift`, so parsing n nested tags costs
 * O(n²) (100,000 nested `<div>`s take seconds), and every recursive walk after it (serialiser,
 * Turndown) overflows the call stack on such a tree. Tags opened below the cap are removed from
 * the string; their text stays, as when a browser flattens an over-deep tree.
 */

/** Blink's kMaximumHTMLParserDOMTreeDepth: Chromium stops nesting elements deeper than this. */
export const MAX_NESTING_DEPTH = 512;

/** Elements that never have content (HTML §13.1.2). */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input',
  'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

/** Elements whose text htmlparser2 reads up to the matching end tag without looking for tags. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp']);

/** Open elements that htmlparser2 closes when the keyed element opens (its `openImpliesClose`). */
const IMPLIED_CLOSES = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl',
    'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'main', 'nav', 'ol', 'pre', 'section', 'table',
    'ul'].map((name): [string, ReadonlySet<string>] => [name, new Set(['p'])]),
]);

const TAG = /<!--[\s\S]*?(?:-->|$)|<(\/?)([A-Za-z][^\s/>]*)[^>]*>?/g;

/**
 * Returns `html` unchanged when no element nests deeper than `maxDepth`; otherwise a copy without
 * the start and end tags below that depth. Linear in the input length.
 */
export function limitNesting(html: string, maxDepth: number = MAX_NESTING_DEPTH): string {
  const open: string[] = [];
  // Start tags removed so far whose end tag has not been seen yet.
  let removedOpen = 0;
  const cuts: Array<[number, number]> = [];
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    const [tag, slash, rawName] = match;
    if (rawName === undefined) continue; // a comment
    const name = rawName.toLowerCase();
    const start = match.index;
    const end = start + tag.length;
    if (slash === '/') {
      if (removedOpen > 0) {
        removedOpen -= 1;
        cuts.push([start, end]);
        continue;
      }
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
      continue;
    }
    if (RAW_TEXT_ELEMENTS.has(name)) {
      TAG.lastIndex = skipRawText(html, name, end);
      continue;
    }
    if (VOID_ELEMENTS.has(name) || tag.endsWith('/>')) continue;
    const closes = IMPLIED_CLOSES.get(name);
    while (closes !== undefined && open.length > 0 && closes.has(open[open.length - 1]!)) open.pop();
    if (open.length >= maxDepth) {
      removedOpen += 1;
      cuts.push([start, end]);
    } else {
      open.push(name);
    }
  }
  return cuts.length === 0 ? html : removeRanges(html, cuts);
}

const rawTextEnds = new Map<string, RegExp>();

/** Index just past the end tag of raw-text element `name` whose text starts at `from`. */
function skipRawText(html: string, name: string, from: number): number {
  let endTag = rawTextEnds.get(name);
  if (endTag === undefined) {
    endTag = new RegExp(`</${name}(?=[\\s/>])[^>]*>?`, 'gi');
    rawTextEnds.set(name, endTag);
  }
  endTag.lastIndex = from;
  const match = endTag.exec(html);
  return match === null ? html.length : match.index + match[0].length;
}

function removeRanges(text: string, ranges: ReadonlyArray<[number, number]>): string {
  const kept: string[] = [];
  let from = 0;
  for (const [start, end] of ranges) {
    kept.push(text.slice(from, start));
    from = end;
  }
  kept.push(text.slice(from));
  return kept.join('');
}
