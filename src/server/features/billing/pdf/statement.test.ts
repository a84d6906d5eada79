import { describe, expect, it } from 'vitest';
import { pdfFormat } from './format';
import { pdfFonts, pdfInfo, pdfText } from './poppler';
import { sampleStatement } from './samples';
import { renderStatementPdf, STATEMENT_ROW_LABELS } from './statement';

describe('a client statement as a PDF', () => {
  it('prints the heads, opening and closing balances, every row and the aging on one page', async () => {
    const model = sampleStatement(12);
    const f = pdfFormat(model);
    const pdf = await renderStatementPdf(model);
    const text = pdfText(pdf);
    const info = pdfInfo(pdf);
    expect(info.Title).toBe(
      'Statement of account: Kaveri Textiles Private Limited (KTPL-014), 1 Apr 2026 to 31 Mar 2027',
    );
    expect(info.Pages).toBe('1');
    expect(text).toContain('STATEMENT OF ACCOUNT');
    expect(text).toContain('Sharma & Associates');
    expect(text).toContain('Kaveri Textiles Private Limited');
    expect(text).toMatch(/From\s+1 Apr 2026/);
    expect(text).toMatch(/To\s+31 Mar 2027/);
    expect(text).toMatch(
      new RegExp(`Opening balance\\s+${f.money(model.openingBalanceMinor).replace(/[.$]/g, '\\$&')}`),
    );
    expect(text).toMatch(/Closing balance\s+₹/);
    expect(text).toContain(f.money(model.closingBalanceMinor));

    for (const row of model.rows) {
      const amount = f.money(row.debitMinor || row.creditMinor);
      const cells = [
        f.date(row.date),
        STATEMENT_ROW_LABELS[row.type],
        row.reference.split(' ')[0],
        amount,
        f.money(row.balanceMinor),
      ];
      const pattern = new RegExp(
        cells.map((c) => (c as string).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('\\s+.*'),
      );
      expect(
        text.split('\n').some((l) => pattern.test(l)),
        `${row.reference}: ${pattern}`,
      ).toBe(true);
    }
    const debits = model.rows.reduce((s, r) => s + r.debitMinor, 0);
    const credits = model.rows.reduce((s, r) => s + r.creditMinor, 0);
    expect(text).toMatch(
      new RegExp(
        `Totals for the period\\s+${f.money(debits).replace('.', '\\.')}\\s+${f.money(credits).replace('.', '\\.')}`,
      ),
    );
    expect(model.openingBalanceMinor + debits - credits).toBe(model.closingBalanceMinor);

    expect(text).toMatch(/Current\s+1-30 days\s+31-60 days\s+61-90 days\s+90\+ days\s+Total/);
    const { aging } = model;
    const buckets = [
      aging.currentMinor,
      aging.days1To30Minor,
      aging.days31To60Minor,
      aging.days61To90Minor,
      aging.over90Minor,
    ];
    expect(text).toMatch(new RegExp(buckets.map((b) => f.money(b).replace('.', '\\.')).join('\\s+')));
    expect(text).toContain('Page 1 of 1');
    for (const font of pdfFonts(pdf)) expect(font.embedded).toBe(true);
  });

  it('runs a long statement over pages, with the header and "Page n of m" on every one', async () => {
    const model = sampleStatement(300);
    const pdf = await renderStatementPdf(model);
    const text = pdfText(pdf);
    const pages = Number(pdfInfo(pdf).Pages);
    expect(pages).toBeGreaterThanOrEqual(9);
    const sheets = text.split('\f').filter((s) => s.trim());
    expect(sheets).toHaveLength(pages);
    sheets.forEach((sheet, i) => {
      expect(sheet, `page ${i + 1}`).toMatch(/Date\s+Type\s+Number \/ reference\s+Debit\s+Credit\s+Balance/);
      expect(sheet).toContain(`Page ${i + 1} of ${pages}`);
      if (i > 0) expect(sheet).toContain('(continued)');
    });
    expect(text).toContain('Page 2 of');
    // Every row is there once, in order.
    const references = model.rows.map((r) => r.reference.split(' ')[0] as string);
    let from = 0;
    for (const reference of references) {
      const at = text.indexOf(reference, from);
      expect(at, reference).toBeGreaterThan(-1);
      from = at;
    }
    expect(sheets.at(-1)).toContain('Closing balance');
    expect(sheets.at(-1)).toContain('90+ days');
  });

  it('writes another firm’s money in its own locale, negative balances included', async () => {
    const model = {
      ...sampleStatement(3),
      locale: 'en-GB',
      currency: 'GBP',
      openingBalanceMinor: -25_000,
      rows: [
        {
          date: '2026-09-01',
          type: 'payment' as const,
          reference: 'BACS 2231',
          debitMinor: 0,
          creditMinor: 10_000,
          balanceMinor: -35_000,
        },
      ],
      closingBalanceMinor: -35_000,
    };
    const text = pdfText(await renderStatementPdf(model));
    expect(text).toContain('1 Sep 2026');
    expect(text).toMatch(/Opening balance\s+-£250\.00/);
    expect(text).toMatch(/Closing balance\s+-£350\.00/);
    expect(text).not.toContain('₹');
  });
});
