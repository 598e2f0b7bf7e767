/** Small reads on the parsed tree (domhandler nodes), without recursion and without cheerio wrappers. */
import type { AnyNode, Element } from 'domhandler';

export function isElement(node: AnyNode): node is Element {
  return 'attribs' in node;
}

/** The concatenated text under `node`, like the DOM's textContent. */
export function textOf(node: AnyNode): string {
  const parts: string[] = [];
  const pending: AnyNode[] = [node];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (current.type === 'text') parts.push((current as { data: string }).data);
    else if ('children' in current) for (let i = current.children.length - 1; i >= 0; i--) pending.push(current.children[i]!);
  }
  return parts.join('');
}

/** Every element under `root` (not `root` itself) that satisfies `test`, in document order. */
export function elementsWhere(root: AnyNode, test: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  const pending: AnyNode[] = [root];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (current !== root && isElement(current) && test(current)) found.push(current);
    if ('children' in current) for (let i = current.children.length - 1; i >= 0; i--) pending.push(current.children[i]!);
  }
  return found;
}

/** The number of non-whitespace characters under `node`: a cheap measure of how much it says. */
export function textWeight(node: AnyNode): number {
  const text = textOf(node);
  let weight = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x20) weight += 1;
  return weight;
}

/** True when some ancestor of `node` has one of `names`. */
export function hasAncestor(node: AnyNode, names: ReadonlySet<string>): boolean {
  for (let current = node.parent; current !== null; current = current.parent) {
    if (isElement(current) && names.has(current.name)) return true;
  }
  return false;
}

/** True when `node` is `root` or lies under it; a removed subtree no longer reaches the document. */
export function isInside(node: AnyNode, root: AnyNode): boolean {
  for (let current: AnyNode | null = node; current !== null; current = current.parent) {
    if (current === root) return true;
  }
  return false;
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
