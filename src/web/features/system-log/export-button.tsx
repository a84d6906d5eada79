import { ERROR_TOAST_MS } from '@domain/constants';
import { SYSTEM_LOG_EXPORT_PATH, systemLogExportSearch } from '@domain/system-log';
import { Button, toast } from '@web/ui';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { staffAuthHeaders } from '../../lib/auth';

/**
 * Downloads the current filter as CSV. The export is a plain HTTP route that streams (so it can be
 * large); it needs the staff token like any call, which a bare link cannot carry, so it is fetched.
 */
export function ExportButton({ filter }: { filter: Parameters<typeof systemLogExportSearch>[0] }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const query = systemLogExportSearch(filter);
      const res = await fetch(`${SYSTEM_LOG_EXPORT_PATH}${query ? `?${query}` : ''}`, {
        headers: await staffAuthHeaders(),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        throw new Error(body?.message ?? 'The export failed. Please try again.');
      }
      const total = Number(res.headers.get('x-total-count') ?? '0');
      const name =
        /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'system-log.csv';
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast.success(`Exported ${total} ${total === 1 ? 'entry' : 'entries'}`);
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
