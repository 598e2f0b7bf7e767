import { describe, expect, it } from 'vitest';
import { convertDocument, parseCsv, type DocumentConversion } from '../../src/extract/documents/index.js';
import { makeDocx, makeOdt, makePdf, makePptx, makeXlsx, oleFile } from '../helpers/documents.js';

const BASE = 'https://school.example/files/';
const TYPES = {
    pdf: 'application/pdf',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    odt: 'application/vnd.oasis.opendocument.text',
};

function page(result: DocumentConversion) {
    if (!result.ok) throw new Error(`expected a conversion, got ${result.reason}: ${result.message}`);
    return result.page;
}

describe('convertDocument', () => {
    it('reads a PDF: the text of every page, the title from its metadata and its link annotations', async () => {
        const pdf = makePdf([['Scholarship application 2024', 'Apply by 1 March.'], ['Financial assistance for families']], { title: 'Scholarship form', links: ['https://school.example/apply'] });
        const result = await convertDocument(pdf, { url: `${BASE}form.pdf`, contentType: TYPES.pdf });
        expect(result).toMatchObject({ ok: true, kind: 'pdf' });
        const read = page(result);
        expect(read.title).toBe('Scholarship form');
        expect(read.markdown).toContain('Scholarship application 2024');
        expect(read.markdown).toContain('Financial assistance for families');
        expect(read.links.map((link) => link.url)).toContain('https://school.example/apply');
    });

    it('keeps a DOCX table as a Markdown table, with its headings and links', async () => {
        const docx = await makeDocx([
            { heading: 'Admission application' },
            { text: 'Fill in every field of the admission form.' },
            { table: [['Fee', 'Amount'], ['Application', '50'], ['Tuition', '1200']] },
            { link: { text: 'Scholarship rules', url: 'https://school.example/scholarships' } },
        ]);
        const read = page(await convertDocument(docx, { url: `${BASE}apply.docx`, contentType: TYPES.docx }));
        expect(read.title).toBe('Admission application');
        expect(read.markdown).toMatch(/^# Admission application/m);
        expect(read.markdown).toMatch(/\| Fee \| Amount \|\n\| --- \| --- \|\n\| Application \| 50 \|\n\| Tuition \| 1200 \|/);
        expect(read.links).toContainEqual(expect.objectContaining({ url: 'https://school.example/scholarships', anchor: 'Scholarship rules' }));
    });

    it('keeps each XLSX sheet as a Markdown table under its name, hyperlinks included', async () => {
        const xlsx = await makeXlsx({ Clubs: [['Club', 'Day'], ['Chess', 'Monday'], [{ text: 'Robotics', hyperlink: 'https://school.example/robotics' }, 'Friday']] });
        const read = page(await convertDocument(xlsx, { url: `${BASE}clubs.xlsx`, contentType: TYPES.xlsx }));
        expect(read.markdown).toMatch(/^## Clubs/m);
        expect(read.markdown).toMatch(/\| Club \| Day \|\n\| --- \| --- \|\n\| Chess \| Monday \|\n\| \[Robotics\]\(https:\/\/school\.example\/robotics\) \| Friday \|/);
        expect(read.links.map((link) => link.url)).toContain('https://school.example/robotics');
    });

    it('reads PPTX slide titles as headings and ODT headings, tables and links', async () => {
        const pptx = await makePptx([{ title: 'Open day', lines: ['Tours at 10 am'], link: { text: 'Book a visit', url: 'https://school.example/visit' } }, { title: 'Clubs fair', lines: ['Forty clubs and societies'] }]);
        const slides = page(await convertDocument(pptx, { url: `${BASE}open-day.pptx`, contentType: TYPES.pptx }));
        expect(slides.title).toBe('Open day');
        expect(slides.markdown).toMatch(/^## Clubs fair/m);
        expect(slides.links.map((link) => link.url)).toContain('https://school.example/visit');
        const odt = await makeOdt({ title: 'Prospectus', heading: 'Our school', paragraphs: ['A college for science.'], link: { text: 'Admissions', url: 'https://school.example/admissions' }, table: [['Subject', 'Teacher'], ['Physics', 'Ms Tan']] });
        const text = page(await convertDocument(odt, { url: `${BASE}prospectus.odt`, contentType: TYPES.odt }));
        expect(text.title).toBe('Prospectus');
        expect(text.markdown).toMatch(/^# Our school/m);
        expect(text.markdown).toMatch(/\| Subject \| Teacher \|\n\| --- \| --- \|\n\| Physics \| Ms Tan \|/);
        expect(text.links.map((link) => link.url)).toContain('https://school.example/admissions');
    });

    it('reads CSV as a table and plain text as paragraphs; the format comes from the bytes when the type is generic', async () => {
        const csv = page(await convertDocument(Buffer.from('name,day\r\n"Chess, senior",Monday\r\n"The ""Robotics"" club",Friday\r\n'), { url: `${BASE}clubs.csv`, contentType: 'text/csv' }));
        expect(csv.markdown).toContain('| Chess, senior | Monday |');
        expect(csv.markdown).toContain('| The "Robotics" club | Friday |');
        const text = page(await convertDocument(Buffer.from('Term dates\n\nTerm 1 starts on 8 January.'), { url: `${BASE}dates.txt`, contentType: 'text/plain; charset=utf-8' }));
        expect(text.markdown).toBe('Term dates\n\nTerm 1 starts on 8 January.');
        const sniffed = await convertDocument(makePdf([['Sniffed from its bytes']]), { url: `${BASE}download?id=7`, contentType: 'application/octet-stream' });
        expect(sniffed).toMatchObject({ ok: true, kind: 'pdf' });
    });

    it('skips encrypted, corrupt, truncated, oversized and text-less files with their reasons, and never throws', async () => {
        const cases: [Buffer, string, string, string][] = [
            [makePdf([['Secret']], { encrypted: true }), 'secret.pdf', TYPES.pdf, 'document-encrypted'],
            [oleFile(), 'locked.docx', TYPES.docx, 'document-encrypted'],
            [Buffer.from('%PDF-1.4 this is not a PDF body'), 'broken.pdf', TYPES.pdf, 'document-corrupt'],
            [(await makeDocx([{ text: 'Cut short' }])).subarray(0, 60), 'short.docx', TYPES.docx, 'document-corrupt'],
            [Buffer.from('<html>not a spreadsheet</html>'), 'fake.xlsx', TYPES.xlsx, 'document-corrupt'],
            [makePdf([[]]), 'scan.pdf', TYPES.pdf, 'document-no-text'],
            [oleFile(), 'old.doc', 'application/msword', 'document-unsupported'],
        ];
        for (const [bytes, name, contentType, reason] of cases) {
            const result = await convertDocument(bytes, { url: `${BASE}${name}`, contentType });
            expect(result, name).toMatchObject({ ok: false, reason });
            if (!result.ok) expect(result.message.length, name).toBeGreaterThan(10);
        }
        const big = await convertDocument(Buffer.alloc(2048, 'a'), { url: `${BASE}big.txt`, contentType: 'text/plain' }, { maxBytes: 1024 });
        expect(big).toMatchObject({ ok: false, kind: 'text', reason: 'document-too-large' });
        expect(!big.ok && big.message).toMatch(/2048 bytes, more than 1024 \(option maxDocumentBytes\)/);
        const pages = Array.from({ length: 200 }, (_, i) => [`Page ${i} of a long report`]);
        const slow = await convertDocument(makePdf(pages), { url: `${BASE}report.pdf`, contentType: TYPES.pdf }, { timeoutMillis: 1 });
        expect(slow).toMatchObject({ ok: false, kind: 'pdf', reason: 'document-timeout' });
    });
});

describe('parseCsv', () => {
    it('follows RFC 4180: quotes, doubled quotes, commas and line breaks inside quotes, CRLF or LF', () => {
        expect(parseCsv('a,b\n"x, y","say ""hi"""\n"two\nlines",z')).toEqual([['a', 'b'], ['x, y', 'say "hi"'], ['two\nlines', 'z']]);
        expect(parseCsv('a,b\r\n1,2\r\n')).toEqual([['a', 'b'], ['1', '2']]);
        expect(parseCsv('')).toEqual([]);
    });
});
