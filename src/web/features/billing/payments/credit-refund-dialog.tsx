import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '@domain/billing/constants';
import { refundFormSchema, type TRefundFormInput } from '@domain/billing/payment-form';
import { amountText } from '@domain/billing/payments';
import { todayIn } from '@domain/days';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DatePicker, Field, FormSelect, Input, RecordDialog, Textarea, toast, useFormat } from '@web/ui';
import { useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { trpc } from '../../../lib/trpc';
import type { TClientAccount } from './allocation-rows';

const METHOD_OPTIONS = PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }));

/** Pays the client's credit back: a refund, never more than the credit it holds. */
export function CreditRefundDialog({
  open,
  onOpenChange,
  account,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  account: TClientAccount;
}) {
  const format = useFormat();
  const digits = format.currencyDigits;
  const queryClient = useQueryClient();
  const refund = useMutation(trpc.billing.payments.refund.mutationOptions());
  const schema = useMemo(() => refundFormSchema(digits, account.credit), [digits, account.credit]);
  const values: TRefundFormInput = {
    clientId: account.client.id,
    paidOn: todayIn(format.timeZone),
    method: 'bank_transfer',
    reference: '',
    amount: amountText(account.credit, digits),
    notes: '',
  };
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={schema}
      values={values}
      submit={(v) => refund.mutateAsync(v)}
      onSaved={async (_, v) => {
        toast.success(`Refunded ${format.moneyMinor(v.amount)} to ${account.client.name}`);
        await queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
      }}
      title="Refund credit"
      description={`${account.client.name} holds ${format.moneyMinor(account.credit)} of credit.`}
      submitLabel="Record refund"
    >
      {({ register, control, formState: { errors } }) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Amount refunded" error={errors.amount?.message} required>
              <Input autoFocus inputMode="decimal" {...register('amount')} />
            </Field>
            <Field label="Paid on" error={errors.paidOn?.message} required>
              <Controller
                control={control}
                name="paidOn"
                render={({ field }) => (
                  <DatePicker {...field} value={field.value || null} clearable={false} />
                )}
              />
            </Field>
            <Field label="Method" error={errors.method?.message} required>
              <FormSelect control={control} name="method" options={METHOD_OPTIONS} />
            </Field>
            <Field label="Reference" error={errors.reference?.message}>
              <Input {...register('reference')} />
            </Field>
          </div>
          <Field label="Notes" error={errors.notes?.message}>
            <Textarea rows={2} {...register('notes')} />
          </Field>
        </>
      )}
    </RecordDialog>
  );
}
