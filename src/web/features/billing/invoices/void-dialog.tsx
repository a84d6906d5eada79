import { ZInvoiceVoid } from '@domain/billing/schemas';
import { useMutation } from '@tanstack/react-query';
import { Field, Input, RecordDialog, toast } from '@web/ui';
import { trpc } from '../../../lib/trpc';
import type { TInvoiceDetail } from './invoice-page';

const ZVoidForm = ZInvoiceVoid.pick({ reason: true });

/**
 * Void with a reason: the number stays, shown void. Refused (the server says why) while payments or
 * credit notes are allocated to it.
 */
export function VoidDialog({
  open,
  onOpenChange,
  detail,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  detail: TInvoiceDetail;
  onDone: () => unknown;
}) {
  const voided = useMutation(trpc.billing.invoices.void.mutationOptions());
  const { invoice } = detail;
  const what = invoice.kind === 'credit_note' ? 'credit note' : 'invoice';
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={ZVoidForm}
      values={{ reason: '' }}
      submit={(v) => voided.mutateAsync({ invoiceId: invoice.id, reason: v.reason })}
      onSaved={async () => {
        toast.success(`${invoice.number} is void`);
        await onDone();
      }}
      title={`Void ${invoice.number}?`}
      description={
        invoice.kind === 'credit_note'
          ? 'The credit note stops counting: the invoice it settled is owed again. Its number stays, shown void.'
          : 'Nothing is owed on it any more and what it billed is back in work in progress. Its number stays, shown void.'
      }
      submitLabel={`Void ${what}`}
      size="sm"
    >
      {({ register, formState: { errors } }) => (
        <Field label="Reason" error={errors.reason?.message} required>
          <Input autoFocus placeholder="Raised twice, wrong client…" {...register('reason')} />
        </Field>
      )}
    </RecordDialog>
  );
}
