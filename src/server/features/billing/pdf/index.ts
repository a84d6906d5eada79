// The billing documents as PDFs: what the invoice, mail and portal features call.

export { fontFile } from './fonts';
export { invoiceUpiUri, renderInvoicePdf } from './invoice';
export type * from './models';
export { STATEMENT_ROW_TYPES } from './models';
export { qrPng } from './qr';
export { renderStatementPdf } from './statement';
