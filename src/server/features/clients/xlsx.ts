import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { cellText } from '../../../domain/client-import';

/** A zip's local file header: every XLSX file starts with it, whatever its name says. */
export const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * The first worksheet's cells as text, row by row as the sheet numbers them (row 1 is the header),
 * so the rest of the import treats it exactly as a CSV file. Throws when it is no workbook.
 */
export async function readXlsx(bytes: Uint8Array): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  // A copy as its own ArrayBuffer, which is what exceljs's typings take.
  await workbook.xlsx.load(new Uint8Array(bytes).buffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const grid: string[][] = [];
  sheet.eachRow((row, rowNumber) => {
    const cells: string[] = [];
    row.eachCell((cell, col) => {
      cells[col - 1] = cellText(cell.value, cell.numFmt);
    });
    grid[rowNumber - 1] = Array.from(cells, (c) => c ?? '');
  });
  return Array.from(grid, (r) => r ?? []);
}

/**
 * A one-sheet workbook streamed as rows are added (exceljs's streaming writer keeps only the
 * current row in memory). Cells are written as strings, so codes and phones keep their zeros.
 */
export function xlsxWriter(sheetName: string, headers: readonly string[]) {
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  const header = sheet.addRow([...headers]);
  header.font = { bold: true };
  header.commit();
  return {
    stream,
    add(cells: readonly string[]) {
      sheet.addRow([...cells]).commit();
    },
    async end() {
      sheet.commit();
      await workbook.commit();
    },
  };
}
