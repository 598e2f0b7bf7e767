// Fills the programme list on /graduate/programs/ from /api/programs.json. The programme pages are
// linked from nowhere else, so a crawler that does not run JavaScript never finds them.
// When the list is complete it gets data-loaded="true", a hook for crawlers that wait for it.
async function loadProgrammes() {
  const list = document.getElementById('program-list');
  if (!list) return;
  try {
    const response = await fetch('/api/programs.json');
    const { programs } = await response.json();
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

document.addEventListener('DOMContentLoaded', loadProgrammes);
