import { PAYMENT_EXPORT_PATHS } from '@domain/billing/payment-list';
import { ExportMenu } from '../../documents/export-menu';
import { paymentsListInput, type TPaymentsSearch } from './payments-search';

/** The payments the list shows (its search, filters and sort, every page), as CSV or Excel. */
export function PaymentsExportMenu({ search, clientId }: { search: TPaymentsSearch; clientId?: string }) {
  const { page: _p, pageSize: _s, ...filter } = paymentsListInput(search, clientId);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) params.set(key, String(value));
  const query = params.toString();
  return (
    <ExportMenu
      pathFor={(format) => `${PAYMENT_EXPORT_PATHS[format]}${query ? `?${query}` : ''}`}
      fallbackName={(format) => `payments.${format}`}
    />
  );
}
