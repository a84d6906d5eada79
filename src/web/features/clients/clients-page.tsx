import { getRouteApi } from '@tanstack/react-router';
import { Button, PageHeader } from '@web/ui';
import { FileUp, Plus } from 'lucide-react';
import { useState } from 'react';
import { NoAccess, useCan } from '../shell/access';
import { ClientFormDrawer } from './client-form';
import { ClientsTable } from './clients-table';
import { ClientsExportMenu } from './export-button';
import { ClientImportDialog } from './import-dialog';

const route = getRouteApi('/_main/clients/');

export function ClientsPage() {
  const canView = useCan('clients.view');
  const canCreate = useCan('clients.create');
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const search = route.useSearch();
  if (!canView)
    return (
      <NoAccess message="Your role does not include the firm's clients. Ask the firm owner if you need them." />
    );
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        trail={[{ label: 'Clients' }]}
        title="Clients"
        description="Everyone the firm works for: search, filter and act on many at once."
        actions={
          <>
            <ClientsExportMenu search={search} />
            {canCreate ? (
              <>
                <Button variant="outline" onClick={() => setImporting(true)}>
                  <FileUp aria-hidden />
                  Import
                </Button>
                <Button onClick={() => setCreating(true)}>
                  <Plus aria-hidden />
                  New client
                </Button>
              </>
            ) : null}
          </>
        }
      />
      <ClientFormDrawer open={creating} onOpenChange={setCreating} />
      {canCreate ? <ClientImportDialog open={importing} onOpenChange={setImporting} /> : null}
      <ClientsTable onCreate={canCreate ? () => setCreating(true) : undefined} />
    </div>
  );
}
