import { describe, expect, it } from 'vitest';
import { filingFolderName, numberedName } from './filing';

describe('where accepted files are filed', () => {
  it('names the folder for the request, and its period when it has one', () => {
    expect(filingFolderName('ITR documents')).toBe('ITR documents');
    expect(filingFolderName('Statements / FY 2025-26')).toBe('Statements - FY 2025-26');
    expect(filingFolderName('ITR documents', 'FY 2025-26')).toBe('ITR documents · FY 2025-26');
    expect(filingFolderName('ITR FY 2025-26', 'FY 2025-26')).toBe('ITR FY 2025-26');
    expect(filingFolderName('  /  ')).toBe('-');
    expect(filingFolderName('   ')).toBe('Request');
    expect(filingFolderName('x'.repeat(300))).toHaveLength(200);
  });
  it('numbers a second file of a name before its extension', () => {
    expect(numberedName('Form 16.pdf', 2)).toBe('Form 16 (2).pdf');
    expect(numberedName('README', 3)).toBe('README (3)');
    expect(numberedName('.env', 2)).toBe('.env (2)');
  });
});
