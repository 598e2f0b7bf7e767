// Extraction benchmark (part of `npm run bench`): CPU time of extractPage per MiB of HTML, for page
// shapes that once made it quadratic or stress one stage (flat listings, tables, link-dense prose),
// at growing sizes. Linear extraction keeps ms/MiB flat (or falling, as fixed costs spread) as the
// page grows; the growth column is ms/MiB at the largest size over ms/MiB at the one before, where
// fixed costs no longer matter: about 1 for linear work, about 2 for quadratic.
import { extractPage, MAX_HTML_CHARS } from '../src/extract/index.js';
import { collectGarbage, median, Stopwatch } from './measure.js';

const MiB = 1024 * 1024;
const SIZES_MIB = [0.25, 0.5, 1, 2];
const ROUNDS = 3;
/** Above this growth the bench says the shape scales worse than linearly. */
const LINEAR_GROWTH = 1.3;

/** Repeats `block(i)` inside `<main>` until the page reaches `bytes` characters. */
function pageOf(bytes: number, block: (i: number) => string, wrap = (body: string) => `<main>${body}</main>`): string {
    const parts: string[] = [];
    let length = 0;
    for (let i = 0; length < bytes; i++) {
        const piece = block(i);
        parts.push(piece);
        length += piece.length;
    }
    return `<!doctype html><html lang="en"><head><title>Bench</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>${wrap(parts.join(''))}<footer>Footer</footer></body></html>`;
}

const SHAPES: Record<string, (bytes: number) => string> = {
    'flat sections (h2, p, ul)': (bytes) =>
        pageOf(bytes, (i) => `<h2>Section ${i}</h2><p>Paragraph ${i} about graduate admissions, with <a href="/p/${i}">a link ${i}</a> and more words.</p><ul><li><a href="/x/${i}">item ${i}</a></li></ul>`),
    'listing (article cards)': (bytes) =>
        pageOf(bytes, (i) => `<article><h3><a href="/news/${i}">Story ${i}</a></h3><p>Teaser text of story ${i} for the listing page.</p></article>`),
    'table rows': (bytes) =>
        pageOf(bytes, (i) => `<tr><td>${i}</td><td><a href="/r/${i}">row ${i}</a></td><td>value ${i}</td></tr>`, (body) => `<main><table>${body}</table></main>`),
    'one link-dense paragraph': (bytes) =>
        pageOf(bytes, (i) => `word ${i} <a href="/l/${i}">link ${i}</a> `, (body) => `<main><p>${body}</p></main>`),
    'long prose': (bytes) => pageOf(bytes, (i) => `<p>Sentence ${i} of a long article on robot learning and vision research.</p>`),
};

function cpuMillis(html: string): number {
    collectGarbage();
    const stopwatch = new Stopwatch();
    const page = extractPage(html, 'https://bench.example/page', { maxHtmlChars: html.length });
    const { cpuSeconds } = stopwatch.stop();
    if (page.markdown === '') throw new Error('extractPage returned no Markdown; the benchmark measured nothing.');
    return cpuSeconds * 1000;
}

console.log(`extractPage: ms of CPU per MiB of HTML, median of ${ROUNDS} rounds (default cut MAX_HTML_CHARS = ${MAX_HTML_CHARS / MiB} MiB)`);
console.log(`${'page shape'.padEnd(28)}${SIZES_MIB.map((size) => `${size} MiB`.padStart(10)).join('')}    growth`);
cpuMillis(SHAPES['flat sections (h2, p, ul)']!(MiB / 4)); // warm-up
for (const [name, make] of Object.entries(SHAPES)) {
    const perMiB = SIZES_MIB.map((size) => {
        const html = make(size * MiB);
        return median(Array.from({ length: ROUNDS }, () => cpuMillis(html))) / (html.length / MiB);
    });
    const growth = perMiB.at(-1)! / perMiB.at(-2)!;
    const verdict = growth <= LINEAR_GROWTH ? 'linear' : 'SUPERLINEAR';
    console.log(`${name.padEnd(28)}${perMiB.map((ms) => ms.toFixed(0).padStart(10)).join('')}    ${growth.toFixed(2)}× ${verdict}`);
}
