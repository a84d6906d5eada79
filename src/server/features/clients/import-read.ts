import { CLIENT_IMPORT_MAX_ROWS, parseCsv } from '../../../domain/client-import';
import { hasForbiddenCharacter } from '../../../domain/fields';
import { bad } from './import-access';
import { isZip, readXlsx, TooManyRowsError } from './xlsx';

/**
 * The file's text: UTF-8 (with or without a BOM), UTF-16 as Excel's "Unicode text" saves it, or
 * Windows-1252 as older Excel saves "CSV" on Windows.
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * The sheet's cells, from a CSV file or an Excel workbook's first worksheet. An XLSX file is told by
 * its content (a zip), so a workbook renamed .csv is still read and a text file named .xlsx is not.
 */
export async function readSheet(fileName: string, bytes: Uint8Array): Promise<string[][]> {
  const grid = await readCells(fileName, bytes);
  // A NUL (UTF-16 text, an Excel escape) would reach the database: name the row to fix instead.
  const row = grid.findIndex((cells) => cells.some(hasForbiddenCharacter));
  if (row >= 0)
    throw bad(
      `Row ${row + 1} of this file contains a character that is not allowed: remove it and upload again`,
    );
  return grid;
}

async function readCells(fileName: string, bytes: Uint8Array): Promise<string[][]> {
  if (isZip(bytes)) {
    try {
      return await readXlsx(bytes, CLIENT_IMPORT_MAX_ROWS);
    } catch (error) {
      if (error instanceof TooManyRowsError)
        throw bad(
          `The file has more than ${error.limit} rows: import at most ${CLIENT_IMPORT_MAX_ROWS} at a time`,
        );
      throw bad('This file could not be read as an Excel workbook: save it again as .xlsx or as CSV');
    }
  }
  const ext = (fileName ?? '').toLowerCase().split('.').pop() ?? '';
  // The OLE2 signature of Excel 97–2003 .xls files, which only the .xlsx reader's library lacks.
  const ole = bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;
  if (ext === 'xls' || ole) {
    throw bad(
      'Old Excel .xls files cannot be read: in Excel save it as .xlsx or CSV UTF-8, then upload that file',
    );
  }
  if (ext === 'xlsx') throw bad('This file is not an Excel workbook: save it again as .xlsx or as CSV');
  if (bytes.includes(0) && !(bytes[0] === 0xff || bytes[0] === 0xfe)) {
    throw bad('This file is not a CSV or Excel file: save the spreadsheet as CSV or .xlsx and upload that');
  }
  return parseCsv(decodeText(bytes));
}
