import { ERROR_TOAST_MS } from '@domain/constants';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  toast,
} from '@web/ui';
import { ChevronDown, Download, FileSpreadsheet, FileText } from 'lucide-react';
import { useState } from 'react';
import { saveFile } from './file-transfer';

export type TExportFormat = 'csv' | 'xlsx';

/**
 * Export as CSV or an Excel workbook: the export route streams, and the browser fetches it by a
 * signed link and saves it to disk as it comes (its own download shows the progress). `pathFor`
 * names the route with the screen's filters for a format.
 */
export function ExportMenu({
  pathFor,
  fallbackName,
}: {
  pathFor: (format: TExportFormat) => string;
  fallbackName: (format: TExportFormat) => string;
}) {
  const [busy, setBusy] = useState(false);
  const run = async (format: TExportFormat) => {
    setBusy(true);
    try {
      await saveFile(pathFor(format), fallbackName(format));
      toast.success('Export started: your browser saves the file');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Network Error', { duration: ERROR_TOAST_MS });
    } finally {
      setBusy(false);
    }
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" loading={busy} aria-busy={busy}>
          <Download aria-hidden="true" /> {busy ? 'Exporting…' : 'Export'}
          <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem disabled={busy} onSelect={() => run('csv')}>
          <FileText aria-hidden /> Export CSV
        </DropdownMenuItem>
        <DropdownMenuItem disabled={busy} onSelect={() => run('xlsx')}>
          <FileSpreadsheet aria-hidden /> Export Excel
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
