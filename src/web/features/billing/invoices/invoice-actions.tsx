import { OPEN_STATUSES } from '@domain/billing/constants';
import { invoicePdfPath } from '@domain/billing/invoice-list';
import { useQueryClient } from '@tanstack/react-query';
import { Button, toast } from '@web/ui';
import { Ban, Banknote, Download, FileMinus, Send } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../../lib/trpc';
import { saveFile } from '../../documents/file-transfer';
import { useCan } from '../../shell/access';
import { PaymentRecordDialog } from '../payments/payment-record-dialog';
import { CreditNoteDialog } from './credit-note-dialog';
import type { TInvoiceDetail } from './invoice-page';
import { SendDialog } from './invoice-send-dialog';
import { VoidDialog } from './void-dialog';

/**
 * What can be done to an issued invoice or credit note: its PDF, record a payment against it, mail
 * it, credit it, void it.
 */
export function InvoiceActions({ detail }: { detail: TInvoiceDetail }) {
  const canManage = useCan('billing.manage');
  const canCollect = useCan('billing.collect');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'pay' | 'send' | 'credit' | 'void' | null>(null);
  const [downloading, setDownloading] = useState(false);
  const { invoice } = detail;
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.billing.invoices.get.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.billing.invoices.list.queryKey() });
  };
  const download = async () => {
    setDownloading(true);
    try {
      await saveFile(invoicePdfPath(invoice.id), `${(invoice.number ?? 'draft').replace(/\//g, '-')}.pdf`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Network Error');
    } finally {
      setDownloading(false);
    }
  };
  const live = invoice.status !== 'draft' && invoice.status !== 'void';
  const payable =
    invoice.kind === 'invoice' &&
    (OPEN_STATUSES as readonly string[]).includes(invoice.status) &&
    invoice.balance > 0;
  const setOpenState = (which: typeof open) => (o: boolean) => setOpen(o ? which : null);
  return (
    <>
      {canCollect && payable ? (
        <>
          <Button onClick={() => setOpen('pay')}>
            <Banknote aria-hidden /> Record payment
          </Button>
          <PaymentRecordDialog
            open={open === 'pay'}
            onOpenChange={setOpenState('pay')}
            invoice={{ id: invoice.id, clientId: invoice.clientId, balance: invoice.balance }}
          />
        </>
      ) : null}
      <Button variant="outline" onClick={download} loading={downloading}>
        <Download aria-hidden /> Download PDF
      </Button>
      {canManage && live ? (
        <>
          <Button variant="outline" onClick={() => setOpen('send')}>
            <Send aria-hidden /> {invoice.sentAt ? 'Resend' : 'Send'}
          </Button>
          {invoice.kind === 'invoice' ? (
            <Button variant="outline" onClick={() => setOpen('credit')}>
              <FileMinus aria-hidden /> Raise credit note
            </Button>
          ) : null}
          <Button variant="ghost" onClick={() => setOpen('void')}>
            <Ban aria-hidden /> Void
          </Button>
          <SendDialog
            open={open === 'send'}
            onOpenChange={setOpenState('send')}
            detail={detail}
            onDone={refresh}
          />
          <CreditNoteDialog
            open={open === 'credit'}
            onOpenChange={setOpenState('credit')}
            detail={detail}
            onDone={refresh}
          />
          <VoidDialog
            open={open === 'void'}
            onOpenChange={setOpenState('void')}
            detail={detail}
            onDone={refresh}
          />
        </>
      ) : null}
    </>
  );
}
