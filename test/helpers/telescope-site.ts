import { page } from './site-server.js';

export const TELESCOPE_TOPICS = ['optics', 'mirrors', 'lenses', 'mounts', 'eyepieces', 'filters', 'cameras', 'domes', 'history', 'care', 'cleaning', 'finders'];
export const TELESCOPE_MODELS = ['a', 'b', 'c'];

/** A form like most sites have: Chromium's autofill asks Google's servers about every page that has one. */
const NEWSLETTER_FORM = '<form action="/subscribe" method="post"><input name="name" autocomplete="name"><input type="email" name="email" autocomplete="email"><input name="city" autocomplete="address-level2"><button>Subscribe</button></form>';

/** Static guide pages (each with a form), plus a catalogue whose model links exist only after its script runs (an app shell over HTTP). */
export function telescopeSite(): Record<string, string> {
    const routes: Record<string, string> = {};
    const links = TELESCOPE_TOPICS.map((t) => `<li><a href="/guide/${t}">Telescope ${t}</a></li>`).join('');
    routes['/'] = page('Telescopes', `<main><h1>Telescopes</h1><p>Telescope guide home page about telescopes.</p><ul>${links}<li><a href="/app">Telescope catalogue</a></li></ul></main>`);
    TELESCOPE_TOPICS.forEach((t, i) => {
        routes[`/guide/${t}`] = page(`Telescope ${t}`, `<main><h1>Telescope ${t}</h1><p>All about telescope ${t}: why ${t} matter for a telescope, with notes on ${TELESCOPE_TOPICS[(i + 1) % TELESCOPE_TOPICS.length]}.</p></main>${NEWSLETTER_FORM}`);
    });
    const list = TELESCOPE_MODELS.map((x) => `<li><a href="/app/model-${x}">Telescope model ${x}</a></li>`).join('');
    const script = `document.addEventListener('DOMContentLoaded', () => { document.getElementById('list').innerHTML = ${JSON.stringify(list)}; });`;
    routes['/app'] = page('Catalogue', `<main><h1>Telescope catalogue</h1><p>Our telescope models.</p><ul id="list"></ul></main><script>${script}</script>`);
    for (const x of TELESCOPE_MODELS) routes[`/app/model-${x}`] = page(`Model ${x}`, `<main><h1>Telescope model ${x}</h1><p>The telescope model ${x} has a large aperture telescope tube.</p></main>`);
    return routes;
}

/**
 * The telescope site laid out flat, as many small sites are (every page in `/`, each with the site's navigation): the
 * catalogue's plain-HTTP page is the navigation, a heading and a script, not an empty app shell, and its
 * neighbourhood (the root directory) looks static from the first pages on.
 */
export function flatTelescopeSite(): Record<string, string> {
    const routes: Record<string, string> = {};
    const nav = `<nav><a href="/">Home</a>${TELESCOPE_TOPICS.slice(0, 8).map((t) => `<a href="/guide-${t}.html">${t}</a>`).join('')}<a href="/catalogue.html">Catalogue</a></nav>`;
    const prose = (topic: string) =>
        Array.from({ length: 6 }, (_, i) => `A telescope ${topic} note, number ${i + 1}, on how ${topic} change what a telescope shows of the night sky.`).join(' ');
    const links = TELESCOPE_TOPICS.map((t) => `<li><a href="/guide-${t}.html">Telescope ${t}</a></li>`).join('');
    routes['/'] = page('Telescopes', `${nav}<main><h1>Telescopes</h1><p>${prose('guide')}</p><ul>${links}</ul></main>`);
    for (const t of TELESCOPE_TOPICS) routes[`/guide-${t}.html`] = page(`Telescope ${t}`, `${nav}<main><h1>Telescope ${t}</h1><p>${prose(t)}</p></main>`);
    const list = TELESCOPE_MODELS.map((x) => `<li><a href="/model-${x}.html">Telescope model ${x}</a></li>`).join('');
    const script = `document.addEventListener('DOMContentLoaded', () => { document.getElementById('list').innerHTML = ${JSON.stringify(list)}; });`;
    routes['/catalogue.html'] = page('Telescope catalogue', `${nav}<main><h1>Telescope catalogue</h1><p>Our telescope models.</p><ul id="list"></ul></main><script>${script}</script>`);
    for (const x of TELESCOPE_MODELS) routes[`/model-${x}.html`] = page(`Telescope model ${x}`, `${nav}<main><h1>Telescope model ${x}</h1><p>${prose(`model ${x}`)}</p></main>`);
    return routes;
}
