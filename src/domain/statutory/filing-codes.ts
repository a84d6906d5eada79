// The catalogue's filing codes alone: the gaps report's route reads them on the first page, where
// the catalogue itself (7 KB) would weigh on every screen's first load. filing-codes.test.ts keeps
// the list equal to the catalogue's.
export const FILING_CODE_LIST: readonly string[] = [
  'IN.GSTR1.M',
  'IN.GSTR1.Q',
  'IN.GSTR3B.M',
  'IN.GSTR3B.Q.A',
  'IN.GSTR3B.Q.B',
  'IN.CMP08',
  'IN.GSTR4',
  'IN.GSTR9',
  'IN.GSTR9C',
  'IN.TDS.24Q',
  'IN.TDS.26Q',
  'IN.TCS.27EQ',
  'IN.TDS.DEPOSIT',
  'IN.ADVTAX',
  'IN.ITR.NONAUDIT',
  'IN.ITR.AUDIT',
  'IN.ITR.TP',
  'IN.TAR',
  'IN.ROC.AOC4',
  'IN.ROC.MGT7',
  'IN.ROC.LLP11',
  'IN.ROC.LLP8',
];
