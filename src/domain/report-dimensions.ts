// The billing summary's dimensions, apart from the reports' schemas: the route's search parsing
// reads them, and route files stay free of zod.

/**
 * The billing summary's table: one row per month of the period, client, service, client's partner
 * (the team member in the "Partner in charge" responsibility), member (their billed time) or project.
 */
export const BILLING_REPORT_DIMENSIONS = [
  'month',
  'client',
  'service',
  'partner',
  'member',
  'project',
] as const;
export type TBillingReportDimension = (typeof BILLING_REPORT_DIMENSIONS)[number];
export const BILLING_REPORT_DIMENSION_LABELS: Record<TBillingReportDimension, string> = {
  month: 'Month',
  client: 'Client',
  service: 'Service',
  partner: 'Partner',
  member: 'Member',
  project: 'Project',
};
