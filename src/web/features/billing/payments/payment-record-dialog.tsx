import { autoAllocate } from '@domain/billing/allocation';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '@domain/billing/constants';
import { paymentFormSchema, type TPaymentFormInput } from '@domain/billing/payment-form';
import { amountText, type TPaymentCreate } from '@domain/billing/payments';
import { todayIn } from '@domain/days';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Checkbox,
  DatePicker,
  Field,
  FormSelect,
  Input,
  RecordDialog,
  Textarea,
  type TRecordForm,
  toast,
  useFormat,
} from '@web/ui';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { isUuid } from '../../../lib/route-guard';
import { trpc } from '../../../lib/trpc';
import { BillingClientPicker } from '../invoices/billing-client-picker';
import { AllocationRows, typedMinor } from './allocation-rows';

type TForm = TRecordForm<TPaymentFormInput, TPaymentCreate>;

const METHOD_OPTIONS = PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }));

/**
 * Record payment: money received from a client, the tax it deducted (TDS) and the bank's charges,
 * spread over its open invoices (oldest first, or the invoice it was recorded from first); what is
 * left becomes the client's credit. Opened from the payments list (any client), an invoice's page
 * (that invoice and its balance) or a client's Billing tab (that client).
 */
export function PaymentRecordDialog({
  open,
  onOpenChange,
  clientId,
  invoice,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  clientId?: string;
  /** From an invoice's page: settle it first, its balance as the amount received. */
  invoice?: { id: string; clientId: string; balance: number };
}) {
  const format = useFormat();
  const digits = format.currencyDigits;
  const queryClient = useQueryClient();
  const record = useMutation(trpc.billing.payments.record.mutationOptions());
  const schema = useMemo(() => paymentFormSchema(digits), [digits]);
  const fixedClient = invoice?.clientId ?? clientId;
  const values: TPaymentFormInput = {
    clientId: fixedClient ?? '',
    receivedOn: todayIn(format.timeZone),
    method: 'bank_transfer',
    reference: '',
    amount: invoice ? amountText(invoice.balance, digits) : '',
    tdsAmount: '',
    tdsSection: '',
    tdsCertificateReceived: false,
    bankCharges: '',
    notes: '',
    allocations: [],
  };
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={schema}
      values={values}
      submit={(v) => record.mutateAsync(v)}
      onSaved={async (result, v) => {
        toast.success(
          result.credit > 0
            ? `Recorded ${format.moneyMinor(v.amount)}: ${format.moneyMinor(result.credit)} is the client's credit`
            : `Recorded ${format.moneyMinor(v.amount)}`,
        );
        await queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
      }}
      title="Record payment"
      description="What the client paid, the tax it deducted and the bank's charges, set against its invoices."
      submitLabel="Record payment"
      size="lg"
    >
      {(form) => <PaymentFields form={form} fixedClient={!!fixedClient} first={invoice?.id} />}
    </RecordDialog>
  );
}

function PaymentFields({ form, fixedClient, first }: { form: TForm; fixedClient: boolean; first?: string }) {
  const format = useFormat();
  const digits = format.currencyDigits;
  const errors = form.formState.errors;
  const [clientId, amount, tds, charges, rows] = useWatch({
    control: form.control,
    name: ['clientId', 'amount', 'tdsAmount', 'bankCharges', 'allocations'],
  });
  // Once a person types an allocation, it is theirs: the amounts above no longer refill it.
  const [manual, setManual] = useState(false);
  const account = useQuery({
    ...trpc.billing.payments.clientAccount.queryOptions({ clientId }),
    enabled: isUuid(clientId),
  });
  const data = account.data?.client.id === clientId ? account.data : undefined;
  const invoices = data?.openInvoices ?? [];
  const available = typedMinor(amount, digits) + typedMinor(tds, digits) + typedMinor(charges, digits);

  const fill = (list: typeof invoices, total: number) =>
    form.setValue(
      'allocations',
      autoAllocate(list, total, first).map((minor, i) => ({
        invoiceId: list[i]?.id ?? '',
        balance: list[i]?.balance ?? 0,
        amount: minor ? amountText(minor, digits) : '',
      })),
      // A refill answers the errors it fixes once the form has been sent.
      { shouldValidate: form.formState.isSubmitted },
    );
  // A client's invoices replace the last client's; the amounts spread over them oldest first.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refills only when the invoices or the money change
  useEffect(() => {
    if (!data) return;
    const same =
      rows.length === data.openInvoices.length &&
      rows.every((r, i) => r.invoiceId === data.openInvoices[i]?.id);
    if (!same) setManual(false);
    if (!same || !manual) fill(data.openInvoices, available);
  }, [data, available]);

  return (
    <>
      {fixedClient ? (
        <p className="text-sm">
          <span className="text-muted-fg">From </span>
          <span className="font-medium">{data ? `${data.client.name} (${data.client.code})` : '…'}</span>
          {data ? <span className="text-muted-fg"> · owes {format.moneyMinor(data.outstanding)}</span> : null}
        </p>
      ) : (
        <Field label="Client" error={errors.clientId?.message} required>
          <Controller
            control={form.control}
            name="clientId"
            render={({ field }) => (
              <BillingClientPicker
                from="payments"
                autoFocus
                value={field.value || null}
                onChange={(id) => field.onChange(id ?? '')}
              />
            )}
          />
        </Field>
      )}
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Received on" error={errors.receivedOn?.message} required>
          <Controller
            control={form.control}
            name="receivedOn"
            render={({ field }) => <DatePicker {...field} value={field.value || null} clearable={false} />}
          />
        </Field>
        <Field label="Method" error={errors.method?.message} required>
          <FormSelect control={form.control} name="method" options={METHOD_OPTIONS} />
        </Field>
        <Field label="Reference" hint="UTR, cheque or transaction number" error={errors.reference?.message}>
          <Input {...form.register('reference')} />
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Amount received" error={errors.amount?.message} required>
          <Input
            inputMode="decimal"
            placeholder="0.00"
            autoFocus={fixedClient}
            {...form.register('amount')}
          />
        </Field>
        <Field
          label="Bank charges"
          hint="Kept by the bank, settled for the client"
          error={errors.bankCharges?.message}
        >
          <Input inputMode="decimal" placeholder="0.00" {...form.register('bankCharges')} />
        </Field>
      </div>
      <fieldset className="grid gap-4 rounded-md border border-border p-3 sm:grid-cols-3">
        <legend className="px-1 text-sm font-medium">TDS deducted by the client</legend>
        <Field label="TDS amount" error={errors.tdsAmount?.message}>
          <Input inputMode="decimal" placeholder="0.00" {...form.register('tdsAmount')} />
        </Field>
        <Field label="TDS section" hint="194J, 194C…" error={errors.tdsSection?.message}>
          <Input {...form.register('tdsSection')} />
        </Field>
        <div className="flex items-end pb-2">
          <Controller
            control={form.control}
            name="tdsCertificateReceived"
            render={({ field }) => (
              <Checkbox
                label="Certificate received"
                checked={field.value}
                onCheckedChange={(v) => field.onChange(v === true)}
              />
            )}
          />
        </div>
      </fieldset>
      {data ? (
        <AllocationRows
          invoices={invoices}
          amounts={rows.map((r) => r.amount)}
          available={available}
          inputProps={(i) => form.register(`allocations.${i}.amount`, { onChange: () => setManual(true) })}
          rowError={(i) => errors.allocations?.[i]?.amount?.message}
          error={errors.allocations?.message ?? errors.allocations?.root?.message}
          onRefill={() => {
            setManual(false);
            fill(invoices, available);
          }}
          leftLabel="becomes the client's credit"
        />
      ) : null}
      <Field label="Notes" error={errors.notes?.message}>
        <Textarea rows={2} {...form.register('notes')} />
      </Field>
    </>
  );
}
