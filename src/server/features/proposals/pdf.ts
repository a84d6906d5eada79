import { convert } from 'html-to-text';
import PDFDocument from 'pdfkit';
import { fontFile } from '../billing';
import type { TRenderedProposal } from './render';

// The signed document as a PDF: the letter, the chosen services and fees, the terms, each
// signature, and a certificate page with the audit trail and the agreement's SHA-256. Made on the
// server from the proposal's own copy, the same rendering the signer reviewed.

export type TSealedModel = {
  firmName: string;
  clientName: string;
  title: string;
  rendered: TRenderedProposal;
  chosenPackage: number;
  chosenAddOns: number[];
  signers: {
    name: string;
    email: string;
    signedAt: Date;
    kind: 'typed' | 'drawn';
    signature: string;
    consentText: string;
  }[];
  events: {
    at: Date;
    kind: string;
    who: string;
    detail: string;
    ip: string | null;
    userAgent: string | null;
  }[];
  contentSha256: string;
  certificateSubject: string;
};

const MARGIN = 50;

export function renderSealedPdf(m: TSealedModel): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN },
    autoFirstPage: true,
    info: {
      Title: m.title,
      Author: m.firmName,
      Subject: `Signed agreement with ${m.clientName}`,
      Creator: m.firmName,
    },
  });
  doc.registerFont('regular', fontFile('regular'));
  doc.registerFont('bold', fontFile('bold'));
  const heading = (text: string, size = 13) =>
    doc.moveDown(0.6).font('bold').fontSize(size).text(text).font('regular').fontSize(10);
  const body = (text: string) => doc.font('regular').fontSize(10).text(text, { lineGap: 2 });

  doc.font('bold').fontSize(18).text(m.title);
  doc
    .font('regular')
    .fontSize(10)
    .fillColor('#4b5563')
    .text(`${m.firmName} · ${m.clientName}`)
    .fillColor('#111827');
  heading('Letter');
  body(
    convert(m.rendered.letterHtml, {
      wordwrap: false,
      selectors: [{ selector: 'a', options: { hideLinkHrefIfSameAsText: true } }],
    }),
  );

  const pkg = m.rendered.packages[m.chosenPackage];
  heading('Services and fees agreed');
  if (pkg) {
    doc.font('bold').text(`Package: ${pkg.name}`).font('regular');
    for (const s of pkg.services)
      body(`• ${s.name}: ${s.feeText}${s.description ? ` — ${s.description}` : ''}`);
  }
  const addOns = m.chosenAddOns.flatMap((i) => (m.rendered.addOns[i] ? [m.rendered.addOns[i]] : []));
  if (addOns.length) {
    doc.font('bold').text('Add-ons').font('regular');
    for (const s of addOns) body(`• ${s.name}: ${s.feeText}${s.description ? ` — ${s.description}` : ''}`);
  }
  if (m.rendered.terms.trim()) {
    heading('Terms');
    body(m.rendered.terms);
  }
  heading('Signatures');
  for (const s of m.signers) {
    doc.moveDown(0.4);
    if (s.kind === 'drawn') {
      try {
        const png = Buffer.from(s.signature.replace(/^data:image\/png;base64,/, ''), 'base64');
        doc.image(png, { fit: [200, 60] });
      } catch {
        body('[drawn signature]');
      }
    } else {
      doc.font('bold').fontSize(16).text(s.signature).fontSize(10).font('regular');
    }
    body(`${s.name} <${s.email}>, signed ${s.signedAt.toISOString()}`);
  }

  doc.addPage();
  doc.font('bold').fontSize(16).text('Certificate of signature');
  doc.font('regular').fontSize(10).moveDown(0.5);
  body(`Document: ${m.title}`);
  body(`Between ${m.firmName} and ${m.clientName}`);
  body(`SHA-256 of the agreement as signed (letter, services, fees, terms, signatures):`);
  doc.font('bold').fontSize(9).text(m.contentSha256).font('regular').fontSize(10);
  body(
    `Sealed by ${m.firmName} with the certificate “${m.certificateSubject}” (PAdES digital signature): any change to this file breaks the signature.`,
  );
  for (const s of m.signers) body(`Electronic-signature consent by ${s.name}: “${s.consentText}”`);
  heading('Audit trail', 12);
  for (const e of m.events) {
    body(
      `${e.at.toISOString()}  ${e.kind.toUpperCase()}  ${e.who}${e.detail ? ` — ${e.detail}` : ''}${e.ip ? `  [${e.ip}]` : ''}${e.userAgent ? `  ${e.userAgent.slice(0, 120)}` : ''}`,
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

export type TDocumentCertificateModel = Omit<TSealedModel, 'rendered' | 'chosenPackage' | 'chosenAddOns'> & {
  documentName: string;
  documentVersion: number;
  pageCount: number;
  originalSha256: string;
};

/**
 * The page a signed document gets after its own pages (a signature request, issue 37 item 7): each
 * signature, the consent, the hashes of the original file and of what was signed, the audit trail.
 */
export function renderDocumentCertificate(m: TDocumentCertificateModel): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN },
    autoFirstPage: true,
  });
  doc.registerFont('regular', fontFile('regular'));
  doc.registerFont('bold', fontFile('bold'));
  const heading = (text: string, size = 13) =>
    doc.moveDown(0.6).font('bold').fontSize(size).text(text).font('regular').fontSize(10);
  const body = (text: string) => doc.font('regular').fontSize(10).text(text, { lineGap: 2 });
  doc.font('bold').fontSize(16).text('Certificate of signature');
  doc.font('regular').fontSize(10).moveDown(0.5);
  body(`Document: ${m.title}`);
  body(
    `File: ${m.documentName} (version ${m.documentVersion}, ${m.pageCount} page${m.pageCount === 1 ? '' : 's'} before this certificate)`,
  );
  body(`Between ${m.firmName} and ${m.clientName}`);
  body('SHA-256 of the original file as sent for signature:');
  doc.font('bold').fontSize(9).text(m.originalSha256).font('regular').fontSize(10);
  body('SHA-256 of what was signed (the original file and the signatures):');
  doc.font('bold').fontSize(9).text(m.contentSha256).font('regular').fontSize(10);
  body(
    `Sealed by ${m.firmName} with the certificate “${m.certificateSubject}” (PAdES digital signature): any change to this file breaks the signature.`,
  );
  heading('Signatures');
  for (const s of m.signers) {
    doc.moveDown(0.4);
    if (s.kind === 'drawn') {
      try {
        const png = Buffer.from(s.signature.replace(/^data:image\/png;base64,/, ''), 'base64');
        doc.image(png, { fit: [200, 60] });
      } catch {
        body('[drawn signature]');
      }
    } else {
      doc.font('bold').fontSize(16).text(s.signature).fontSize(10).font('regular');
    }
    body(`SIGNED ${s.name} <${s.email}>, ${s.signedAt.toISOString()}`);
    body(`Electronic-signature consent: “${s.consentText}”`);
  }
  heading('Audit trail', 12);
  for (const e of m.events) {
    body(
      `${e.at.toISOString()}  ${e.kind.toUpperCase()}  ${e.who}${e.detail ? ` — ${e.detail}` : ''}${e.ip ? `  [${e.ip}]` : ''}${e.userAgent ? `  ${e.userAgent.slice(0, 120)}` : ''}`,
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}
