import { describe, expect, it } from 'vitest';
import {
  defaultClientFoldersOf,
  isPreviewable,
  ZDefaultClientFolders,
  ZDocumentName,
  ZFolderName,
} from './documents';

describe('document names', () => {
  it('keeps any printable name for a file, refuses blanks and control characters', () => {
    expect(ZDocumentName.parse('  ../../etc/passwd ')).toBe('../../etc/passwd');
    expect(ZDocumentName.safeParse('   ').success).toBe(false);
    expect(ZDocumentName.safeParse('a\nb').success).toBe(false);
    expect(ZDocumentName.safeParse('x'.repeat(256)).success).toBe(false);
  });

  it('refuses "/", "." and ".." as folder names', () => {
    expect(ZFolderName.safeParse('Returns/2026').success).toBe(false);
    expect(ZFolderName.safeParse('..').success).toBe(false);
    expect(ZFolderName.parse('2026-27')).toBe('2026-27');
  });
});

describe('default client folders', () => {
  it('normalises paths and refuses bad segments', () => {
    expect(ZDefaultClientFolders.parse({ folders: [' Returns / 2026-27 /', 'KYC'] })).toEqual({
      folders: ['Returns/2026-27', 'KYC'],
    });
    expect(ZDefaultClientFolders.safeParse({ folders: ['Returns/..'] }).success).toBe(false);
    expect(ZDefaultClientFolders.safeParse({ folders: ['/'] }).success).toBe(false);
  });

  it('reads whatever is stored in the firm settings', () => {
    expect(defaultClientFoldersOf({ defaultClientFolders: ['KYC'] })).toEqual(['KYC']);
    expect(defaultClientFoldersOf({ defaultClientFolders: 'KYC' })).toEqual([]);
    expect(defaultClientFoldersOf(null)).toEqual([]);
  });
});

describe('formatting', () => {
  it('previews only PDFs and raster images', () => {
    expect(isPreviewable('application/pdf')).toBe(true);
    expect(isPreviewable('image/png')).toBe(true);
    expect(isPreviewable('text/html')).toBe(false);
    expect(isPreviewable('image/svg+xml')).toBe(false);
  });
});
