import { INVOICE_EXPORT_PATH, INVOICE_EXPORT_XLSX_PATH } from '@domain/billing/invoice-list';
import { ExportMenu } from '../../documents/export-menu';
import { invoicesListInput, type TInvoicesSearch } from './invoices-search';

const PATHS = { csv: INVOICE_EXPORT_PATH, xlsx: INVOICE_EXPORT_XLSX_PATH } as const;

/** The invoices the list shows (its search, filters and sort, every page), as CSV or Excel. */
export function InvoicesExportMenu({ search, clientId }: { search: TInvoicesSearch; clientId?: string }) {
  const { page: _p, pageSize: _s, ...filter } = invoicesListInput(search, clientId);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) params.set(key, String(value));
  const query = params.toString();
  return (
    <ExportMenu
      pathFor={(format) => `${PATHS[format]}${query ? `?${query}` : ''}`}
      fallbackName={(format) => `invoices.${format}`}
    />
  );
}
