import { LogLevel, log } from 'crawlee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CRAWLEE_FOCUS_USER_AGENT, type CrawlMode } from '../../src/index.js';
import { makeDocx, makePdf } from '../helpers/documents.js';
import { startLoggingProxy } from '../helpers/logging-proxy.js';
import { page, startSite, type TestSite } from '../helpers/site-server.js';
import { crawl } from '../robustness/crawl.js';

log.setLevel(LogLevel.OFF);

const QUERY = 'admissions scholarships financial assistance';
const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * A school site whose admissions page links a scholarship PDF (which links the appeal page), an admission form DOCX,
 * a PDF served from a URL that does not name its format, and a canteen menu PDF nobody asked for.
 */
async function schoolSite(): Promise<TestSite> {
    let origin = '';
    // PDF link annotations hold absolute URLs (PDF.js drops relative ones): made when the site's address is known.
    const scholarship = () =>
        makePdf(
            [['Scholarships and financial assistance', 'Admissions scholarships cover tuition for families in need.'], ['Financial assistance is granted each term.']],
            { title: 'Scholarship and financial assistance form', links: [`${origin}/admissions/appeal`] },
        );
    const admission = await makeDocx([
        { heading: 'Admissions application form' },
        { text: 'Apply for admissions and scholarships with this form.' },
        { table: [['Item', 'Fee'], ['Application', '50'], ['Scholarship test', '0']] },
    ]);
    const bursary = makePdf([['Bursary and financial assistance scheme', 'Admissions officers review every scholarship application.']], { title: 'Bursary scheme' });
    const menu = makePdf([['Canteen lunch menu', 'Monday noodles, Tuesday rice.']], { title: 'Canteen menu' });
    const file = (bytes: Buffer | (() => Buffer), type: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
        void res.writeHead(200, { 'content-type': type }).end(typeof bytes === 'function' ? bytes() : bytes);
    const site = await startSite({
        '/': page('Hill College', '<main><h1>Hill College</h1><p>Welcome.</p><a href="/admissions">Admissions</a> <a href="/canteen">Canteen</a></main>'),
        '/admissions': page(
            'Admissions',
            `<main><h1>Admissions</h1><p>Admissions, scholarships and financial assistance at Hill College.</p><ul>
              <li><a href="/forms/scholarships.pdf">Scholarships and financial assistance (PDF)</a></li>
              <li><a href="/forms/admission-form.docx">Admissions application form (Word)</a></li>
              <li><a href="/download?file=bursary">Bursary and financial assistance scheme</a></li>
            </ul></main>`,
        ),
        '/canteen': page('Canteen', '<main><h1>Canteen</h1><p>Our canteen serves lunch.</p><a href="/forms/menu.pdf">Lunch menu</a></main>'),
        '/admissions/appeal': page('Scholarship appeals', '<main><h1>Scholarship appeals</h1><p>How to appeal an admissions or scholarships decision on financial assistance.</p></main>'),
        '/forms/scholarships.pdf': file(scholarship, PDF),
        '/forms/admission-form.docx': file(admission, DOCX),
        '/download': file(bursary, PDF),
        '/forms/menu.pdf': file(menu, PDF),
    });
    origin = site.url;
    return site;
}

describe.each<CrawlMode>(['http', 'browser'])('documents in %s mode', (mode) => {
    let site: TestSite;
    beforeAll(async () => {
        site = await schoolSite();
    });
    afterAll(async () => site.close());

    it('converts, scores and delivers the relevant PDF and DOCX, follows the PDF\'s link, and does not deliver the irrelevant one', async () => {
        const { report, items } = await crawl({ mode, query: QUERY, startUrls: [`${site.url}/`], maxPages: 20, maxConcurrency: 2, stop: 'never' });
        const byPath = new Map(items.map((item) => [new URL(item.url).pathname, item as typeof item & { contentType: string }]));
        expect(byPath.get('/forms/scholarships.pdf')).toMatchObject({ contentType: PDF, title: 'Scholarship and financial assistance form' });
        expect(byPath.get('/forms/scholarships.pdf')!.markdown).toContain('Financial assistance is granted each term.');
        expect(byPath.get('/forms/admission-form.docx')).toMatchObject({ contentType: DOCX, title: 'Admissions application form' });
        expect(byPath.get('/forms/admission-form.docx')!.markdown).toMatch(/\| Item \| Fee \|\n\| --- \| --- \|/);
        expect(byPath.get('/download')).toMatchObject({ contentType: PDF, title: 'Bursary scheme' }); // its URL names no format
        expect(byPath.has('/admissions/appeal')).toBe(true); // linked from inside the PDF
        expect(byPath.has('/forms/menu.pdf')).toBe(false);
        expect(byPath.get('/admissions')).toMatchObject({ contentType: 'text/html' });
        expect(report.documents.pdf).toMatchObject({ converted: report.documents.pdf!.fetched, delivered: 2 });
        expect(report.documents.docx).toEqual({ fetched: 1, converted: 1, delivered: 1 });
        expect(Object.keys(report.failures).filter((reason) => reason.startsWith('document-') || reason === 'unsupported-content-type')).toEqual([]);
    }, 120_000);

    it('does not fetch a document link that scores below everything else when the budget runs out first', async () => {
        const before = site.requests.length;
        await crawl({ mode, query: QUERY, startUrls: [`${site.url}/`], maxPages: 6, maxConcurrency: 1, stop: 'never' });
        const fetched = site.requests.slice(before);
        expect(fetched).toContain('/forms/scholarships.pdf');
        expect(fetched).not.toContain('/forms/menu.pdf');
    }, 120_000);

    it('does not download a document over the size limit, announced or streamed, and says why', async () => {
        const big = makePdf(Array.from({ length: 400 }, (_, i) => [`Scholarship rules, part ${i}: ${'financial assistance '.repeat(40)}`]));
        const huge = await startSite({
            '/': page('Forms', '<main><h1>Admissions forms</h1><a href="/big.pdf">Scholarships and financial assistance (PDF)</a> <a href="/stream.pdf">Admissions scholarships (PDF, streamed)</a></main>'),
            '/big.pdf': (_req, res) => void res.writeHead(200, { 'content-type': PDF, 'content-length': String(big.length) }).end(big),
            // No Content-Length: the body would never end.
            '/stream.pdf': (_req, res) => {
                res.writeHead(200, { 'content-type': PDF });
                const chunk = Buffer.alloc(64 * 1024, 0x20);
                const timer = setInterval(() => res.write(chunk), 5);
                res.on('close', () => clearInterval(timer));
            },
        });
        try {
            const maxDocumentBytes = 64 * 1024;
            expect(big.length).toBeGreaterThan(maxDocumentBytes);
            const { report, items } = await crawl({ mode, query: QUERY, startUrls: [`${huge.url}/`], maxPages: 3, maxConcurrency: 2, stop: 'never', maxDocumentBytes, navigationTimeoutSecs: 10, maxRequestRetries: 0 });
            expect(items.filter((item) => item.url.endsWith('.pdf'))).toEqual([]);
            expect(report.failures['document-too-large'], JSON.stringify(report.failures)).toBe(mode === 'http' ? 1 : 2); // http: the stream runs into the timeout
            expect(huge.hits('/big.pdf')).toBe(1); // not retried
        } finally {
            await huge.close();
        }
    }, 120_000);

    it('reads no document with documents: false', async () => {
        const { report, items } = await crawl({ mode, query: QUERY, startUrls: [`${site.url}/`], maxPages: 20, maxConcurrency: 2, stop: 'never', documents: false });
        expect(items.some((item) => new URL(item.url).pathname.startsWith('/forms/'))).toBe(false);
        expect(report.documents).toEqual({});
    }, 120_000);
});

describe.each<CrawlMode>(['browser', 'adaptive'])('documents through the proxy in %s mode', (mode) => {
    it('fetches them through the crawl\'s proxy with its user agent, like its pages', async () => {
        const site = await schoolSite();
        const proxy = await startLoggingProxy({ 'school.invalid': site.url });
        try {
            const { report, items } = await crawl({ mode, query: QUERY, startUrls: ['http://school.invalid/'], proxyUrls: [proxy.url], maxPages: 8, maxConcurrency: 2, stop: 'never' });
            const documents = proxy.requests.filter((r) => r.host === 'school.invalid' && /^\/(forms|download)/.test(r.path));
            expect(documents.map((r) => r.path)).toEqual(expect.arrayContaining(['/forms/scholarships.pdf', '/forms/admission-form.docx']));
            expect(documents.filter((r) => r.userAgent !== CRAWLEE_FOCUS_USER_AGENT)).toEqual([]);
            expect(items.map((item) => new URL(item.url).pathname)).toEqual(expect.arrayContaining(['/forms/scholarships.pdf', '/forms/admission-form.docx']));
            expect(report.documents.docx).toMatchObject({ converted: 1, delivered: 1 });
        } finally {
            await proxy.close();
            await site.close();
        }
    }, 120_000);
});
