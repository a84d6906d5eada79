import { useMutation } from '@tanstack/react-query';
import {
  Button,
  confirm,
  DISCARD_CHANGES,
  Dialog,
  DialogContent,
  Field,
  Input,
  Switch,
  toast,
  useFormat,
} from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../../lib/trpc';
import type { TInvoiceDetail } from './invoice-page';
import { TotalsTable } from './invoice-totals';
import { editLineOf, type TEditLine } from './line-form';
import { LinesEditor } from './lines-editor';
import { useLiveTotals } from './use-live-totals';

/**
 * Raise a credit note against an issued invoice: the whole of it, or lines of its own (the
 * invoice's lines to start from), taxed as the invoice was. It is issued at once with the next
 * credit-note number and settles the invoice's balance as far as it goes.
 */
export function CreditNoteDialog({
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
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <CreditNoteForm detail={detail} onClose={() => onOpenChange(false)} onDone={onDone} /> : null}
    </Dialog>
  );
}

function CreditNoteForm({
  detail,
  onClose,
  onDone,
}: {
  detail: TInvoiceDetail;
  onClose: () => void;
  onDone: () => unknown;
}) {
  const format = useFormat();
  const digits = format.currencyDigits;
  const { invoice, taxContext } = detail;
  const [reason, setReason] = useState('');
  const [full, setFull] = useState(true);
  const [lines, setLines] = useState<TEditLine[]>(() =>
    // The invoice's lines to start from, as new free lines of the credit note.
    detail.lines.map((l) => ({
      ...editLineOf(l, digits),
      id: undefined,
      kind: 'custom' as const,
      time: null,
      standardValue: 0,
      periodStart: null,
    })),
  );
  const [tried, setTried] = useState(false);
  const live = useLiveTotals(lines, taxContext, digits, tried);
  const raise = useMutation(trpc.billing.invoices.creditNote.mutationOptions());
  const credited = detail.creditNotes.filter((c) => c.status !== 'void').reduce((s, c) => s + c.total, 0);
  const left = invoice.total - credited;
  const reasonError = tried && !reason.trim() ? 'Say why the invoice is credited' : undefined;

  const submit = async () => {
    setTried(true);
    if (!reason.trim() || (!full && (live.invalid || !lines.length))) return;
    const result = await raise
      .mutateAsync({ invoiceId: invoice.id, reason, full, lines: full ? [] : live.values })
      .catch(() => null);
    if (!result) return;
    toast.success(`Issued ${result.number} for ${format.moneyMinor(result.total)}`);
    onClose();
    await onDone();
  };
  const close = async () => {
    if ((reason || !full) && !(await confirm(DISCARD_CHANGES))) return;
    onClose();
  };

  return (
    <DialogContent
      title={`Raise a credit note against ${invoice.number}`}
      description={`Left to credit: ${format.moneyMinor(left)} of ${format.moneyMinor(invoice.total)}. It is issued at once and settles what is owed on the invoice.`}
      size="xl"
      onEscapeKeyDown={(e) => {
        e.preventDefault();
        void close();
      }}
      onPointerDownOutside={(e) => {
        e.preventDefault();
        void close();
      }}
      footer={
        <>
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button onClick={submit} loading={raise.isPending}>
            Issue credit note
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <Field label="Reason" error={reasonError} required hint="Printed on the credit note">
          <Input autoFocus value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
        </Field>
        <Switch
          label={`Credit the whole invoice (${format.moneyMinor(invoice.total)})`}
          checked={full}
          onCheckedChange={setFull}
        />
        {full ? null : (
          <>
            <LinesEditor
              label="Credit note lines"
              lines={lines}
              onChange={setLines}
              amounts={live.amounts}
              errors={live.errors}
              services={null}
              defaultTaxRateBp={0}
              taxed={taxContext.regime !== 'none'}
              showDiscount={false}
            />
            {tried && !lines.length ? <p className="text-sm text-danger">Add at least one line.</p> : null}
            <TotalsTable totals={live.totals} className="self-end" />
          </>
        )}
      </div>
    </DialogContent>
  );
}
