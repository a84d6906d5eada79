import { DEFAULT_LEDGERS, LEDGER_LABELS, type TLedgerNames } from '@domain/accounting-export';
import type { TBillingSettings, TBillingSettingsInput } from '@domain/billing/schemas';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input } from '@web/ui';
import type { UseFormReturn } from 'react-hook-form';

const KEYS = Object.keys(DEFAULT_LEDGERS) as (keyof TLedgerNames)[];

/**
 * The accounting export's ledger names: Tally imports a voucher only when every ledger it names
 * exists in the firm's books by that exact name, so a firm whose books say "Fees Received" types it.
 */
export function LedgersCard({
  form,
}: {
  form: UseFormReturn<TBillingSettingsInput, unknown, TBillingSettings>;
}) {
  const errors = form.formState.errors.ledgers;
  return (
    <Card>
      <CardHeader>
        <div>
          <CardTitle>Accounting export</CardTitle>
          <CardDescription>
            The ledgers the Tally and CSV export posts to, named exactly as in your books. Each client is
            posted to a ledger of its own name.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-3">
        {KEYS.map((key) => (
          <Field key={key} label={LEDGER_LABELS[key]} error={errors?.[key]?.message}>
            <Input placeholder={DEFAULT_LEDGERS[key]} {...form.register(`ledgers.${key}`)} />
          </Field>
        ))}
      </CardContent>
    </Card>
  );
}
