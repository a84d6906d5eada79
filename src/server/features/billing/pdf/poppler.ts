import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// For the tests: what an independent reader, Debian's poppler-utils, finds in a PDF we made.

function withFile<T>(pdf: Buffer, read: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'billing-pdf-'));
  try {
    const path = join(dir, 'document.pdf');
    writeFileSync(path, pdf);
    return read(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const run = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: 'utf8' });

/**
 * The text as `pdftotext -layout` lays it out (columns side by side, pages separated by form feeds),
 * or with `raw` in the order it was drawn, where a wrapped paragraph reads on as one.
 */
export const pdfText = (pdf: Buffer, mode: 'layout' | 'raw' = 'layout') =>
  withFile(pdf, (path) => run('pdftotext', [`-${mode}`, '-enc', 'UTF-8', path, '-']));

/** Raw text with each run of white space as one space. */
export const pdfWords = (pdf: Buffer) => pdfText(pdf, 'raw').replace(/\s+/g, ' ');

/** `pdfinfo`'s fields: Title, Pages, Page size… */
export function pdfInfo(pdf: Buffer): Record<string, string> {
  const out = withFile(pdf, (path) => run('pdfinfo', ['-enc', 'UTF-8', path]));
  return Object.fromEntries(
    out
      .split('\n')
      .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1] as string, (m[2] as string).trim()]),
  );
}

/** The images each page draws (`pdfimages -list`): width and height in pixels. */
export function pdfImages(pdf: Buffer): { page: number; width: number; height: number }[] {
  const out = withFile(pdf, (path) => run('pdfimages', ['-list', path]));
  return out
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 4 && /^\d+$/.test(cols[0] as string))
    .filter((cols) => cols[2] === 'image')
    .map((cols) => ({ page: Number(cols[0]), width: Number(cols[3]), height: Number(cols[4]) }));
}

/** The fonts the PDF uses (`pdffonts`): name and whether it is embedded. */
export function pdfFonts(pdf: Buffer): { name: string; embedded: boolean }[] {
  const out = withFile(pdf, (path) => run('pdffonts', [path]));
  return out
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const cols = line.trim().split(/\s+/);
      // name, type words…, encoding, emb, sub, uni, object id, generation: emb is the 6th from the end.
      return { name: cols[0] as string, embedded: cols[cols.length - 5] === 'yes' };
    });
}

/** The images themselves, as PNG files (`pdfimages -png`), in the order the PDF holds them. */
export function pdfImagePngs(pdf: Buffer): Buffer[] {
  return withFile(pdf, (path) => {
    const dir = join(path, '..');
    run('pdfimages', ['-png', path, join(dir, 'image')]);
    return readdirSync(dir)
      .filter((name) => name.startsWith('image-') && name.endsWith('.png'))
      .sort()
      .map((name) => readFileSync(join(dir, name)));
  });
}
