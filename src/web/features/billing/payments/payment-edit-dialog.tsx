import { ZPaymentUpdate } from '@domain/billing/payments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Checkbox, Field, Input, RecordDialog, Textarea, toast } from '@web/ui';
import { Controller } from 'react-hook-form';
import { trpc } from '../../../lib/trpc';
import type { TPaymentDetail } from './payment-page';

const ZEditForm = ZPaymentUpdate.omit({ paymentId: true });

/** A payment's paperwork: its reference, notes, TDS section and certificate. Its money is reversed, never edited. */
export function PaymentEditDialog({
  open,
  onOpenChange,
  payment,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  payment: TPaymentDetail;
}) {
  const queryClient = useQueryClient();
  const update = useMutation(trpc.billing.payments.update.mutationOptions());
  const tds = payment.tdsAmount > 0;
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={ZEditForm}
      values={{
        reference: payment.reference,
        notes: payment.notes,
        tdsSection: payment.tdsSection ?? '',
        tdsCertificateReceived: payment.tdsCertificateReceived,
      }}
      submit={(v) => update.mutateAsync({ paymentId: payment.id, ...v })}
      onSaved={async () => {
        toast.success('Payment saved');
        await queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
      }}
      title="Edit payment"
      description="Its amounts stay as recorded: a wrong amount is reversed and recorded again."
      submitLabel="Save"
    >
      {({ register, control, formState: { errors } }) => (
        <>
          <Field label="Reference" error={errors.reference?.message}>
            <Input autoFocus {...register('reference')} />
          </Field>
          {tds ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="TDS section" hint="194J, 194C…" error={errors.tdsSection?.message}>
                <Input {...register('tdsSection')} />
              </Field>
              <div className="flex items-end pb-2">
                <Controller
                  control={control}
                  name="tdsCertificateReceived"
                  render={({ field }) => (
                    <Checkbox
                      label="TDS certificate received"
                      checked={field.value}
                      onCheckedChange={(v) => field.onChange(v === true)}
                    />
                  )}
                />
              </div>
            </div>
          ) : null}
          <Field label="Notes" error={errors.notes?.message}>
            <Textarea rows={3} {...register('notes')} />
          </Field>
        </>
      )}
    </RecordDialog>
  );
}
