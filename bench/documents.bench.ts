// Document benchmark (part of `npm run bench`): time to convert each document format to a page (Markdown, text,
// links), per MiB of file, at two sizes. The files are made the way the tests make them (test/helpers/documents.ts):
// text-heavy, with a table every few paragraphs where the format has tables.
import { convertDocument } from '../src/extract/documents/index.js';
import { makeDocx, makeOdt, makePdf, makePptx, makeXlsx } from '../test/helpers/documents.js';
import { collectGarbage, median, Stopwatch } from './measure.js';

const MiB = 1024 * 1024;
const SIZES_MIB = [0.5, 2];
const ROUNDS = 3;
const sentence = (i: number) => `Paragraph ${i} of the prospectus: admissions, scholarships and financial assistance for year ${2000 + (i % 25)}.`;

/** A file of each format of about `bytes` bytes, and its content type. */
const FORMATS: Record<string, { type: string; make: (bytes: number) => Promise<Buffer> }> = {
    pdf: {
        type: 'application/pdf',
        make: async (bytes) => makePdf(Array.from({ length: Math.ceil(bytes / 2500) }, (_, p) => Array.from({ length: 25 }, (_, l) => sentence(p * 25 + l).slice(0, 90)))),
    },
    docx: {
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        // DOCX is deflated XML: about 12 bytes of file per paragraph-byte of text would overshoot; grow until big enough.
        make: (bytes) => grow(bytes, (n) => makeDocx(Array.from({ length: n }, (_, i) => (i % 10 === 9 ? { table: [['Fee', 'Amount'], [`Item ${i}`, String(i)]] } : { text: sentence(i) })))),
    },
    xlsx: {
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        make: (bytes) => grow(bytes, (n) => makeXlsx({ Rows: [['Name', 'Value', 'Note'], ...Array.from({ length: n }, (_, i) => [`Row ${i}`, i, sentence(i)])] })),
    },
    pptx: {
        type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        make: (bytes) => grow(bytes, (n) => makePptx(Array.from({ length: Math.ceil(n / 5) }, (_, i) => ({ title: `Slide ${i}`, lines: Array.from({ length: 5 }, (_, l) => sentence(i * 5 + l)) })))),
    },
    odt: {
        type: 'application/vnd.oasis.opendocument.text',
        make: (bytes) =>
            grow(bytes, (n) =>
                makeOdt({ title: 'Prospectus', heading: 'Prospectus', paragraphs: Array.from({ length: n }, (_, i) => sentence(i)), link: { text: 'Apply', url: 'https://e.org/apply' }, table: [['a', 'b']] }),
            ),
    },
    csv: { type: 'text/csv', make: async (bytes) => Buffer.from(Array.from({ length: Math.ceil(bytes / 110) }, (_, i) => `${i},"${sentence(i)}"`).join('\n')) },
    text: { type: 'text/plain', make: async (bytes) => Buffer.from(Array.from({ length: Math.ceil(bytes / 110) }, (_, i) => sentence(i)).join('\n\n')) },
};

/** The smallest file `make(n)` of at least `bytes` bytes, doubling n (compressed formats have no fixed bytes per item). */
async function grow(bytes: number, make: (n: number) => Promise<Buffer>): Promise<Buffer> {
    let n = 256;
    for (let file = await make(n); ; file = await make(n)) {
        if (file.length >= bytes) return file;
        n = Math.ceil(n * Math.min(4, (bytes / file.length) * 1.1));
    }
}

async function convertMillis(bytes: Buffer, type: string): Promise<{ cpu: number; wall: number }> {
    collectGarbage();
    const stopwatch = new Stopwatch();
    const result = await convertDocument(bytes, { url: 'https://bench.example/file', contentType: type }, { maxBytes: 64 * MiB, timeoutMillis: 600_000 });
    const { cpuSeconds, wallSeconds } = stopwatch.stop();
    if (!result.ok) throw new Error(`conversion failed (${result.reason}: ${result.message}); the benchmark measured nothing.`);
    return { cpu: cpuSeconds * 1000, wall: wallSeconds * 1000 };
}

console.log(`\nconvertDocument: ms per MiB of file (wall / CPU), median of ${ROUNDS} rounds`);
console.log(`${'format'.padEnd(8)}${SIZES_MIB.map((size) => `~${size} MiB`.padStart(22)).join('')}`);
for (const [name, { type, make }] of Object.entries(FORMATS)) {
    const cells: string[] = [];
    for (const size of SIZES_MIB) {
        const file = await make(size * MiB);
        await convertMillis(file, type); // warm-up
        const runs = [];
        for (let round = 0; round < ROUNDS; round++) runs.push(await convertMillis(file, type));
        const mib = file.length / MiB;
        cells.push(`${(median(runs.map((r) => r.wall)) / mib).toFixed(0)} / ${(median(runs.map((r) => r.cpu)) / mib).toFixed(0)} (${mib.toFixed(1)} MiB)`.padStart(22));
    }
    console.log(`${name.padEnd(8)}${cells.join('')}`);
}
