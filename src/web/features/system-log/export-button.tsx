import { ERROR_TOAST_MS } from '@domain/constants';
import { SYSTEM_LOG_EXPORT_PATH, systemLogExportSearch } from '@domain/system-log';
import { Button, toast } from '@web/ui';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { saveFile } from '../documents/file-transfer';

/**
 * Downloads the current filter as CSV. The export is a plain HTTP route that streams (so it can be
 * large): the browser fetches it by a signed link and saves it to disk as it comes.
 */
export function ExportButton({ filter }: { filter: Parameters<typeof systemLogExportSearch>[0] }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const query = systemLogExportSearch(filter);
      await saveFile(`${SYSTEM_LOG_EXPORT_PATH}${query ? `?${query}` : ''}`, 'system-log.csv');
      toast.success('Export started: your browser saves the file');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Network Error', { duration: ERROR_TOAST_MS });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outline" onClick={run} loading={busy} aria-busy={busy}>
      <Download aria-hidden="true" /> {busy ? 'Exporting…' : 'Export CSV'}
    </Button>
  );
}
