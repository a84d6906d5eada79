import { and, eq } from 'drizzle-orm';
import { ledgersOf } from '../../../../domain/accounting-export';
import { fiscalYearLabel } from '../../../../domain/billing/numbering';
import type { TBillingSettings } from '../../../../domain/billing/schemas';
import { gstStateOf } from '../../../../domain/billing/totals';
import { todayIn } from '../../../../domain/days';
import { actorOf, type TRequestMeta, type TScope } from '../../../auth';
import type { TDb, TExecutor } from '../../../db/client';
import { billingSettings, invoiceCounters } from '../../../db/schema';
import { audit, diff } from '../../system-log';
import { billingContext, type TBillingSettingsRow } from '../context';

/** The fields a person edits, as the form holds them. */
function editable(row: TBillingSettingsRow): TBillingSettings {
  return {
    taxRegime: row.taxRegime,
    gstState: row.gstState,
    defaultTaxRateBp: row.defaultTaxRateBp,
    roundTotals: row.roundTotals,
    invoicePrefix: row.invoicePrefix,
    creditNotePrefix: row.creditNotePrefix,
    seqDigits: row.seqDigits,
    dueDays: row.dueDays,
    terms: row.terms,
    bankDetails: row.bankDetails,
    upiVpa: row.upiVpa,
    upiPayee: row.upiPayee,
    recurringMode: row.recurringMode,
    remindersEnabled: row.remindersEnabled,
    remindBeforeDays: row.remindBeforeDays,
    remindOnDue: row.remindOnDue,
    remindEveryDays: row.remindEveryDays,
    ledgers: ledgersOf(row.ledgerNames),
  };
}

/**
 * The firm's billing settings (its defaults until it saves them), with what the form's preview of
 * the next number needs: the fiscal year of the firm's today and the last number of each series in it.
 */
export async function getBillingSettings(db: TExecutor, scope: Pick<TScope, 'orgId'>) {
  const ctx = await billingContext(db, scope.orgId);
  const today = todayIn(ctx.firm.timeZone);
  const fiscalYear = fiscalYearLabel(today, ctx.firm.fiscalYearStartMonth);
  const counters = await db
    .select({ series: invoiceCounters.series, lastSeq: invoiceCounters.lastSeq })
    .from(invoiceCounters)
    .where(and(eq(invoiceCounters.orgId, scope.orgId), eq(invoiceCounters.fiscalYear, fiscalYear)));
  return {
    settings: editable(ctx.settings),
    currency: ctx.firm.currency,
    country: ctx.firm.country,
    fiscalYear,
    /** The last number given in each series this fiscal year: the next is one more. */
    lastSeq: Object.fromEntries(counters.map((c) => [c.series, c.lastSeq])) as Record<string, number>,
    /** The state of the firm's own GSTIN, offered when GST is chosen. */
    gstinState: gstStateOf(ctx.firm.taxIds),
  };
}

export async function updateBillingSettings(
  db: TDb,
  scope: TScope,
  input: TBillingSettings,
  meta: TRequestMeta,
) {
  return db.transaction(async (tx) => {
    // The row locked (when there is one) so two saves log their diffs one after the other.
    await tx
      .select({ orgId: billingSettings.orgId })
      .from(billingSettings)
      .where(eq(billingSettings.orgId, scope.orgId))
      .for('update');
    const before = editable((await billingContext(tx, scope.orgId)).settings);
    const values = {
      ...input,
      gstState: input.taxRegime === 'gst' ? input.gstState : null,
      ledgers: ledgersOf(input.ledgers),
    };
    const changes = diff(before, values);
    if (!changes) return { changed: false };
    const { ledgers, ...columns } = values;
    const row = { ...columns, ledgerNames: ledgers };
    await tx
      .insert(billingSettings)
      .values({ orgId: scope.orgId, ...row })
      .onConflictDoUpdate({ target: billingSettings.orgId, set: { ...row, updatedAt: new Date() } });
    await audit(tx, actorOf(scope, meta), {
      action: 'billing.settings.update',
      recordType: 'billingSettings',
      summary: `Changed the billing settings: ${Object.keys(changes).join(', ')}`,
      changes,
    });
    return { changed: true };
  });
}
