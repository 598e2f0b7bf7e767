/** Real document files made by the tests: PDF written byte by byte, Office and OpenDocument files as ZIPs of XML, XLSX by exceljs. */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A PDF with one page per entry (lines of text), a title, optional link annotations, optionally encrypted (password needed). */
export function makePdf(pages: string[][], { title = '', links = [] as string[], encrypted = false } = {}): Buffer {
    const objects: (string | null)[] = [];
    const add = (body: string) => objects.push(body);
    const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
    const pagesId = add('');
    const kids: number[] = [];
    const literal = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
    for (const lines of pages) {
        const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((line) => `${literal(line)} Tj T*`).join(' ')} ET`;
        const content = add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
        const annots = links.map((url) => add(`<< /Type /Annot /Subtype /Link /Rect [72 700 300 720] /A << /S /URI /URI ${literal(url)} >> >>`));
        const annotList = annots.length > 0 ? ` /Annots [${annots.map((a) => `${a} 0 R`).join(' ')}]` : '';
        kids.push(add(`<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources << /Font << /F1 ${font} 0 R >> >>${annotList} >>`));
    }
    objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
    const catalog = add(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
    const info = add(`<< /Title ${literal(title)} >>`);
    // Standard security handler with owner and user keys that no empty password opens: a reader must ask for one.
    const encrypt = encrypted ? add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${'a'.repeat(64)}> /U <${'b'.repeat(64)}> >>`) : null;
    let out = '%PDF-1.4\n';
    const offsets: number[] = [];
    objects.forEach((body, i) => {
        offsets.push(out.length);
        out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    });
    const xref = out.length;
    out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
    const id = encrypted ? ` /Encrypt ${encrypt} 0 R /ID [<${'c'.repeat(32)}> <${'c'.repeat(32)}>]` : '';
    out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R${id} >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(out, 'latin1');
}

/** A block of a made-up Word document. */
export type DocxBlock = { heading: string } | { text: string } | { link: { text: string; url: string } } | { table: string[][] };

const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** A DOCX with headings (style Heading1, defined), paragraphs, hyperlinks and tables. */
export async function makeDocx(blocks: DocxBlock[]): Promise<Buffer> {
    const links: string[] = [];
    const run = (text: string) => `<w:r><w:t xml:space="preserve">${xml(text)}</w:t></w:r>`;
    const body = blocks
        .map((block) => {
            if ('heading' in block) return `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${run(block.heading)}</w:p>`;
            if ('text' in block) return `<w:p>${run(block.text)}</w:p>`;
            if ('link' in block) {
                links.push(block.link.url);
                return `<w:p><w:hyperlink r:id="rIdLink${links.length}">${run(block.link.text)}</w:hyperlink></w:p>`;
            }
            return `<w:tbl>${block.table.map((row) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
        })
        .join('');
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>');
    zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
    const relations = links.map((url, i) => `<Relationship Id="rIdLink${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${xml(url)}" TargetMode="External"/>`);
    zip.file('word/_rels/document.xml.rels', `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>${relations.join('')}</Relationships>`);
    zip.file('word/styles.xml', `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W_NS}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`);
    zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document ${W_NS}><w:body>${body}</w:body></w:document>`);
    return zip.generateAsync({ type: 'nodebuffer' });
}

/** An XLSX with one sheet per entry; a cell `{ text, hyperlink }` is a link. */
export async function makeXlsx(sheets: Record<string, (string | number | { text: string; hyperlink: string })[][]>): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    for (const [name, rows] of Object.entries(sheets)) {
        const sheet = workbook.addWorksheet(name);
        for (const row of rows) sheet.addRow(row);
    }
    return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A PPTX with one slide per entry: a title placeholder and body paragraphs, the first of which may be a link. */
export async function makePptx(slides: { title: string; lines: string[]; link?: { text: string; url: string } }[]): Promise<Buffer> {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>');
    zip.file('ppt/presentation.xml', '<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>');
    const ns = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    slides.forEach((slide, i) => {
        const paragraph = (text: string, link = false) => `<a:p><a:r>${link ? '<a:rPr><a:hlinkClick r:id="rIdL"/></a:rPr>' : ''}<a:t>${xml(text)}</a:t></a:r></a:p>`;
        const title = `<p:sp><p:nvSpPr><p:cNvPr id="1" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody>${paragraph(slide.title)}</p:txBody></p:sp>`;
        const body = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:txBody>${slide.link ? paragraph(slide.link.text, true) : ''}${slide.lines.map((line) => paragraph(line)).join('')}</p:txBody></p:sp>`;
        zip.file(`ppt/slides/slide${i + 1}.xml`, `<?xml version="1.0" encoding="UTF-8"?><p:sld ${ns}><p:cSld><p:spTree>${title}${body}</p:spTree></p:cSld></p:sld>`);
        if (slide.link) {
            zip.file(`ppt/slides/_rels/slide${i + 1}.xml.rels`, `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdL" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${xml(slide.link.url)}" TargetMode="External"/></Relationships>`);
        }
    });
    return zip.generateAsync({ type: 'nodebuffer' });
}

/** An ODT with a title, a heading, paragraphs, a link and a table. */
export async function makeOdt({ title, heading, paragraphs, link, table }: { title: string; heading: string; paragraphs: string[]; link: { text: string; url: string }; table: string[][] }): Promise<Buffer> {
    const zip = new JSZip();
    zip.file('mimetype', 'application/vnd.oasis.opendocument.text', { compression: 'STORE' });
    const ns = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"';
    const cells = (row: string[]) => `<table:table-row>${row.map((cell) => `<table:table-cell><text:p>${xml(cell)}</text:p></table:table-cell>`).join('')}</table:table-row>`;
    const body = `<text:h text:outline-level="1">${xml(heading)}</text:h>${paragraphs.map((p) => `<text:p>${xml(p)}</text:p>`).join('')}<text:p><text:a xlink:href="${xml(link.url)}">${xml(link.text)}</text:a></text:p><table:table table:name="T1">${table.map(cells).join('')}</table:table>`;
    zip.file('content.xml', `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns}><office:body><office:text>${body}</office:text></office:body></office:document-content>`);
    zip.file('meta.xml', `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${ns}><office:meta><dc:title>${xml(title)}</dc:title></office:meta></office:document-meta>`);
    return zip.generateAsync({ type: 'nodebuffer' });
}

/** The start of an OLE compound file: what an encrypted DOCX/XLSX/PPTX (or a legacy .doc) begins with. */
export function oleFile(): Buffer {
    return Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
}
