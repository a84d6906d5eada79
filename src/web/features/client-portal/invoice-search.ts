export type TPortalInvoiceSearch = { invoice?: string; page?: number };

/** ?invoice={id} (the open invoice), ?page=2; anything else is dropped. */
export function ZPortalInvoiceSearch(search: Record<string, unknown>): TPortalInvoiceSearch {
  const out: TPortalInvoiceSearch = {};
  if (typeof search.invoice === 'string' && /^[0-9a-f-]{36}$/i.test(search.invoice))
    out.invoice = search.invoice;
  const page = Number(search.page);
  if (Number.isInteger(page) && page > 1 && page < 10_000) out.page = page;
  return out;
}
