import { FILING_CODE_LIST } from '@domain/statutory/filing-codes';
import { parseListParams, type TListParams } from '@web/ui';

// The route's search for /reports/statutory/gaps, apart from the (lazy) screen.
export type TGapsSearch = TListParams & { filingCode?: string };

export function parseGapsSearch(s: Record<string, unknown>): TGapsSearch {
  const { page, pageSize } = parseListParams(s);
  return {
    page,
    pageSize,
    filingCode:
      typeof s.filingCode === 'string' && FILING_CODE_LIST.includes(s.filingCode) ? s.filingCode : undefined,
  };
}
