import { getRouteApi } from '@tanstack/react-router';
import { NoAccess, useCan } from '../shell/access';
import { ForwardingAddress } from './forwarding-address';
import { MessagesView } from './messages-view';
import { NewThreadButton } from './new-thread-dialog';

const route = getRouteApi('/_main/clients/$id/messages');

/** /clients/{id}/messages: this client's conversations (the client layout loads the client). */
export function ClientMessagesPage() {
  const canView = useCan('clients.view');
  const { id } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  if (!canView) return <NoAccess message="Your role does not include the firm's clients." />;
  const go = (next: typeof search) => void navigate({ search: next });
  return (
    <div className="flex flex-col gap-3">
      <ForwardingAddress clientId={id} />
      <MessagesView
        search={search}
        clientId={id}
        onSearch={go}
        actions={<NewThreadButton clientId={id} onCreated={(thread) => go({ thread })} />}
      />
    </div>
  );
}
