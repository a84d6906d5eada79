import PDFDocument from 'pdfkit';
import { loadFont } from './fonts';
import type { TPdfFirm, TPdfTaxId } from './models';

// The drawing pieces both documents share: an A4 page with fixed margins, the firm's head, tables
// whose header repeats on every page they run onto, watermarks and "Page n of m" footers. Positions
// are PDF points (1/72 in); amounts are always right-aligned so their digits line up.

export type TDoc = PDFKit.PDFDocument;

export const MARGIN = 40;
const FOOTER_HEIGHT = 26;
const REGULAR = 'regular';
const BOLD = 'bold';

export const COLOR = {
  text: '#111827',
  muted: '#4b5563',
  faint: '#9ca3af',
  rule: '#d1d5db',
  fill: '#f1f5f9',
  accent: '#1e3a5f',
  danger: '#b91c1c',
} as const;

export function createDocument(info: { title: string; author: string; subject: string }): TDoc {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_HEIGHT },
    // Kept in memory so that, at the end, every page can be stamped with "Page n of m".
    bufferPages: true,
    autoFirstPage: false,
    displayTitle: true,
    lang: 'en',
    info: { Title: info.title, Author: info.author, Subject: info.subject, Creator: info.author },
  });
  // pdfkit takes a parsed fontkit font as it takes a file (its types say only the file).
  doc.registerFont(REGULAR, loadFont('regular') as unknown as Buffer);
  doc.registerFont(BOLD, loadFont('bold') as unknown as Buffer);
  doc.addPage();
  doc.font(REGULAR).fillColor(COLOR.text);
  return doc;
}

/** The finished file's bytes. */
export function finish(doc: TDoc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

export const contentWidth = (doc: TDoc) => doc.page.width - 2 * MARGIN;
export const bottomLimit = (doc: TDoc) => doc.page.height - doc.page.margins.bottom;
export const rightEdge = (doc: TDoc) => doc.page.width - MARGIN;

export type TTextStyle = {
  size?: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'right' | 'center';
};

function style(doc: TDoc, s: TTextStyle) {
  return doc
    .font(s.bold ? BOLD : REGULAR)
    .fontSize(s.size ?? 9)
    .fillColor(s.color ?? COLOR.text);
}

/** Wrapped text in a box of `width`; returns the height it took. */
export function text(
  doc: TDoc,
  value: string,
  x: number,
  y: number,
  width: number,
  s: TTextStyle = {},
): number {
  if (!value) return 0;
  style(doc, s).text(value, x, y, { width, align: s.align ?? 'left', lineGap: 1 });
  return doc.y - y;
}

export function textHeight(doc: TDoc, value: string, width: number, s: TTextStyle = {}): number {
  if (!value) return 0;
  return style(doc, s).heightOfString(value, { width, lineGap: 1 });
}

/**
 * One line that must not wrap (an amount): the font shrinks until it fits, so a long figure stays
 * whole and aligned rather than breaking across lines.
 */
export function fitLine(
  doc: TDoc,
  value: string,
  x: number,
  y: number,
  width: number,
  s: TTextStyle = {},
): void {
  if (!value) return;
  let size = s.size ?? 9;
  style(doc, { ...s, size });
  let w = doc.widthOfString(value);
  while (size > 5 && w > width) {
    size -= 0.5;
    doc.fontSize(size);
    w = doc.widthOfString(value);
  }
  oneLine(doc, value, x, y + ((s.size ?? 9) - size) / 2, width, w, s.align ?? 'right');
}

/**
 * A line placed by hand, without pdfkit's line wrapper (given no width, pdfkit writes the text
 * as it is): most of a long statement's time went to wrapping cells that fit on one line.
 */
function oneLine(
  doc: TDoc,
  value: string,
  x: number,
  y: number,
  width: number,
  measured: number,
  align: TTextStyle['align'],
) {
  const left = align === 'right' ? x + width - measured : align === 'center' ? x + (width - measured) / 2 : x;
  doc.text(value, left, y, { lineBreak: false });
}

export function rule(
  doc: TDoc,
  y: number,
  color: string = COLOR.rule,
  width = 0.6,
  x1 = MARGIN,
  x2 = rightEdge(doc),
) {
  doc.save().moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor(color).stroke().restore();
}

/** Starts a new page when `height` more points do not fit on this one; returns the y to draw at. */
export function ensureSpace(doc: TDoc, y: number, height: number, onNewPage?: () => number): number {
  if (y + height <= bottomLimit(doc)) return y;
  doc.addPage();
  return onNewPage ? onNewPage() : doc.page.margins.top;
}

export const taxIdLine = (taxIds: TPdfTaxId[]) => taxIds.map((t) => `${t.kind}: ${t.value}`).join('    ');

type TImage = { width: number; height: number };

/** The logo, at most `maxWidth` × `maxHeight`; its drawn height, or 0 when there is none to draw. */
function drawLogo(
  doc: TDoc,
  logo: TPdfFirm['logo'],
  x: number,
  y: number,
  maxWidth: number,
  maxHeight: number,
) {
  if (!logo || (logo.contentType !== 'image/png' && logo.contentType !== 'image/jpeg')) return 0;
  try {
    // pdfkit types leave out openImage; it is how the drawn size is known before drawing.
    const image = (doc as unknown as { openImage(src: Buffer): TImage }).openImage(Buffer.from(logo.bytes));
    const scale = Math.min(maxWidth / image.width, maxHeight / image.height, 1);
    const height = image.height * scale;
    doc.image(image as unknown as Buffer, x, y, { width: image.width * scale, height });
    return height;
  } catch {
    // A logo pdfkit cannot read (a truncated upload) leaves the letterhead without it, not the
    // client without an invoice.
    return 0;
  }
}

/** The firm's letterhead: logo, name, legal name, address, tax ids and contacts; returns its bottom. */
export function firmHead(doc: TDoc, firm: TPdfFirm, x: number, y: number, width: number): number {
  let at = y;
  const logo = drawLogo(doc, firm.logo, x, at, 150, 52);
  if (logo) at += logo + 8;
  at += text(doc, firm.name, x, at, width, { size: 15, bold: true, color: COLOR.accent });
  if (firm.legalName && firm.legalName !== firm.name)
    at += text(doc, firm.legalName, x, at, width, { size: 9 });
  at += 2;
  for (const line of firm.addressLines) at += text(doc, line, x, at, width, { color: COLOR.muted });
  if (firm.taxIds.length) at += text(doc, taxIdLine(firm.taxIds), x, at + 2, width, { bold: true }) + 2;
  const contacts = [firm.email, firm.phone].filter(Boolean).join('    ');
  if (contacts) at += text(doc, contacts, x, at, width, { color: COLOR.muted });
  return at;
}

/** "Label ........ value" rows in a box, the value right-aligned; returns the bottom. */
export function keyValues(
  doc: TDoc,
  rows: [label: string, value: string, bold?: boolean][],
  x: number,
  y: number,
  width: number,
  size = 9,
): number {
  let at = y;
  const labelWidth = width * 0.45;
  for (const [label, value, bold] of rows) {
    const h = Math.max(
      textHeight(doc, label, labelWidth, { size }),
      textHeight(doc, value, width - labelWidth, { size, bold: true }),
    );
    text(doc, label, x, at, labelWidth, { size, color: COLOR.muted });
    text(doc, value, x + labelWidth, at, width - labelWidth, { size, bold: bold ?? true, align: 'right' });
    at += h + 2;
  }
  return at;
}

/** A small grey caption above a block: "BILL TO", "BANK DETAILS". */
export function caption(doc: TDoc, label: string, x: number, y: number, width: number): number {
  return text(doc, label.toUpperCase(), x, y, width, { size: 7.5, bold: true, color: COLOR.faint }) + 2;
}

export type TColumn = {
  label: string;
  width: number;
  align?: 'left' | 'right';
  /** One line that shrinks to fit rather than wraps: amounts. */
  fit?: boolean;
};

export type TRow = { cells: string[]; bold?: boolean; fill?: string };

const CELL_PAD_X = 4;
const CELL_PAD_Y = 3.5;

/**
 * How a cell is drawn: on one line when it fits (most cells, and every amount), wrapped otherwise.
 * Measuring once and drawing a single line without pdfkit's line wrapper halves the time of a long
 * statement.
 */
function cellPlan(doc: TDoc, value: string, width: number, s: TTextStyle, fit?: boolean) {
  style(doc, s);
  const lineHeight = doc.currentLineHeight(true) + 1;
  if (fit) return { height: lineHeight, wrap: false, measured: 0 };
  const measured = value.includes('\n') ? Number.POSITIVE_INFINITY : doc.widthOfString(value);
  if (measured <= width) return { height: lineHeight, wrap: false, measured };
  return { height: doc.heightOfString(value, { width, lineGap: 1 }), wrap: true, measured };
}

/**
 * A table from `y` down, with its header repeated on every page it runs onto. `onNewPage` draws
 * what a continued page carries above the table and returns where the table goes on.
 */
export function table(
  doc: TDoc,
  columns: TColumn[],
  rows: TRow[],
  y: number,
  options: { size?: number; onNewPage?: () => number } = {},
): number {
  const size = options.size ?? 8.5;
  const x0 = MARGIN;
  const totalWidth = columns.reduce((sum, c) => sum + c.width, 0);

  const header = (top: number): number => {
    const h = Math.max(
      ...columns.map((c) => textHeight(doc, c.label, c.width - 2 * CELL_PAD_X, { size, bold: true })),
    );
    const height = h + 2 * CELL_PAD_Y;
    doc.save().rect(x0, top, totalWidth, height).fill(COLOR.accent).restore();
    let x = x0;
    for (const c of columns) {
      text(doc, c.label, x + CELL_PAD_X, top + CELL_PAD_Y, c.width - 2 * CELL_PAD_X, {
        size,
        bold: true,
        color: '#ffffff',
        align: c.align,
      });
      x += c.width;
    }
    return top + height;
  };

  let at = header(y);
  for (const row of rows) {
    const plans = columns.map((c, i) =>
      cellPlan(doc, row.cells[i] ?? '', c.width - 2 * CELL_PAD_X, { size, bold: row.bold }, c.fit),
    );
    const height = Math.max(...plans.map((p) => p.height)) + 2 * CELL_PAD_Y;
    if (at + height > bottomLimit(doc)) {
      doc.addPage();
      at = header(options.onNewPage ? options.onNewPage() : doc.page.margins.top);
    }
    if (row.fill) doc.save().rect(x0, at, totalWidth, height).fill(row.fill).restore();
    let x = x0;
    columns.forEach((c, i) => {
      const value = row.cells[i] ?? '';
      const s: TTextStyle = { size, bold: row.bold, align: c.align };
      const width = c.width - 2 * CELL_PAD_X;
      const plan = plans[i] as ReturnType<typeof cellPlan>;
      if (c.fit) fitLine(doc, value, x + CELL_PAD_X, at + CELL_PAD_Y, width, s);
      else if (plan.wrap) text(doc, value, x + CELL_PAD_X, at + CELL_PAD_Y, width, s);
      else if (value) {
        style(doc, s);
        oneLine(doc, value, x + CELL_PAD_X, at + CELL_PAD_Y, width, plan.measured, c.align);
      }
      x += c.width;
    });
    at += height;
    rule(doc, at, COLOR.rule, 0.4, x0, x0 + totalWidth);
  }
  return at;
}

/** Runs `draw` on every page with the bottom margin lifted, so text there does not add a page. */
function onEveryPage(doc: TDoc, draw: (page: number, count: number) => void) {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    draw(i - start + 1, count);
    doc.page.margins.bottom = bottom;
  }
}

/** "DRAFT" or "VOID" across every page, faint enough to read the document through it. */
export function watermark(doc: TDoc, word: string, color: string) {
  onEveryPage(doc, () => {
    const { width, height } = doc.page;
    doc.save();
    doc.rotate(-35, { origin: [width / 2, height / 2] });
    style(doc, { size: 110, bold: true, color });
    doc.fillOpacity(0.13);
    const w = doc.widthOfString(word);
    doc.text(word, (width - w) / 2, height / 2 - 70, { lineBreak: false });
    doc.restore();
  });
}

/** The document's name on the left of each page's foot and "Page n of m" on the right. */
export function footers(doc: TDoc, left: string) {
  onEveryPage(doc, (page, count) => {
    const y = doc.page.height - MARGIN - 12;
    rule(doc, y - 6);
    const pageWidth = 90;
    const s: TTextStyle = { size: 7.5, color: COLOR.muted };
    fitLine(doc, left, MARGIN, y, contentWidth(doc) - pageWidth - 12, { ...s, align: 'left' });
    fitLine(doc, `Page ${page} of ${count}`, rightEdge(doc) - pageWidth, y, pageWidth, s);
  });
}
