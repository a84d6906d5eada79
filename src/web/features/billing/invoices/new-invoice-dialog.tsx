import { ZNewInvoice } from '@domain/billing/invoices';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Field, RecordDialog, toast } from '@web/ui';
import { Controller } from 'react-hook-form';
import { trpc } from '../../../lib/trpc';
import { BillingClientPicker } from './billing-client-picker';

/** New invoice: choose the client; an empty draft opens in the editor. */
export function NewInvoiceDialog({
  open,
  onOpenChange,
  clientId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** From a client's Billing tab: that client, already chosen. */
  clientId?: string;
}) {
  const go = useNavigate();
  const create = useMutation(trpc.billing.invoices.create.mutationOptions());
  return (
    <RecordDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={ZNewInvoice}
      values={{ clientId: clientId ?? '' }}
      submit={(v) => create.mutateAsync({ clientId: v.clientId })}
      onSaved={async (draft) => {
        toast.success('Draft started: add its lines');
        await go({ to: '/billing/invoices/$id', params: { id: draft.id } });
      }}
      title="New invoice"
      description="A draft has no number until it is issued; edit it as long as you need."
      submitLabel="Start draft"
      size="sm"
    >
      {({ control, formState: { errors } }) => (
        <Field label="Client" error={errors.clientId?.message} required>
          <Controller
            control={control}
            name="clientId"
            render={({ field }) => (
              <BillingClientPicker
                autoFocus
                value={field.value || null}
                onChange={(id) => field.onChange(id ?? '')}
              />
            )}
          />
        </Field>
      )}
    </RecordDialog>
  );
}
