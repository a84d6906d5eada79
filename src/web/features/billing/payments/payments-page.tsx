import { getRouteApi } from '@tanstack/react-router';
import { Button, PageHeader } from '@web/ui';
import { Banknote } from 'lucide-react';
import { useState } from 'react';
import { NoAccess, useCan } from '../../shell/access';
import { PaymentRecordDialog } from './payment-record-dialog';
import { PaymentsExportMenu } from './payments-export-menu';
import { PaymentsList } from './payments-list';

const route = getRouteApi('/_main/billing/payments/');

/** /billing/payments: every payment received and refund paid that the member may see. */
export function PaymentsPage() {
  const canView = useCan('billing.view');
  const canCollect = useCan('billing.collect');
  const [recording, setRecording] = useState(false);
  const search = route.useSearch();
  if (!canView)
    return <NoAccess message="Your role does not include billing. Ask the firm owner if you need it." />;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Billing' }, { label: 'Payments' }]}
        title="Payments"
        description="Money received from clients, with the TDS they deducted, and refunds of their credit."
        actions={
          <>
            <PaymentsExportMenu search={search} />
            {canCollect ? (
              <Button onClick={() => setRecording(true)}>
                <Banknote aria-hidden />
                Record payment
              </Button>
            ) : null}
          </>
        }
      />
      {canCollect ? <PaymentRecordDialog open={recording} onOpenChange={setRecording} /> : null}
      <PaymentsList search={search} />
    </div>
  );
}
