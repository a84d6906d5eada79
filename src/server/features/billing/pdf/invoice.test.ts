import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { amountInWords } from '../../../../domain/billing/words';
import { pdfFormat } from './format';
import { invoiceUpiUri, renderInvoicePdf } from './invoice';
import type { TInvoicePdfModel } from './models';
import { pdfFonts, pdfImages, pdfInfo, pdfText, pdfWords } from './poppler';
import { sampleInvoice } from './samples';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function read(model: TInvoicePdfModel) {
  const pdf = await renderInvoicePdf(model);
  return { pdf, text: pdfText(pdf), info: pdfInfo(pdf) };
}

describe('a tax invoice as a PDF', () => {
  it('prints the number, both parties, every line in its columns, the taxes and the total', async () => {
    const model = sampleInvoice();
    const f = pdfFormat(model);
    const { pdf, text, info } = await read(model);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(info.Title).toBe('INV/2026-27/0042');
    expect(info.Pages).toBe('1');
    expect(info['Page size']).toMatch(/595\.\d+ x 841\.\d+ pts \(A4\)/);

    expect(text).toContain('TAX INVOICE');
    expect(text).toContain('INV/2026-27/0042');
    expect(text).toContain('5 Nov 2026');
    expect(text).toContain('20 Nov 2026');
    expect(text).toContain('Sharma & Associates');
    expect(text).toContain('GSTIN: 29ABCFS1234K1Z5');
    expect(text).toContain('Kaveri Textiles Private Limited');
    expect(text).toContain('Client code: KTPL-014');
    expect(text).toContain('GSTIN: 29AACCK4321M1Z2');
    expect(text).toContain('Karnataka (29)');

    // Each line on one text line: its description's first words, code, quantity, rate, tax, amount.
    model.lines.forEach((line, i) => {
      const start = line.description.split(' ').slice(0, 2).join(' ');
      const cells = [
        String(i + 1),
        start,
        line.taxCode ?? '',
        line.quantity,
        f.money(line.rateMinor),
        f.money(line.amountMinor),
      ];
      const pattern = new RegExp(cells.filter(Boolean).map(escapeRegExp).join('.*'));
      expect(
        text.split('\n').some((l) => pattern.test(l)),
        `line ${i + 1}: ${pattern}`,
      ).toBe(true);
    });
    expect(text).toMatch(/GST returns GSTR-1 and GSTR-3B,.*₹500\.00.*18%/);

    expect(text).toMatch(/Subtotal\s+₹71,668\.75/);
    expect(text).toMatch(/CGST 9%\s+₹6,396\.19/);
    expect(text).toMatch(/SGST 9%\s+₹6,396\.19/);
    expect(text).toMatch(/Round-off\s+-₹0\.13/);
    expect(text).toMatch(/Total\s+₹84,461\.00/);
    expect(f.money(model.totalMinor)).toBe('₹84,461.00');
    expect(text).toMatch(/Amount paid\s+₹20,000\.00/);
    expect(text).toMatch(/Balance due\s+₹64,461\.00/);
    expect(text.match(/₹/g)?.length).toBeGreaterThan(10);

    const words = amountInWords(model.totalMinor, 'INR', 'en-IN');
    expect(words).toBe('Rupees Eighty-Four Thousand Four Hundred Sixty-One Only');
    // The words wrap beside the totals: whole in the order drawn, and their start in the layout.
    expect(pdfWords(pdf)).toContain(`TOTAL IN WORDS ${words}`);
    expect(text).toContain('Rupees Eighty-Four Thousand');

    expect(text).toContain('HDFC Bank, MG Road branch, Bengaluru');
    expect(text).toContain('IFSC HDFC0000123');
    expect(text).toContain('Scan to pay with any UPI app');
    expect(text).toMatch(/Amount ₹64,461\.00/);
    expect(text).toContain('UPI ID: sharmaassociates@hdfcbank');
    expect(text).toContain('Payment due within 15 days');
    expect(text).toContain('Authorised signatory');
    expect(text).toContain('Page 1 of 1');
    expect(pdfWords(pdf)).not.toMatch(/DRAFT|VOID|undefined|NaN/);
  });

  it('embeds its font (Noto Sans, with ₹) and draws the UPI QR code only when there is something to pay in rupees', async () => {
    const pdf = await renderInvoicePdf(sampleInvoice());
    const fonts = pdfFonts(pdf);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(font.name).toMatch(/\+NotoSans-(Regular|Bold)$/);
      expect(font.embedded).toBe(true);
    }
    expect(pdfImages(pdf)).toHaveLength(1);

    const none: Partial<TInvoicePdfModel>[] = [
      { currency: 'USD', locale: 'en-US' },
      { amountPaidMinor: 8_446_100, balanceDueMinor: 0, status: 'paid' },
      { upiVpa: null },
      { upiVpa: 'not a upi id' },
      { number: null, status: 'draft' },
      { status: 'void', voidReason: 'Duplicate' },
      { kind: 'credit_note', number: 'CN/2026-27/0001', againstNumber: 'INV/2026-27/0042' },
    ];
    for (const overrides of none) {
      const model = sampleInvoice(overrides);
      expect(invoiceUpiUri(model), JSON.stringify(overrides)).toBeNull();
      const other = await renderInvoicePdf(model);
      expect(pdfImages(other), JSON.stringify(overrides)).toHaveLength(0);
      expect(pdfText(other)).not.toContain('Scan to pay');
    }
  });

  it('asks for the balance due, not the total, in the UPI link', () => {
    const uri = invoiceUpiUri(sampleInvoice()) as string;
    const params = new URL(uri).searchParams;
    expect(params.get('am')).toBe('64461.00');
    expect(params.get('tr')).toBe('INV/2026-27/0042');
    expect(params.get('pa')).toBe('sharmaassociates@hdfcbank');
    expect(params.get('pn')).toBe('Sharma & Associates LLP, Chartered Accountants');
    const named = new URL(invoiceUpiUri(sampleInvoice({ upiPayee: 'Sharma and Associates' })) as string);
    expect(named.searchParams.get('pn')).toBe('Sharma and Associates');
  });

  it('marks a draft, which has no number yet, with a DRAFT watermark', async () => {
    const { pdf, text, info } = await read(sampleInvoice({ number: null, status: 'draft' }));
    expect(info.Title).toBe('Draft Tax Invoice');
    // The watermark runs diagonally, which the layout mode leaves out: the order drawn has it.
    expect(pdfWords(pdf)).toMatch(/\bDRAFT\b/);
    expect(text).toMatch(/Invoice no\.\s+Draft/);
  });

  it('marks a void invoice VOID, with the reason, and keeps its number', async () => {
    const reason = 'Raised on the wrong client; reissued as INV/2026-27/0043';
    const { pdf, text, info } = await read(sampleInvoice({ status: 'void', voidReason: reason }));
    expect(info.Title).toBe('INV/2026-27/0042');
    expect(text).toContain('VOID');
    // Once beside the number, once across the page.
    expect(pdfWords(pdf).match(/\bVOID\b/g)).toHaveLength(2);
    expect(text.replace(/\s+/g, ' ')).toContain(`Reason: ${reason}`);
    expect(pdfWords(pdf)).not.toContain('DRAFT');
  });

  it('titles a credit note and names the invoice it is against', async () => {
    const { text, info } = await read(
      sampleInvoice({ kind: 'credit_note', number: 'CN/2026-27/0003', againstNumber: 'INV/2026-27/0042' }),
    );
    expect(info.Title).toBe('CN/2026-27/0003');
    expect(text).toContain('CREDIT NOTE');
    expect(text).toMatch(/Against invoice\s+INV\/2026-27\/0042/);
    expect(text).toContain('CREDIT IN WORDS');
    expect(text).not.toContain('Balance due');
  });

  it('writes a plain invoice in another currency and locale, in that locale’s words', async () => {
    const model = sampleInvoice({
      locale: 'en-US',
      currency: 'USD',
      taxInvoice: false,
      client: {
        name: 'Northwind Traders Inc.',
        code: 'NW-7',
        addressLines: ['1 Market St', 'San Francisco, CA 94105'],
        taxIds: [],
      },
      taxes: [{ label: 'Sales tax 8.5%', amountMinor: 609_183 }],
    });
    const { pdf, text } = await read(model);
    expect(text).toContain('INVOICE');
    expect(text).not.toContain('TAX INVOICE');
    expect(text).toContain('Nov 5, 2026');
    expect(text).toMatch(/Total\s+\$84,461\.00/);
    expect(text).toMatch(/Sales tax 8\.5%\s+\$6,091\.83/);
    expect(pdfWords(pdf)).toContain('Eighty-Four Thousand Four Hundred Sixty-One Dollars Only');
    expect(text).not.toContain('₹');
  });

  it('draws a PNG logo, and leaves out one it cannot read rather than fail', async () => {
    const png = new PNG({ width: 240, height: 80 });
    png.data.fill(0x40);
    const logo = { bytes: PNG.sync.write(png), contentType: 'image/png' as const };
    const withLogo = await renderInvoicePdf(sampleInvoice({ firm: { ...sampleInvoice().firm, logo } }));
    expect(pdfImages(withLogo).some((i) => i.width === 240 && i.height === 80)).toBe(true);

    for (const bad of [
      { bytes: Buffer.from('not an image'), contentType: 'image/png' as const },
      { bytes: Buffer.from('RIFF0000WEBPVP8 '), contentType: 'image/webp' as const },
    ]) {
      const pdf = await renderInvoicePdf(sampleInvoice({ firm: { ...sampleInvoice().firm, logo: bad } }));
      expect(pdfText(pdf)).toContain('INV/2026-27/0042');
    }
  });

  it('runs a long invoice onto more pages, the table header on each, and keeps huge amounts whole', async () => {
    const huge = 10 ** 15 - 1;
    const lines = Array.from({ length: 60 }, (_, i) => ({
      description: `Line ${i + 1}: return filing for the branch at unit ${i + 1}, with the reconciliation of its ledgers`,
      taxCode: '998231',
      quantity: '1',
      rateMinor: i === 0 ? huge : 100_000,
      discountMinor: 0,
      amountMinor: i === 0 ? huge : 100_000,
      taxRatePercent: 18,
    }));
    const model = sampleInvoice({ lines, totalMinor: huge, subtotalMinor: huge });
    const { pdf, text, info } = await read(model);
    const pages = Number(info.Pages);
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain(`Page 2 of ${pages}`);
    expect(
      text.match(/#\s+Description\s+SAC\/HSN\s+Qty\s+Rate\s+Tax\s+Amount/g)?.length,
    ).toBeGreaterThanOrEqual(2);
    expect(text).toContain('(continued)');
    expect(text).toContain('₹99,99,99,99,99,999.99');
    expect(text).toContain('Line 60:');
    expect(pdfWords(pdf)).toContain(amountInWords(huge, 'INR', 'en-IN'));
  });
});
