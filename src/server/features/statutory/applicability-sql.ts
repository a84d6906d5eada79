import { type SQL, sql } from 'drizzle-orm';
import {
  ALL_FILINGS,
  GST_CATEGORY_A_STATES,
  type TApplicability,
  type TFiling,
} from '../../../domain/statutory/catalogue';

// The catalogue's applicability rules as SQL over `r` (client_registrations) and `c` (clients): the
// same rules as applicableFilings (rules.ts), so the gaps of 20,000 clients are one statement.

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

export function condition(rule: TApplicability): SQL {
  const parts: SQL[] = [];
  if (rule.gstSchemes) parts.push(sql`r.gstin is not null and r.gst_scheme in (${list(rule.gstSchemes)})`);
  if (rule.gstStateCategory === 'A') parts.push(sql`r.gst_state in (${list(GST_CATEGORY_A_STATES)})`);
  if (rule.gstStateCategory === 'B')
    parts.push(sql`r.gst_state is not null and r.gst_state not in (${list(GST_CATEGORY_A_STATES)})`);
  if (rule.turnoverBands)
    parts.push(sql`(r.turnover_band is null or r.turnover_band in (${list(rule.turnoverBands)}))`);
  if (rule.pan) parts.push(sql`r.pan is not null`);
  if (rule.tan) parts.push(sql`r.tan is not null`);
  if (rule.cin) parts.push(sql`r.cin is not null`);
  if (rule.llpin) parts.push(sql`r.llpin is not null`);
  if (rule.taxAudit) parts.push(sql`r.tax_audit`);
  if (rule.collectsTcs) parts.push(sql`r.collects_tcs`);
  if (rule.itrCategory === 'transfer_pricing') parts.push(sql`r.transfer_pricing`);
  if (rule.itrCategory === 'audit')
    parts.push(sql`not r.transfer_pricing and (r.tax_audit or c.type = 'company')`);
  if (rule.itrCategory === 'non_audit')
    parts.push(sql`not r.transfer_pricing and not r.tax_audit and c.type <> 'company'`);
  if (rule.clientTypes) parts.push(sql`c.type in (${list(rule.clientTypes)})`);
  return parts.length
    ? sql.join(
        parts.map((p) => sql`(${p})`),
        sql` and `,
      )
    : sql`true`;
}

/** `text[]`: each filing's code when the client must make it, else null (of the firm's catalogue version). */
export function applicableCodesSql(filingCode?: string, catalogue: readonly TFiling[] = ALL_FILINGS): SQL {
  const filings = filingCode ? catalogue.filter((f) => f.code === filingCode) : catalogue;
  // A filing the firm's version lacks applies to nobody (an empty array would lose its type).
  if (!filings.length) return sql`array[null]::text[]`;
  return sql`array[${sql.join(
    filings.map((f) => sql`case when ${condition(f.appliesTo)} then ${f.code}::text end`),
    sql`, `,
  )}]::text[]`;
}
