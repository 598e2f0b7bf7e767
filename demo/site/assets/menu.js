// Main menu of the School of Computing site. The served HTML has an empty <nav id="main-menu">:
// these links exist only in the rendered page, after DOMContentLoaded.
const MAIN_MENU = [
    ['Home', '/'],
    ['About', '/about/'],
    ['Undergraduate', '/undergraduate/'],
    ['Graduate', '/graduate/'],
    ['Research', '/research/'],
    ['People', '/people/'],
    ['News', '/news/'],
    ['Events', '/events/'],
    ['Library', '/library/'],
    ['Alumni', '/alumni/'],
    ['Contact', '/contact/'],
];

function buildMainMenu() {
    const nav = document.getElementById('main-menu');
    if (!nav) return;
    const list = document.createElement('ul');
    for (const [label, href] of MAIN_MENU) {
        const link = document.createElement('a');
        link.href = href;
        link.textContent = label;
        const inSection = href === '/' ? location.pathname === '/' : location.pathname.startsWith(href);
        if (inSection) link.setAttribute('aria-current', 'page');
        const item = document.createElement('li');
        item.append(link);
        list.append(item);
    }
    nav.append(list);
}

document.addEventListener('DOMContentLoaded', buildMainMenu);
