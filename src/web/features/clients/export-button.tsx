import { CLIENT_EXPORT_PATH, CLIENT_EXPORT_XLSX_PATH, clientExportSearch } from '@domain/client-import';
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
import { staffAuthHeaders } from '../../lib/auth';
import type { TClientsSearch } from './clients-search';

const FORMATS = {
  csv: { path: CLIENT_EXPORT_PATH, fallbackName: 'clients.csv' },
  xlsx: { path: CLIENT_EXPORT_XLSX_PATH, fallbackName: 'clients.xlsx' },
} as const;

/**
 * Downloads the clients the list shows (its search and filters, every page) as CSV or an Excel
 * workbook. The export is a plain HTTP route that streams; it needs the staff token, which a bare
 * link cannot carry.
 */
export function ClientsExportMenu({ search }: { search: TClientsSearch }) {
  const [busy, setBusy] = useState(false);
  const run = async (format: keyof typeof FORMATS) => {
    setBusy(true);
    try {
      const { page: _p, pageSize: _s, ...filter } = search;
      const query = clientExportSearch(filter);
      const res = await fetch(`${FORMATS[format].path}${query ? `?${query}` : ''}`, {
        headers: await staffAuthHeaders(),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        throw new Error(body?.message ?? 'The export failed. Please try again.');
      }
      const total = Number(res.headers.get('x-total-count') ?? '0');
      const name =
        /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ??
        FORMATS[format].fallbackName;
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
