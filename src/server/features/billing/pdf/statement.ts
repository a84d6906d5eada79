import { AGING_BUCKET_LABELS, AGING_BUCKETS } from '../../../../domain/billing/constants';
import { pdfFormat } from './format';
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
  type TRow,
  table,
  taxIdLine,
  text,
} from './layout';
import { STATEMENT_AGING_FIELDS, type TStatementPdfModel, type TStatementRowType } from './models';

export const STATEMENT_ROW_LABELS: Record<TStatementRowType, string> = {
  invoice: 'Invoice',
  payment: 'Payment',
  credit_note: 'Credit note',
  refund: 'Refund',
  tds: 'TDS',
};

/** A client's statement of account for a period, as a PDF: pages of rows, each under the header. */
export async function renderStatementPdf(model: TStatementPdfModel): Promise<Buffer> {
  const f = pdfFormat(model);
  const period = `${f.date(model.from)} to ${f.date(model.to)}`;
  const doc = createDocument({
    title: `Statement of account: ${model.client.name}${model.client.code ? ` (${model.client.code})` : ''}, ${period}`,
    author: model.firm.legalName || model.firm.name,
    subject: `Statement of account for ${model.client.name}`,
  });
  const width = contentWidth(doc);
  const rightWidth = 210;
  const leftWidth = width - rightWidth - 24;
  const x = rightEdge(doc) - rightWidth;

  const firmBottom = firmHead(doc, model.firm, MARGIN, MARGIN, leftWidth);
  let right = MARGIN;
  right += text(doc, 'STATEMENT OF ACCOUNT', x, right, rightWidth, {
    size: 15,
    bold: true,
    align: 'right',
    color: COLOR.accent,
  });
  right = keyValues(
    doc,
    [
      ['From', f.date(model.from)],
      ['To', f.date(model.to)],
    ],
    x,
    right + 6,
    rightWidth,
  );
  let y = Math.max(firmBottom, right) + 12;
  rule(doc, y, COLOR.accent, 1);
  y += 10;

  const { client } = model;
  let left = y + caption(doc, 'Statement for', MARGIN, y, leftWidth);
  left += text(doc, client.name, MARGIN, left, leftWidth, { size: 11, bold: true });
  if (client.code)
    left += text(doc, `Client code: ${client.code}`, MARGIN, left, leftWidth, { color: COLOR.muted });
  for (const line of client.addressLines)
    left += text(doc, line, MARGIN, left, leftWidth, { color: COLOR.muted });
  if (client.taxIds.length)
    left += text(doc, taxIdLine(client.taxIds), MARGIN, left + 2, leftWidth, { bold: true }) + 2;

  const debits = model.rows.reduce((sum, r) => sum + r.debitMinor, 0);
  const credits = model.rows.reduce((sum, r) => sum + r.creditMinor, 0);
  let summary = y + caption(doc, 'Summary', x, y, rightWidth);
  summary = keyValues(
    doc,
    [
      ['Opening balance', f.money(model.openingBalanceMinor), false],
      ['Invoiced and charged', f.money(debits), false],
      ['Paid and credited', f.money(credits), false],
    ],
    x,
    summary,
    rightWidth,
  );
  rule(doc, summary, COLOR.accent, 0.8, x, rightEdge(doc));
  summary = keyValues(
    doc,
    [['Balance due', f.money(model.closingBalanceMinor), true]],
    x,
    summary + 4,
    rightWidth,
    10.5,
  );
  y = Math.max(left, summary) + 14;

  const columns: TColumn[] = [
    { label: 'Date', width: 64 },
    { label: 'Type', width: 60 },
    { label: 'Number / reference', width: 0 },
    { label: 'Debit', width: 80, align: 'right', fit: true },
    { label: 'Credit', width: 80, align: 'right', fit: true },
    { label: 'Balance', width: 86, align: 'right', fit: true },
  ];
  (columns[2] as TColumn).width = width - columns.reduce((sum, c) => sum + c.width, 0);
  const amount = (minor: number) => (minor ? f.money(minor) : '');
  const rows: TRow[] = [
    {
      cells: [f.date(model.from), '', 'Opening balance', '', '', f.money(model.openingBalanceMinor)],
      bold: true,
      fill: COLOR.fill,
    },
    ...model.rows.map((r) => ({
      cells: [
        f.date(r.date),
        STATEMENT_ROW_LABELS[r.type],
        r.reference,
        amount(r.debitMinor),
        amount(r.creditMinor),
        f.money(r.balanceMinor),
      ],
    })),
    { cells: ['', '', 'Totals for the period', f.money(debits), f.money(credits), ''], bold: true },
    {
      cells: [f.date(model.to), '', 'Closing balance', '', '', f.money(model.closingBalanceMinor)],
      bold: true,
      fill: COLOR.fill,
    },
  ];
  const continued = `Statement of account · ${client.name} · ${period} (continued)`;
  y = table(doc, columns, rows, y, {
    onNewPage: () => MARGIN + text(doc, continued, MARGIN, MARGIN, width, { color: COLOR.muted }) + 8,
  });

  // Aging: what is still owed, by how long past its due date, on the statement's last day.
  const { aging } = model;
  const buckets = AGING_BUCKETS.map(
    (bucket) => [AGING_BUCKET_LABELS[bucket], aging[STATEMENT_AGING_FIELDS[bucket]]] as [string, number],
  );
  const outstanding = buckets.reduce((sum, [, v]) => sum + v, 0);
  y = ensureSpace(doc, y + 16, 64, () => MARGIN);
  y += caption(doc, `Outstanding by age on ${f.date(model.to)}`, MARGIN, y, width);
  const bucketWidth = width / (buckets.length + 1);
  table(
    doc,
    [...buckets, ['Total', outstanding] as [string, number]].map(([label]) => ({
      label,
      width: bucketWidth,
      align: 'right' as const,
      fit: true,
    })),
    [{ cells: [...buckets.map(([, v]) => f.money(v)), f.money(outstanding)], bold: true }],
    y,
  );

  footers(doc, `Statement of account · ${client.name}${client.code ? ` (${client.code})` : ''} · ${period}`);
  return finish(doc);
}
