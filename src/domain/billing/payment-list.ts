// The payments and receivables lists' vocabulary, without zod: route files import it to read their
// URL, and they are in every first page.

export const PAYMENT_SORTS = ['receivedOn', 'amount', 'client', 'createdAt'] as const;
export const YES_NO = ['yes', 'no'] as const;
/** TDS filter: any TDS, none, or TDS whose certificate has not come in yet. */
export const TDS_FILTERS = ['yes', 'no', 'pending'] as const;
export const TDS_FILTER_LABELS: Record<(typeof TDS_FILTERS)[number], string> = {
  yes: 'With TDS',
  no: 'Without TDS',
  pending: 'TDS certificate pending',
};

export const AGING_DIMENSIONS = ['client', 'group', 'partner'] as const;
export type TAgingDimension = (typeof AGING_DIMENSIONS)[number];
export const AGING_DIMENSION_LABELS: Record<TAgingDimension, string> = {
  client: 'By client',
  group: 'By client group',
  partner: 'By partner',
};
export const AGING_SORTS = [
  'name',
  'outstanding',
  'current',
  'd1_30',
  'd31_60',
  'd61_90',
  'd90_plus',
  'credit',
] as const;
export type TAgingSort = (typeof AGING_SORTS)[number];

/** The payments list as CSV or Excel, with the list's filter as the query. */
export const PAYMENT_EXPORT_PATHS = {
  csv: '/api/billing/payments/export.csv',
  xlsx: '/api/billing/payments/export.xlsx',
} as const;

/** A client's statement for a period, as a PDF. */
export const statementPdfPath = (clientId: string, from: string, to: string) =>
  `/api/billing/clients/${clientId}/statement.pdf?${new URLSearchParams({ from, to })}`;
