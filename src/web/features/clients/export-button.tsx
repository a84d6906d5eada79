import { CLIENT_EXPORT_PATH, CLIENT_EXPORT_XLSX_PATH, clientExportSearch } from '@domain/client-import';
import { ExportMenu } from '../documents/export-menu';
import type { TClientsSearch } from './clients-search';

const PATHS = { csv: CLIENT_EXPORT_PATH, xlsx: CLIENT_EXPORT_XLSX_PATH } as const;

/** The clients the list shows (its search and filters, every page), as CSV or Excel. */
export function ClientsExportMenu({ search }: { search: TClientsSearch }) {
  const { page: _p, pageSize: _s, ...filter } = search;
  const query = clientExportSearch(filter);
  return (
    <ExportMenu
      pathFor={(format) => `${PATHS[format]}${query ? `?${query}` : ''}`}
      fallbackName={(format) => `clients.${format}`}
    />
  );
}
