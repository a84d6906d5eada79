import { getRouteApi } from '@tanstack/react-router';
import { Button, PageHeader } from '@web/ui';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { NoAccess, useCan } from '../../shell/access';
import { InvoicesExportMenu } from './invoices-export-menu';
import { InvoicesList } from './invoices-list';
import { NewInvoiceDialog } from './new-invoice-dialog';

const route = getRouteApi('/_main/billing/invoices/');

/** /billing/invoices: every invoice and credit note the member may see. */
export function InvoicesPage() {
  const canView = useCan('billing.view');
  const canManage = useCan('billing.manage');
  const [creating, setCreating] = useState(false);
  const search = route.useSearch();
  if (!canView)
    return <NoAccess message="Your role does not include billing. Ask the firm owner if you need it." />;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Billing' }, { label: 'Invoices' }]}
        title="Invoices"
        description="Drafts, issued invoices and credit notes: what each client owes, and what is overdue."
        actions={
          <>
            <InvoicesExportMenu search={search} />
            {canManage ? (
              <Button onClick={() => setCreating(true)}>
                <Plus aria-hidden />
                New invoice
              </Button>
            ) : null}
          </>
        }
      />
      {canManage ? <NewInvoiceDialog open={creating} onOpenChange={setCreating} /> : null}
      <InvoicesList search={search} />
    </div>
  );
}
