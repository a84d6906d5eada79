import { getRouteApi } from '@tanstack/react-router';
import { EmptyState } from '@web/ui';
import { ClipboardList } from 'lucide-react';
import { NoAccess, useCan } from '../shell/access';
import { RequestsList } from './requests-list';

const route = getRouteApi('/_main/clients/$id/requests');

/** /clients/{id}/requests: what the firm has asked this client for (New request is in the client's header). */
export function ClientRequestsPage() {
  const canView = useCan('requests.view');
  const { id } = route.useParams();
  const search = route.useSearch();
  if (!canView) return <NoAccess message="Your role does not include client requests." />;
  return (
    <RequestsList
      search={search}
      clientId={id}
      empty={
        <EmptyState
          icon={ClipboardList}
          title="Nothing asked of this client yet"
          message="Ask for documents and answers with New request."
        />
      }
    />
  );
}
