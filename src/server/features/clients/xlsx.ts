import { PassThrough, Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { cellText } from '../../../domain/client-import';

// Loaded at the first workbook read or written: exceljs is the heaviest import of the server
// (about 0.2 s), and most starts never touch a spreadsheet.
const loadExcel = () => import('exceljs');

/** The sheet holds more data rows than an import takes: reading stopped there. */
export class TooManyRowsError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} rows`);
  }
}

/** A zip's local file header: every XLSX file starts with it, whatever its name says. */
export const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * The first worksheet's cells as text, row by row as the sheet numbers them (row 1 is the header),
 * so the rest of the import treats it exactly as a CSV file. Read with exceljs's streaming reader, a
 * row at a time: the workbook is never built whole in memory, and reading stops (TooManyRowsError)
 * at the first data row past `maxRows` that holds anything. Throws when it is no workbook.
 */
export async function readXlsx(source: Uint8Array | Readable, maxRows: number): Promise<string[][]> {
  const { default: Excel } = await loadExcel();
  const input = source instanceof Readable ? source : Readable.from([Buffer.from(source)]);
  const reader = new Excel.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'cache',
    // Number formats tell a date or a zero-padded code from a plain number.
    styles: 'cache',
    hyperlinks: 'cache',
    worksheets: 'emit',
  });
  const grid: string[][] = [];
  let dataRows = 0;
  try {
    for await (const sheet of reader) {
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const cells: string[] = [];
        row.eachCell((cell, col) => {
          cells[col - 1] = cellText(cell.value, cell.numFmt);
        });
        const texts = Array.from(cells, (c) => c ?? '');
        if (row.number > 1 && texts.some((c) => c.trim() !== '')) {
          dataRows += 1;
          if (dataRows > maxRows) throw new TooManyRowsError(maxRows);
        }
        grid[row.number - 1] = texts;
      }
      // The first worksheet only.
      break;
    }
  } finally {
    input.destroy();
  }
  return Array.from(grid, (r) => r ?? []);
}

/**
 * A one-sheet workbook streamed as rows are added (exceljs's streaming writer keeps only the
 * current row in memory). Cells are written as strings, so codes and phones keep their zeros.
 */
export async function xlsxWriter(sheetName: string, headers: readonly string[]) {
  const { default: Excel } = await loadExcel();
  const stream = new PassThrough();
  const workbook = new Excel.stream.xlsx.WorkbookWriter({
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
