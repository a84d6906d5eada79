import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { upiPayUri } from '../../../../domain/billing/upi';
import { invoiceUpiUri, renderInvoicePdf } from './invoice';
import { pdfImagePngs } from './poppler';
import { qrPng } from './qr';
import { sampleInvoice } from './samples';

/** What a phone's scanner reads from a PNG (poppler reads no QR codes; jsQR does). */
function scan(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  const rgba = image.data.length === image.width * image.height * 4 ? image.data : toRgba(image);
  return jsQR(new Uint8ClampedArray(rgba), image.width, image.height)?.data ?? null;
}

/** pdfimages writes the RGB image without its alpha: widen it to what jsQR reads. */
function toRgba(image: PNG): Buffer {
  const pixels = image.width * image.height;
  const channels = image.data.length / pixels;
  const out = Buffer.alloc(pixels * 4, 255);
  for (let i = 0; i < pixels; i++)
    for (let c = 0; c < 3; c++) out[i * 4 + c] = image.data[i * channels + (channels >= 3 ? c : 0)] as number;
  return out;
}

describe('the UPI QR code', () => {
  it('reads back as the UPI link it was made from', async () => {
    const uri = upiPayUri({
      vpa: 'sharmaassociates@hdfcbank',
      payeeName: 'Sharma & Associates LLP',
      amountMinor: 6_446_100,
      invoiceNumber: 'INV/2026-27/0042',
    });
    const png = await qrPng(uri);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(scan(png)).toBe(uri);
  });

  it('is the one the invoice PDF embeds, carrying the balance due and the invoice number', async () => {
    const model = sampleInvoice();
    const uri = invoiceUpiUri(model) as string;
    expect(uri).toBe(
      'upi://pay?pa=sharmaassociates@hdfcbank&pn=Sharma%20%26%20Associates%20LLP%2C%20Chartered%20Accountants&am=64461.00&cu=INR&tn=Invoice%20INV%2F2026-27%2F0042&tr=INV%2F2026-27%2F0042',
    );
    const images = pdfImagePngs(await renderInvoicePdf(model));
    const read = images.map(scan).filter(Boolean);
    expect(read).toEqual([uri]);
  });
});
