import { sniffImage } from '../settings';

/** How many leading bytes the type detection reads. */
export const SNIFF_BYTES = 4096;

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  signature.every((b, i) => bytes[at + i] === b);

/** Office Open XML documents are zip files; the declared type names which one (if it says so). */
const OOXML = [
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
];

/**
 * A file's type from its first bytes, never from its name alone: a "statement.pdf" that holds HTML
 * is not a PDF. The declared type only refines a container (a zip that says it is a .docx); text
 * that is not one of these is plain text, so nothing is ever served as HTML.
 */
export function sniffContentType(head: Uint8Array, declared?: string | null): string {
  const image = sniffImage(head);
  if (image.ok) return image.contentType;
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    return declared && OOXML.includes(declared) ? declared : 'application/zip';
  }
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return 'application/x-ole-storage';
  }
  if (startsWith(head, [0x1f, 0x8b])) return 'application/gzip';
  if (head.length > 0 && !head.includes(0)) {
    try {
      // A cut multi-byte character at the end of the window is not a reason to call it binary.
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 4)));
      return 'text/plain';
    } catch {
      // not UTF-8 text
    }
  }
  return 'application/octet-stream';
}
