import type { TLogoContentType } from '../../../domain/settings';

export type TSniffed = { ok: true; contentType: TLogoContentType } | { ok: false; reason: 'svg' | 'unknown' };

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  signature.every((b, i) => bytes[at + i] === b);

/**
 * The image type from its first bytes, never from a file name or a declared type: a file called
 * logo.png that holds HTML or SVG must not be served as an image another page can script.
 */
export function sniffImage(bytes: Uint8Array): TSniffed {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { ok: true, contentType: 'image/png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { ok: true, contentType: 'image/jpeg' };
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) {
    return { ok: true, contentType: 'image/webp' };
  }
  // SVG is XML text, which can carry scripts: name it so the person knows why it is refused.
  const head = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<') && head.includes('<svg')))
    return { ok: false, reason: 'svg' };
  return { ok: false, reason: 'unknown' };
}
