import { getRouteApi } from '@tanstack/react-router';
import { Button } from '@web/ui';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { NoAccess, useCan } from '../shell/access';
import { RequestsList } from './requests-list';
import { SendRequestDialog } from './send-request-dialog';

const route = getRouteApi('/_main/clients/$id/requests');

/** /clients/{id}/requests: what the firm has asked this client for, and a new request. */
export function ClientRequestsPage() {
  const canView = useCan('requests.view');
  const canManage = useCan('requests.manage');
  const { id } = route.useParams();
  const search = route.useSearch();
  const [sending, setSending] = useState(false);
  if (!canView) return <NoAccess message="Your role does not include client requests." />;
  return (
    <div className="flex flex-col gap-4">
      {canManage ? (
        <div className="flex justify-end">
          <Button onClick={() => setSending(true)}>
            <Plus aria-hidden /> New request
          </Button>
          <SendRequestDialog clientId={id} open={sending} onOpenChange={setSending} />
        </div>
      ) : null}
      <RequestsList search={search} clientId={id} />
    </div>
  );
}
