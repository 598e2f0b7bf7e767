/** Loads the Markdown pages of test/fixtures/focus and extracts their links the way the crawl would. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FocusLink, FocusPage } from '../../src/focus/focus.js';

const ROOT = fileURLToPath(new URL('../fixtures/focus/', import.meta.url));
const LINK = /\[([^\]]*)\]\(([^)\s]+)\)/g;

/** A fixture page: what `observePage` needs, plus its links with anchor text and context line. */
export interface FixturePage extends FocusPage {
    name: string;
    links: Omit<FocusLink, 'depth'>[];
}

function header(text: string, field: string, file: string): string {
    const match = new RegExp(`<!-- ${field}: (.*?) -->`).exec(text);
    if (!match) throw new Error(`${file} lacks its <!-- ${field}: … --> header`);
    return match[1]!;
}

/** Reads one fixture page, e.g. `page('northfield/visa')`. */
export function page(name: string): FixturePage {
    const file = join(ROOT, `${name}.md`);
    const text = readFileSync(file, 'utf8');
    const url = header(text, 'url', file);
    const title = header(text, 'title', file);
    const markdown = text.replace(/<!--.*?-->\n/g, '').trim();
    const links: FixturePage['links'] = [];
    const seen = new Set<string>();
    for (const line of markdown.split('\n')) {
        // The context of a link is its line with every link replaced by its anchor text.
        const plain = line.replace(LINK, '$1');
        for (const [, anchor, href] of line.matchAll(LINK)) {
            const target = new URL(href!, url).href;
            if (seen.has(target)) continue;
            seen.add(target);
            links.push({ url: target, anchor: anchor!.trim(), context: plain });
        }
    }
    const proseWords = markdown.replace(LINK, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean).length;
    return { name, url, title, markdown, linkCount: links.length, proseWords, links };
}

/** Every page of a fixture site, keyed by URL. */
export function site(dir: string): Map<string, FixturePage> {
    const pages = readdirSync(join(ROOT, dir))
        .filter((file) => file.endsWith('.md'))
        .map((file) => page(`${dir}/${file.slice(0, -3)}`));
    return new Map(pages.map((p) => [p.url, p]));
}
