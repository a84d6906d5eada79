import { ZPaymentReverse } from '@domain/billing/payments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Field, Input, RecordDialog, toast, useFormat } from '@web/ui';
import { trpc } from '../../../lib/trpc';
import type { TPaymentDetail } from './payment-page';

const ZReverseForm = ZPaymentReverse.pick({ reason: true });

/**
 * Reverse with a reason: a payment is never deleted. Its allocations are taken back, so the invoices
 * it settled are owed again; it stays listed, marked reversed.
 */
export function PaymentReverseDialog({
  open,
  onOpenChange,
  payment,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  payment: TPaymentDetail;
}) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const reverse = useMutation(trpc.billing.payments.reverse.mutationOptions());
  const what = payment.kind === 'refund' ? 'refund' : 'payment';
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={ZReverseForm}
      values={{ reason: '' }}
      submit={(v) => reverse.mutateAsync({ paymentId: payment.id, reason: v.reason })}
      onSaved={async () => {
        toast.success(`Reversed the ${what} of ${format.moneyMinor(payment.amount)}`);
        await queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
      }}
      title={`Reverse this ${what}?`}
      description={
        payment.kind === 'refund'
          ? `The ${format.moneyMinor(payment.amount)} goes back to ${payment.client.name}'s credit. The refund stays listed, marked reversed.`
          : `The invoices it settled are owed again and its credit is gone. It stays listed, marked reversed.`
      }
      submitLabel={`Reverse ${what}`}
      size="sm"
    >
      {({ register, formState: { errors } }) => (
        <Field label="Reason" error={errors.reason?.message} required>
          <Input autoFocus placeholder="Cheque bounced, recorded twice…" {...register('reason')} />
        </Field>
      )}
    </RecordDialog>
  );
}
