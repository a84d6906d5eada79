import { describe, expect, it } from 'vitest';
import { FILING_CODES } from './catalogue';
import { FILING_CODE_LIST } from './filing-codes';

describe('the first page’s filing codes', () => {
  it('are the catalogue’s, in its order', () => {
    expect(FILING_CODE_LIST).toEqual(FILING_CODES);
  });
});
