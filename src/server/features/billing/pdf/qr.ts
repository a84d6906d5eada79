import QRCode from 'qrcode';

/**
 * A QR code of a UPI link as PNG bytes. Error correction M (15%) keeps a printed, folded or
 * photographed code readable at a size that fits beside the bank details; the quiet zone of four
 * modules is the standard's, which phone scanners need to find the code. Five pixels a module is
 * about 200 dpi at the printed size, and PDF viewers draw it unsmoothed, so the edges stay sharp.
 */
export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 5 });
}
