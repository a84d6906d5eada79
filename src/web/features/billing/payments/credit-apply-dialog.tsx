import { autoAllocate } from '@domain/billing/allocation';
import { creditApplyFormSchema, type TCreditApplyFormInput } from '@domain/billing/payment-form';
import { amountText, type TCreditApply } from '@domain/billing/payments';
import { todayIn } from '@domain/days';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DatePicker, Field, RecordDialog, type TRecordForm, toast, useFormat } from '@web/ui';
import { useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { trpc } from '../../../lib/trpc';
import { AllocationRows, type TClientAccount } from './allocation-rows';

/** Applies the client's credit (advances, what payments left over, credit notes) to its open invoices. */
export function CreditApplyDialog({
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
  const apply = useMutation(trpc.billing.payments.applyCredit.mutationOptions());
  const schema = useMemo(() => creditApplyFormSchema(digits, account.credit), [digits, account.credit]);
  const invoices = account.openInvoices;
  const filled = () =>
    autoAllocate(invoices, account.credit).map((minor, i) => ({
      invoiceId: invoices[i]?.id ?? '',
      balance: invoices[i]?.balance ?? 0,
      amount: minor ? amountText(minor, digits) : '',
    }));
  const values: TCreditApplyFormInput = {
    clientId: account.client.id,
    appliedOn: todayIn(format.timeZone),
    allocations: filled(),
  };
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={schema}
      values={values}
      submit={(v) => apply.mutateAsync(v)}
      onSaved={async (result) => {
        toast.success(`Applied ${format.moneyMinor(result.applied)} of credit`);
        await queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
      }}
      title="Apply credit"
      description={`${account.client.name} holds ${format.moneyMinor(account.credit)} of credit: set it against open invoices, oldest first.`}
      submitLabel="Apply credit"
      size="lg"
    >
      {(form) => (
        <>
          <Field label="Applied on" error={form.formState.errors.appliedOn?.message} required>
            <Controller
              control={form.control}
              name="appliedOn"
              render={({ field }) => <DatePicker {...field} value={field.value || null} clearable={false} />}
            />
          </Field>
          <CreditRows
            form={form}
            account={account}
            onRefill={() => form.setValue('allocations', filled(), { shouldDirty: true })}
          />
        </>
      )}
    </RecordDialog>
  );
}

function CreditRows({
  form,
  account,
  onRefill,
}: {
  form: TRecordForm<TCreditApplyFormInput, TCreditApply>;
  account: TClientAccount;
  onRefill: () => void;
}) {
  const rows = useWatch({ control: form.control, name: 'allocations' });
  const errors = form.formState.errors;
  return (
    <AllocationRows
      invoices={account.openInvoices}
      amounts={rows.map((r) => r.amount)}
      available={account.credit}
      inputProps={(i) => form.register(`allocations.${i}.amount`)}
      rowError={(i) => errors.allocations?.[i]?.amount?.message}
      error={errors.allocations?.message ?? errors.allocations?.root?.message}
      onRefill={onRefill}
      leftLabel="of credit stays with the client"
    />
  );
}
