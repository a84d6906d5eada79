import { CLIENT_EXPORT_PATH, clientExportSearch } from '@domain/client-import';
import { ERROR_TOAST_MS } from '@domain/constants';
import { Button, toast } from '@web/ui';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { staffAuthHeaders } from '../../lib/auth';
import type { TClientsSearch } from './clients-search';

/**
 * Downloads the clients the list shows (its search and filters, every page) as CSV. The export is a
 * plain HTTP route that streams; it needs the staff token, which a bare link cannot carry.
 */
export function ClientsExportButton({ search }: { search: TClientsSearch }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { page: _p, pageSize: _s, ...filter } = search;
      const query = clientExportSearch(filter);
      const res = await fetch(`${CLIENT_EXPORT_PATH}${query ? `?${query}` : ''}`, {
        headers: await staffAuthHeaders(),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        throw new Error(body?.message ?? 'The export failed. Please try again.');
      }
      const total = Number(res.headers.get('x-total-count') ?? '0');
      const name =
        /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'clients.csv';
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast.success(`Exported ${total} client${total === 1 ? '' : 's'}`);
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
