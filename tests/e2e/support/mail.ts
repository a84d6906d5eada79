import fs from 'node:fs';
import path from 'node:path';

/** The raw messages (RFC 5322 text) the outbox wrote to an address, oldest first. */
export function rawMailTo(outboxDir: string, to: string): string[] {
  return fs
    .readdirSync(outboxDir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => (JSON.parse(fs.readFileSync(path.join(outboxDir, n), 'utf8')) as { eml: string }).eml)
    .filter((eml) => new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'im').test(eml));
}

/** The first PDF attached to a MIME message, decoded from its base64. */
export function pdfAttachmentOf(eml: string): Buffer {
  const part = eml.split(/\r?\n--/).find((p) => /Content-Type: application\/pdf/i.test(p));
  if (!part) throw new Error('no PDF attached');
  const body = part
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
}
