import { ZSendForm } from '@domain/billing/invoices';
import { useMutation } from '@tanstack/react-query';
import { Field, RecordDialog, Textarea, toast } from '@web/ui';
import { trpc } from '../../../lib/trpc';
import type { TInvoiceDetail } from './invoice-page';

/**
 * Send (or resend) an issued invoice, or issue a draft and send it in one go: the PDF goes to each
 * address with a link to the client's portal. The client's billing contacts are offered first.
 */
export function SendDialog({
  open,
  onOpenChange,
  detail,
  issue = false,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  detail: TInvoiceDetail;
  issue?: boolean;
  onDone: () => unknown;
}) {
  const send = useMutation(trpc.billing.invoices.send.mutationOptions());
  const issueAndSend = useMutation(trpc.billing.invoices.issueAndSend.mutationOptions());
  const { invoice } = detail;
  const again = !!invoice.sentAt;
  const what = invoice.kind === 'credit_note' ? 'credit note' : 'invoice';
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={ZSendForm}
      values={{ to: detail.recipients.join(', ') }}
      submit={(v) =>
        issue
          ? issueAndSend.mutateAsync({ invoiceId: invoice.id, to: v.to })
          : send
              .mutateAsync({ invoiceId: invoice.id, to: v.to })
              .then((r) => ({ ...r, number: invoice.number }))
      }
      onSaved={async (r) => {
        toast.success(`${issue ? `Issued ${r.number} and queued` : 'Queued'} for ${r.to.join(', ')}`);
        await onDone();
      }}
      title={issue ? `Issue and send this ${what}` : `${again ? 'Send again' : 'Send'} ${invoice.number}`}
      description={`The PDF goes to each address, with a link to the client's portal.${issue ? ' Issuing gives it the next number; it can no longer be changed.' : ''}`}
      submitLabel={issue ? 'Issue and send' : again ? 'Send again' : 'Send'}
    >
      {({ register, formState: { errors } }) => (
        <Field
          label="To"
          hint={
            detail.recipients.length
              ? "The client's billing contacts (or its email). Separate addresses with commas."
              : 'The client has no billing contact or email: type one. Separate addresses with commas.'
          }
          error={errors.to?.message}
          required
        >
          <Textarea rows={2} {...register('to')} />
        </Field>
      )}
    </RecordDialog>
  );
}
