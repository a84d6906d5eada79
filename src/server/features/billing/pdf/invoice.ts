import { upiPayUri } from '../../../../domain/billing/upi';
import { amountInWords } from '../../../../domain/billing/words';
import { pdfFormat, type TPdfFormat } from './format';
import {
  COLOR,
  caption,
  contentWidth,
  createDocument,
  ensureSpace,
  finish,
  firmHead,
  footers,
  keyValues,
  MARGIN,
  rightEdge,
  rule,
  type TColumn,
  type TDoc,
  table,
  taxIdLine,
  text,
  textHeight,
  watermark,
} from './layout';
import type { TInvoicePdfModel } from './models';
import { qrPng } from './qr';

const QR_SIZE = 92;

export function invoiceTitle(model: TInvoicePdfModel): string {
  if (model.kind === 'credit_note') return 'Credit Note';
  return model.taxInvoice ? 'Tax Invoice' : 'Invoice';
}

/** What the PDF's metadata calls it: its number, or "Draft Tax Invoice" before it has one. */
function documentName(model: TInvoicePdfModel): string {
  return model.number ?? `Draft ${invoiceTitle(model)}`;
}

/** The UPI link a client scans, when one is to be printed: an INR invoice with something to pay. */
export function invoiceUpiUri(model: TInvoicePdfModel): string | null {
  if (model.kind !== 'invoice' || !model.upiVpa || model.currency.toUpperCase() !== 'INR') return null;
  if (model.balanceDueMinor <= 0 || model.status === 'void' || model.status === 'draft' || !model.number)
    return null;
  try {
    return upiPayUri({
      vpa: model.upiVpa,
      payeeName: model.upiPayee || model.firm.legalName || model.firm.name,
      amountMinor: model.balanceDueMinor,
      invoiceNumber: model.number,
    });
  } catch {
    // The settings form refuses a malformed UPI ID; one saved before that rule costs the client
    // the QR code, not the invoice.
    return null;
  }
}

function heads(doc: TDoc, model: TInvoicePdfModel, f: TPdfFormat): number {
  const width = contentWidth(doc);
  const rightWidth = 210;
  const leftWidth = width - rightWidth - 24;
  const firmBottom = firmHead(doc, model.firm, MARGIN, MARGIN, leftWidth);

  const x = rightEdge(doc) - rightWidth;
  let at = MARGIN;
  at += text(doc, invoiceTitle(model).toUpperCase(), x, at, rightWidth, {
    size: 18,
    bold: true,
    align: 'right',
    color: COLOR.accent,
  });
  at += 6;
  const noun = model.kind === 'credit_note' ? 'Credit note' : 'Invoice';
  const rows: [string, string][] = [[`${noun} no.`, model.number ?? 'Draft']];
  rows.push([model.kind === 'credit_note' ? 'Date' : 'Invoice date', f.date(model.issueDate)]);
  if (model.kind === 'credit_note' && model.againstNumber)
    rows.push(['Against invoice', model.againstNumber]);
  if (model.kind === 'invoice') rows.push(['Due date', f.date(model.dueDate)]);
  at = keyValues(doc, rows, x, at, rightWidth);
  if (model.status === 'void') {
    at += 4;
    at += text(doc, 'VOID', x, at, rightWidth, { size: 11, bold: true, color: COLOR.danger, align: 'right' });
    if (model.voidReason)
      at += text(doc, `Reason: ${model.voidReason}`, x, at, rightWidth, {
        color: COLOR.danger,
        align: 'right',
      });
  }

  let y = Math.max(firmBottom, at) + 12;
  rule(doc, y, COLOR.accent, 1);
  y += 10;

  // Bill to on the left; the place of supply, which decides CGST + SGST or IGST, on the right.
  const { client } = model;
  let left = y + caption(doc, 'Bill to', MARGIN, y, leftWidth);
  left += text(doc, client.name, MARGIN, left, leftWidth, { size: 11, bold: true });
  if (client.code)
    left += text(doc, `Client code: ${client.code}`, MARGIN, left, leftWidth, { color: COLOR.muted });
  for (const line of client.addressLines)
    left += text(doc, line, MARGIN, left, leftWidth, { color: COLOR.muted });
  if (client.taxIds.length)
    left += text(doc, taxIdLine(client.taxIds), MARGIN, left + 2, leftWidth, { bold: true }) + 2;
  let right = y;
  if (client.placeOfSupply) {
    right += caption(doc, 'Place of supply', x, right, rightWidth);
    right += text(doc, client.placeOfSupply, x, right, rightWidth, { size: 10, bold: true });
  }
  return Math.max(left, right) + 14;
}

function lineColumns(
  doc: TDoc,
  model: TInvoicePdfModel,
): { columns: TColumn[]; cells: (i: number) => string[] } {
  const f = pdfFormat(model);
  const hasCode = model.lines.some((l) => l.taxCode);
  const hasDiscount = model.lines.some((l) => l.discountMinor !== 0);
  const hasRate = model.lines.some((l) => l.taxRatePercent !== null && l.taxRatePercent !== undefined);
  type TCol = TColumn & { cell: (i: number) => string; show: boolean };
  const line = (i: number) => model.lines[i] as TInvoicePdfModel['lines'][number];
  const all: TCol[] = [
    { label: '#', width: 18, align: 'right', cell: (i) => String(i + 1), show: true },
    { label: 'Description', width: 0, cell: (i) => line(i).description, show: true },
    { label: 'SAC/HSN', width: 48, cell: (i) => line(i).taxCode ?? '', show: hasCode },
    { label: 'Qty', width: 42, align: 'right', cell: (i) => line(i).quantity, show: true },
    {
      label: 'Rate',
      width: 68,
      align: 'right',
      fit: true,
      cell: (i) => f.money(line(i).rateMinor),
      show: true,
    },
    {
      label: 'Discount',
      width: 60,
      align: 'right',
      fit: true,
      cell: (i) => (line(i).discountMinor ? f.money(line(i).discountMinor) : '-'),
      show: hasDiscount,
    },
    {
      label: 'Tax',
      width: 34,
      align: 'right',
      cell: (i) => f.percent(line(i).taxRatePercent),
      show: hasRate,
    },
    {
      label: 'Amount',
      width: 78,
      align: 'right',
      fit: true,
      cell: (i) => f.money(line(i).amountMinor),
      show: true,
    },
  ];
  const shown = all.filter((c) => c.show);
  const description = shown[1] as TCol;
  description.width = contentWidth(doc) - shown.reduce((sum, c) => sum + c.width, 0);
  return { columns: shown, cells: (i) => shown.map((c) => c.cell(i)) };
}

/** Subtotal, taxes, round-off and total on the right; the total in words on the left. */
function totals(doc: TDoc, model: TInvoicePdfModel, f: TPdfFormat, y: number): number {
  const rows: [string, string, boolean?][] = [['Subtotal', f.money(model.subtotalMinor), false]];
  for (const tax of model.taxes) rows.push([tax.label, f.money(tax.amountMinor), false]);
  if (model.roundOffMinor) rows.push(['Round-off', f.money(model.roundOffMinor), false]);
  const paid: [string, string, boolean?][] =
    model.kind === 'invoice'
      ? [
          ['Amount paid', f.money(model.amountPaidMinor), false],
          ['Balance due', f.money(model.balanceDueMinor), true],
        ]
      : [];
  const words = `${amountInWords(model.totalMinor, model.currency, model.locale)}`;
  const boxWidth = 230;
  const leftWidth = contentWidth(doc) - boxWidth - 24;
  const x = rightEdge(doc) - boxWidth;
  const wordsHeight = textHeight(doc, words, leftWidth, { bold: true }) + 14;
  const height = Math.max((rows.length + paid.length + 1) * 15 + 16, wordsHeight);

  let at = ensureSpace(doc, y + 6, height);
  const top = at;
  at = keyValues(doc, rows, x, at, boxWidth);
  rule(doc, at, COLOR.accent, 0.8, x, rightEdge(doc));
  at = keyValues(doc, [['Total', f.money(model.totalMinor), true]], x, at + 4, boxWidth, 11);
  if (paid.length) {
    rule(doc, at, COLOR.rule, 0.5, x, rightEdge(doc));
    at = keyValues(doc, paid, x, at + 4, boxWidth);
  }

  let left =
    top +
    caption(doc, model.kind === 'credit_note' ? 'Credit in words' : 'Total in words', MARGIN, top, leftWidth);
  left += text(doc, words, MARGIN, left, leftWidth, { bold: true });
  return Math.max(at, left) + 12;
}

/** Bank details on the left and, for an INR invoice with a balance, the UPI QR code on the right. */
async function payment(doc: TDoc, model: TInvoicePdfModel, y: number): Promise<number> {
  const upi = invoiceUpiUri(model);
  const bank = model.bankDetails?.trim() ?? '';
  if (!bank && !upi) return y;
  const width = contentWidth(doc);
  const bankWidth = upi ? width - QR_SIZE - 190 : width;
  const bankHeight = bank ? textHeight(doc, bank, bankWidth) + 12 : 0;
  let at = ensureSpace(doc, y, Math.max(bankHeight, upi ? QR_SIZE : 0) + 16);
  rule(doc, at);
  at += 8;
  const top = at;
  if (bank) {
    at += caption(doc, 'Bank details', MARGIN, at, bankWidth);
    at += text(doc, bank, MARGIN, at, bankWidth);
  }
  if (upi) {
    const png = await qrPng(upi);
    const qrX = rightEdge(doc) - QR_SIZE;
    doc.image(png, qrX, top, { width: QR_SIZE, height: QR_SIZE });
    const labelWidth = 176;
    const labelX = qrX - labelWidth - 6;
    let label = top + 20;
    label += text(doc, 'Scan to pay with any UPI app', labelX, label, labelWidth, {
      size: 9.5,
      bold: true,
      align: 'right',
    });
    // What the code asks for, so the client sees it before the app does.
    label += text(
      doc,
      `Amount ${pdfFormat(model).money(model.balanceDueMinor)}`,
      labelX,
      label + 2,
      labelWidth,
      {
        size: 8.5,
        align: 'right',
      },
    );
    text(doc, `UPI ID: ${model.upiVpa}`, labelX, label + 2, labelWidth, {
      size: 8,
      color: COLOR.muted,
      align: 'right',
    });
    at = Math.max(at, top + QR_SIZE);
  }
  return at + 8;
}

/** Terms and notes on the left, the firm's signature block on the right, kept together. */
function closing(doc: TDoc, model: TInvoicePdfModel, y: number) {
  const width = contentWidth(doc);
  const signWidth = 190;
  const leftWidth = width - signWidth - 24;
  const blocks = (
    [
      ['Terms', model.terms?.trim()],
      ['Notes', model.notes?.trim()],
    ] as const
  ).filter((b): b is readonly ['Terms' | 'Notes', string] => !!b[1]);
  const textStyle = { size: 8.5, color: COLOR.muted };
  const leftHeight = blocks.reduce(
    (sum, [, body]) => sum + textHeight(doc, body, leftWidth, textStyle) + 18,
    0,
  );
  let at = ensureSpace(doc, y, Math.max(leftHeight, 56) + 10);
  rule(doc, at);
  at += 8;
  const top = at;
  for (const [label, body] of blocks) {
    at += caption(doc, label, MARGIN, at, leftWidth);
    at += text(doc, body, MARGIN, at, leftWidth, textStyle) + 8;
  }
  const x = rightEdge(doc) - signWidth;
  const sign =
    top +
    text(doc, `For ${model.firm.legalName || model.firm.name}`, x, top, signWidth, {
      bold: true,
      align: 'right',
    });
  text(doc, 'Authorised signatory', x, sign + 30, signWidth, { size: 8, color: COLOR.muted, align: 'right' });
}

/** The invoice or credit note as a PDF: the client's copy, attached to the mail and in the portal. */
export async function renderInvoicePdf(model: TInvoicePdfModel): Promise<Buffer> {
  const f = pdfFormat(model);
  const name = documentName(model);
  const doc = createDocument({
    title: name,
    author: model.firm.legalName || model.firm.name,
    subject: `${invoiceTitle(model)} for ${model.client.name}`,
  });
  let y = heads(doc, model, f);
  const { columns, cells } = lineColumns(doc, model);
  y = table(
    doc,
    columns,
    model.lines.map((_, i) => ({ cells: cells(i) })),
    y,
    {
      onNewPage: () =>
        MARGIN +
        text(doc, `${invoiceTitle(model)} ${name} (continued)`, MARGIN, MARGIN, contentWidth(doc), {
          color: COLOR.muted,
        }) +
        8,
    },
  );
  y = totals(doc, model, f, y);
  y = await payment(doc, model, y);
  closing(doc, model, y);

  if (model.status === 'void') watermark(doc, 'VOID', COLOR.danger);
  else if (!model.number || model.status === 'draft') watermark(doc, 'DRAFT', COLOR.muted);
  footers(doc, `${invoiceTitle(model)} ${model.number ?? '(draft)'} · ${model.firm.name}`);
  return finish(doc);
}
