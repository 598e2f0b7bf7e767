/** Plain text of the main content and its prose word count. */
import type { AnyNode } from 'domhandler';
import { isElement } from './dom.js';

export interface MainText {
  /** Whitespace-collapsed text, one line per block. */
  text: string;
  /** Words outside links, headings, buttons, selects and preformatted code. */
  proseWords: number;
}

/** Marks a block boundary in the collected text; parsing removed every NUL from the page. */
const BREAK = '\u0000';

/** Elements that start a new line of text. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main',
  'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tr', 'ul',
]);

/** Elements whose words are labels or code, not prose (the hub test counts prose, §5.1). */
const NOT_PROSE = new Set(['a', 'button', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'select']);

/**
 * A word: a run of letters, digits and marks, or a single Chinese or Japanese character (these
 * scripts put no spaces between words; one character per word overcounts about 1.5-fold).
 */
const WORD = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]|[^\s\p{P}\p{S}\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]+/gu;

function countWords(text: string): number {
  let words = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null) words += 1;
  return words;
}

/** Walks the tree under `root` without recursion, so that no nesting depth can overflow the stack. */
export function readMainText(root: AnyNode): MainText {
  const parts: string[] = [];
  let proseWords = 0;
  // Elements still open on the walk, each pushed again as a closing marker after its children.
  const pending: Array<{ node: AnyNode; closing: boolean }> = [{ node: root, closing: false }];
  let notProseDepth = 0;
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { node, closing } = item;
    if (node.type === 'text') {
      const data = (node as { data: string }).data;
      parts.push(data);
      if (notProseDepth === 0) proseWords += countWords(data);
      continue;
    }
    if (!('children' in node)) continue;
    const name = isElement(node) ? node.name : '';
    if (closing) {
      if (NOT_PROSE.has(name)) notProseDepth -= 1;
      if (BLOCKS.has(name)) parts.push(BREAK);
      continue;
    }
    if (NOT_PROSE.has(name)) notProseDepth += 1;
    if (BLOCKS.has(name)) parts.push(BREAK);
    else if (name === 'td' || name === 'th') parts.push(' ');
    pending.push({ node, closing: true });
    for (let i = node.children.length - 1; i >= 0; i--) pending.push({ node: node.children[i]!, closing: false });
  }
  const text = parts
    .join('')
    .replace(/\s+/g, ' ')
    .split(BREAK)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
  return { text, proseWords };
}
