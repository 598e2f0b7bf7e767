// Fills the programme list on /graduate/programs/ from /api/programs.json. The programme pages are
// linked from nowhere else, so a crawler that does not run JavaScript never finds them.
// The request starts as soon as this script runs; the list is built once the DOM is ready and gets
// data-loaded="true" when complete, a hook for crawlers that wait for it.
const programmesRequest = fetch('/api/programs.json').then((response) => response.json());

async function showProgrammes() {
    const list = document.getElementById('program-list');
    if (!list) return;
    try {
        const { programs } = await programmesRequest;
        for (const programme of programs) {
            const link = document.createElement('a');
            link.className = 'program-link';
            link.href = programme.path;
            link.textContent = programme.title;
            const item = document.createElement('li');
            item.append(link, ` (${programme.award}, ${programme.duration}): ${programme.summary}`);
            list.append(item);
        }
        list.dataset.loaded = 'true';
    } catch {
        list.dataset.loaded = 'error';
        list.textContent = 'The list of programmes could not be loaded. Please try again later.';
    }
}

document.addEventListener('DOMContentLoaded', showProgrammes);
