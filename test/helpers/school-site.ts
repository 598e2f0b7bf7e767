/**
 * A generated school site with the failure modes issue 10 measured on held-out captures: teacher profiles reached
 * only through image links without text, a clubs hub whose club pages do not repeat the query, posts reachable only
 * through paginated news listings, thirty subject pages that mention the words, and an endless calendar.
 * `relevant` lists, per query, the paths a reader would want.
 */
import type { LoggingServer } from './fault-server.js';
import { startLoggingServer } from './fault-server.js';

export interface SchoolSite extends LoggingServer {
    relevant: Record<SchoolQuery, string[]>;
    /** Distinct relevant paths of `query` requested so far, over the relevant paths. */
    recall(query: SchoolQuery): number;
}

export type SchoolQuery = 'CCA clubs and societies' | 'science department teachers' | 'admissions scholarships financial assistance';

export interface SchoolSiteOptions {
    /** Path → milliseconds its answer is held back (a slow page, as a loaded machine's browser render is). */
    slowPaths?: Record<string, number>;
}

export async function startSchoolSite(options: SchoolSiteOptions = {}): Promise<SchoolSite> {
    const pages = new Map<string, string>();
    const nav = ['<nav><ul>', ...[['/', 'Home'], ['/about/', 'About Us'], ['/academics/', 'Academics'], ['/staff/', 'College Staff'], ['/student-life/', 'Student Life'], ['/news/', 'News'], ['/admissions/', 'Admissions'], ['/events/calendar?month=2019-05', 'Calendar'], ['/contact/', 'Contact']].map(([h, t]) => `<li><a href="${h}">${t}</a></li>`), '</ul></nav>'].join('');
    const footer = '<footer><a href="/privacy/">Privacy</a> <a href="/contact/">Contact us</a> <a href="/sitemap/">Sitemap</a> © Riverside College</footer>';
    function put(path: string, title: string, body: string): void {
        pages.set(path, `<!doctype html><html><head><title>${title} | Riverside College</title></head><body>${nav}<main><h1>${title}</h1>${body}</main>${footer}</body></html>`);
    }
    const lorem = (seed: number, n: number) => {
        const words = ['student', 'learning', 'community', 'values', 'growth', 'campus', 'week', 'year', 'parents', 'programme', 'school', 'morning', 'together', 'support', 'experience', 'future', 'class', 'term', 'holistic', 'leadership', 'service', 'character'];
        return Array.from({ length: n }, (_, i) => words[(seed * 7 + i * 13) % words.length]).join(' ');
    };
    
    put('/', 'Welcome to Riverside College', `<p>${lorem(1, 60)}</p><p><a href="/news/">Latest news</a></p>`);
    const about: Array<[string, string]> = [['history', 'Our History'], ['vision', 'Vision and Mission'], ['principal', "Principal's Message"], ['board', 'Board of Governors']];
    for (const [name, title] of about) put(`/about/${name}`, title, `<p>${lorem(name.length, 80)}</p>`);
    put('/about/', 'About Us', ['history', 'vision', 'principal', 'board'].map((s) => `<p><a href="/about/${s}">${s}</a></p>`).join(''));
    
    const subjects = ['Physics', 'Chemistry', 'Biology', 'Mathematics', 'Further Mathematics', 'English Literature', 'General Paper', 'History', 'Geography', 'Economics', 'Art', 'Music', 'Computing', 'Chinese', 'Malay', 'Tamil', 'French', 'Japanese', 'Literature in Chinese', 'Knowledge and Inquiry', 'Project Work', 'Theatre Studies', 'Principles of Accounts', 'Management of Business', 'Physical Education', 'Design and Technology', 'Food Science', 'Psychology', 'Philosophy', 'Statistics'];
    const slug = (s: string) => s.toLowerCase().replace(/[^a-z]+/g, '-');
    for (const [i, s] of subjects.entries()) {
        put(`/academics/subjects/${slug(s)}`, s, `<p>The ${s} curriculum at the college prepares students for the A-Level examinations. ${i % 3 === 0 ? 'Our experienced teachers from the department guide every student.' : ''}</p><p>${lorem(i, 90)}</p>`);
    }
    put('/academics/', 'Academics', `<p>Our subjects.</p><ul>${subjects.map((s) => `<li><a href="/academics/subjects/${slug(s)}">${s}</a></li>`).join('')}</ul>`);
    
    const departments: Record<string, string[]> = {
        Science: ['Physics', 'Chemistry', 'Biology'],
        Mathematics: ['Mathematics', 'Statistics'],
        Humanities: ['History', 'Geography', 'Economics'],
        Languages: ['Chinese', 'French', 'Malay'],
        Aesthetics: ['Art', 'Music'],
        Administration: ['Finance', 'Estate', 'Registry'],
    };
    const first = ['Alan', 'Beatrice', 'Chen', 'Devi', 'Edmund', 'Farah', 'Gopal', 'Hui Min', 'Ivan', 'Jia Hui', 'Kumar', 'Lydia', 'Marcus', 'Nur', 'Oliver', 'Priya', 'Qi Xuan', 'Rahman', 'Siew Ling', 'Thomas', 'Umar', 'Valerie', 'Wei Jie', 'Xin Yi', 'Yusuf', 'Zhen', 'Amir', 'Bella', 'Cheryl', 'Daniel', 'Elaine', 'Faisal', 'Grace', 'Hakim', 'Irene', 'Jason'];
    const last = ['Tan', 'Lim', 'Ng', 'Wong', 'Kumar', 'Rahim', 'Lee', 'Goh', 'Chua', 'Ong', 'Teo', 'Koh'];
    const staff: Array<{ id: number; name: string; dept: string; subject: string }> = [];
    let id = 100;
    for (const [dept, subs] of Object.entries(departments)) {
        const n = dept === 'Science' ? 10 : 20; // the wanted ten among a hundred
        for (let k = 0; k < n; k++) {
            const name = `${first[staff.length % first.length]} ${last[(staff.length * 5) % last.length]}`;
            staff.push({ id: id++, name, dept, subject: subs[k % subs.length]! });
        }
    }
    for (const person of staff) {
        put(`/staff/profile/${person.id}`, `${person.name}`, `<p>${person.dept} Department</p><p>Subject: ${person.subject}</p><p>${person.name.split(' ')[0]} joined the college in ${2000 + (person.id % 19)} and holds a degree in ${person.subject} education. ${lorem(person.id, 40)}</p>`);
    }
    // The staff directory: image links with no text, names in a caption outside the link.
    // Alphabetical, as directories are: the science teachers are spread over the whole grid.
    const directory = [...staff].sort((a, b) => a.name.split(' ').reverse().join(' ').localeCompare(b.name.split(' ').reverse().join(' ')) || a.id - b.id);
    put('/staff/', 'College Staff', `<div class="grid">${directory.map((p) => `<figure><a href="/staff/profile/${p.id}"><img src="/img/staff/${p.id}.jpg"></a><figcaption>${p.name}</figcaption></figure>`).join('')}</div><p><a href="/staff/departments/">Departments</a></p>`);
    for (const dept of Object.keys(departments)) {
        const members = staff.filter((p) => p.dept === dept);
        put(`/staff/departments/${slug(dept)}`, `${dept} Department`, `<p>The ${dept} Department teaches ${departments[dept]!.join(', ')}. Our teachers are committed to inquiry-based learning.</p><ul>${members.map((p) => `<li><a href="/staff/profile/${p.id}"><img src="/img/staff/${p.id}.jpg"></a> ${p.name}</li>`).join('')}</ul>`);
    }
    put('/staff/departments/', 'Departments', Object.keys(departments).map((d) => `<p><a href="/staff/departments/${slug(d)}">${d}</a></p>`).join(''));
    
    const clubs = ['Chess Club', 'Robotics Club', 'Debate Society', 'Drama Society', 'Photography Club', 'Astronomy Club', 'Environmental Club', 'Basketball', 'Football', 'Badminton', 'Table Tennis', 'Swimming', 'Track and Field', 'Floorball', 'Netball', 'Volleyball', 'Chinese Orchestra', 'Symphonic Band', 'Choir', 'Modern Dance', 'Indian Dance', 'Malay Dance', 'Guitar Ensemble', 'Interact Club', 'Red Cross Youth', 'Toastmasters', 'Film Society', 'Literary Society', 'Mathematics Society', 'Investment Club'];
    for (const [i, c] of clubs.entries()) {
        put(`/student-life/cca/${slug(c)}`, c, `<p>${c} meets every ${['Monday', 'Wednesday', 'Friday'][i % 3]} afternoon. Members ${['compete in national competitions', 'perform at the annual concert', 'organise community projects'][i % 3]}.</p><p>Teacher-in-charge: ${staff[i % staff.length]!.name}.</p><p>${lorem(i + 50, 50)}</p>`);
    }
    put('/student-life/cca/', 'CCA', `<p>Co-curricular activities at Riverside.</p><ul>${clubs.map((c) => `<li><a href="/student-life/cca/${slug(c)}">${c}</a></li>`).join('')}</ul>`);
    put('/student-life/', 'Student Life', `<p><a href="/student-life/cca/">Co-Curricular Activities (CCA)</a></p><p><a href="/student-life/council">Student Council</a></p><p><a href="/student-life/wellbeing">Wellbeing</a></p>`);
    put('/student-life/council', 'Student Council', `<p>${lorem(3, 70)}</p>`);
    put('/student-life/wellbeing', 'Wellbeing', `<p>${lorem(4, 70)}</p>`);
    
    put('/admissions/', 'Admissions', `<p>Joining the college.</p><p><a href="/admissions/apply">How to apply</a> <a href="/admissions/scholarships">Scholarships</a> <a href="/admissions/financial-assistance">Financial Assistance</a> <a href="/admissions/fees">School Fees</a></p>`);
    put('/admissions/apply', 'How to Apply', `<p>Admissions exercise: apply through the joint admissions portal. ${lorem(5, 40)}</p>`);
    put('/admissions/scholarships', 'Scholarships', `<p>The college offers merit scholarships to students with outstanding results. Admissions scholarships cover school fees.</p>`);
    put('/admissions/financial-assistance', 'Financial Assistance', `<p>Students from lower-income families may apply for financial assistance schemes covering fees, meals and transport.</p>`);
    put('/admissions/fees', 'School Fees', `<p>Monthly fees for citizens and international students. ${lorem(6, 40)}</p>`);
    
    // News: 150 posts, 10 per listing page; 13 are about scholarships and financial assistance.
    const posts: Array<{ path: string; title: string; body: string }> = [];
    const topics = ['Sports Day', 'Open House', 'Science Fair', 'Concert', 'Prize Giving', 'Overseas Trip', 'Career Talk', 'Parent Forum', 'Art Exhibition', 'Graduation'];
    for (let i = 0; i < 150; i++) {
        const year = 2008 + Math.floor(i / 10);
        const aid = i % 11 === 5 && posts.filter((p) => p.title.includes('Scholarship')).length < 13;
        const title = aid ? `${year} Scholarship and Financial Assistance Awards` : `${topics[i % topics.length]} ${year}`;
        const body = aid ? `<p>At the ${year} awards ceremony, 24 students received scholarships and bursaries. Financial assistance recipients were also recognised.</p>` : `<p>${lorem(i + 7, 70)}</p>`;
        posts.push({ path: `/news/${year}/${slug(title)}-${i}`, title, body });
    }
    for (const p of posts) put(p.path, p.title, p.body);
    const perPage = 10;
    const newest = [...posts].reverse();
    for (let page = 1; page <= newest.length / perPage; page++) {
        const list = newest.slice((page - 1) * perPage, page * perPage).map((p) => `<article><h2><a href="${p.path}">${p.title}</a></h2><p>${lorem(page, 12)}</p></article>`).join('');
        const next = page < newest.length / perPage ? `<a href="/news/?page=${page + 1}">Older posts</a>` : '';
        put(page === 1 ? '/news/' : `/news/?page=${page}`, 'News', `${list}${next}`);
    }
    const legal: Array<[string, string]> = [['/privacy/', 'Privacy Policy'], ['/contact/', 'Contact Us'], ['/sitemap/', 'Sitemap']];
    for (const [path, title] of legal) put(path, title, `<p>${lorem(title.length, 50)}</p>`);
    
    function calendar(url: URL): string | undefined {
        const month = url.searchParams.get('month');
        if (!month || url.pathname !== '/events/calendar') return undefined;
        const [y, m] = month.split('-').map(Number) as [number, number];
        const next = `${m === 12 ? y + 1 : y}-${String(m === 12 ? 1 : m + 1).padStart(2, '0')}`;
        const prev = `${m === 1 ? y - 1 : y}-${String(m === 1 ? 12 : m - 1).padStart(2, '0')}`;
        return `<!doctype html><html><head><title>Calendar ${month}</title></head><body>${nav}<main><h1>Calendar ${month}</h1><p>No events.</p><a href="/events/calendar?month=${prev}">Prev</a> <a href="/events/calendar?month=${next}">Next</a></main>${footer}</body></html>`;
    }

    const relevant: Record<SchoolQuery, string[]> = {
        'CCA clubs and societies': ['/student-life/cca/', ...clubs.map((c) => `/student-life/cca/${slug(c)}`)],
        'science department teachers': ['/staff/departments/science', ...staff.filter((p) => p.dept === 'Science').map((p) => `/staff/profile/${p.id}`)],
        'admissions scholarships financial assistance': ['/admissions/', '/admissions/scholarships', '/admissions/financial-assistance', ...posts.filter((p) => p.title.includes('Scholarship')).map((p) => p.path)],
    };
    const server = await startLoggingServer((url) => {
        const key = url.pathname + (url.searchParams.has('page') ? `?page=${url.searchParams.get('page')}` : '');
        const html = pages.get(key) ?? calendar(url);
        if (html === undefined) return undefined;
        const delay = options.slowPaths?.[url.pathname + url.search] ?? 0;
        return async (_req, res) => {
            if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
        };
    });
    return {
        ...server,
        relevant,
        recall: (query) => {
            const requested = new Set(server.requests.map((r) => r.path));
            return relevant[query].filter((path) => requested.has(path)).length / relevant[query].length;
        },
    };
}
