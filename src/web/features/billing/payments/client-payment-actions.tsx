import { Link } from '@tanstack/react-router';
import { Button } from '@web/ui';
import { Banknote, HandCoins, Undo2 } from 'lucide-react';
import { useState } from 'react';
import { useCan } from '../../shell/access';
import type { TClientAccount } from './allocation-rows';
import { CreditApplyDialog } from './credit-apply-dialog';
import { CreditRefundDialog } from './credit-refund-dialog';
import { PaymentRecordDialog } from './payment-record-dialog';

/**
 * A client's money actions on its Billing tab: record a payment from it, apply its credit to open
 * invoices, refund its credit; and its payments on the payments list. Changes need billing.collect.
 */
export function ClientPaymentActions({ clientId, account }: { clientId: string; account?: TClientAccount }) {
  const canCollect = useCan('billing.collect');
  const [open, setOpen] = useState<'pay' | 'apply' | 'refund' | null>(null);
  const state = (which: typeof open) => (o: boolean) => setOpen(o ? which : null);
  const credit = account?.credit ?? 0;
  return (
    <>
      <Button variant="outline" asChild>
        <Link to="/billing/payments" search={{ clientId }}>
          Payments
        </Link>
      </Button>
      {canCollect ? (
        <>
          {account && credit > 0 && account.openInvoices.length > 0 ? (
            <Button variant="outline" onClick={() => setOpen('apply')}>
              <HandCoins aria-hidden /> Apply credit
            </Button>
          ) : null}
          {account && credit > 0 ? (
            <Button variant="outline" onClick={() => setOpen('refund')}>
              <Undo2 aria-hidden /> Refund credit
            </Button>
          ) : null}
          <Button variant="outline" onClick={() => setOpen('pay')}>
            <Banknote aria-hidden /> Record payment
          </Button>
          <PaymentRecordDialog open={open === 'pay'} onOpenChange={state('pay')} clientId={clientId} />
          {account ? (
            <>
              <CreditApplyDialog open={open === 'apply'} onOpenChange={state('apply')} account={account} />
              <CreditRefundDialog open={open === 'refund'} onOpenChange={state('refund')} account={account} />
            </>
          ) : null}
        </>
      ) : null}
    </>
  );
}
