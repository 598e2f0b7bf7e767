/** Finds a page's main content: boilerplate removed, the main region preferred when it carries the text. */
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { elementsWhere, hasAncestor, textWeight } from './dom.js';
import { linkDensity, MAX_LINK_DENSITY, removeNavigationBlocks } from './navigation.js';

/** Navigation, embedded and form elements: never the page's own words. */
const BOILERPLATE_ELEMENTS = new Set(['svg', 'iframe', 'nav', 'aside', 'form']);
const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo']);

/**
 * Sectioning elements that scope a <header> or <footer> to themselves: inside them the element is
 * an article's title block, not the page banner (WAI-ARIA in HTML, implicit roles of header/footer).
 */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

/**
 * A container holding more than this share of the page's text is the page, whatever it is marked as:
 * ASP.NET WebForms wrap whole pages in a <form>, and modal scripts set aria-hidden on the app root.
 * A navigation landmark that is mostly link text is a menu however large (a mega-menu outweighs a
 * short page).
 */
const MAX_BOILERPLATE_SHARE = 0.5;

/** A <main> or <article> with less of the page's text than this is a teaser or an empty app mount point. */
const MIN_MAIN_SHARE = 0.3;

/**
 * Removes boilerplate from the document and returns the root of the main content: the first
 * <main> or [role=main], else the largest <article>, if it holds enough of the remaining text;
 * otherwise <body> (or the document when there is no body). Link-dense navigation blocks inside
 * the main content go too (see {@link removeNavigationBlocks}).
 */
export function isolateMainContent($: CheerioAPI): AnyNode {
  // A frameset document has no body: its content is in the frames, which are links (see `extractPage`).
  const page: AnyNode = $('body').get(0) ?? $('frameset').get(0) ?? $.root().get(0)!;
  const pageWeight = textWeight(page);
  const furniture = elementsWhere(page, isBoilerplate).filter(
    (element) => textWeight(element) <= MAX_BOILERPLATE_SHARE * pageWeight || isLinkDenseNavigation(element),
  );
  $(furniture).remove();

  const contentWeight = textWeight(page);
  const weighed = (element: Element) => ({ element, weight: textWeight(element) });
  const mains = elementsWhere(page, (element) => element.name === 'main' || element.attribs['role'] === 'main');
  const articles = elementsWhere(page, (element) => element.name === 'article').map(weighed);
  const candidates = [...mains.map(weighed), ...articles.sort((a, b) => b.weight - a.weight)];
  const main = candidates.find(({ weight }) => weight > 0 && weight >= MIN_MAIN_SHARE * contentWeight);
  const root = main?.element ?? page;
  removeNavigationBlocks($, root);
  return root;
}

function isLinkDenseNavigation(element: Element): boolean {
  const isNavigation = element.name === 'nav' || element.attribs['role'] === 'navigation';
  return isNavigation && linkDensity(element) > MAX_LINK_DENSITY;
}

/** Navigation, page banner and footer, embedded frames, forms, and hidden elements. */
function isBoilerplate(element: Element): boolean {
  const { name, attribs } = element;
  if (BOILERPLATE_ELEMENTS.has(name)) return true;
  if ((name === 'header' || name === 'footer') && !hasAncestor(element, SECTIONING)) return true;
  if (attribs['hidden'] !== undefined || attribs['aria-hidden'] === 'true') return true;
  return BOILERPLATE_ROLES.has(attribs['role'] ?? '');
}
