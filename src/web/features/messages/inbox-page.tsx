import { getRouteApi } from '@tanstack/react-router';
import { PageHeader } from '@web/ui';
import { NoAccess, useCan } from '../shell/access';
import { HeldMail } from './held-mail';
import { MessagesView } from './messages-view';

const route = getRouteApi('/_main/messages/');

/** /messages: the firm's conversations with its clients. */
export function InboxPage() {
  const canView = useCan('clients.view');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  if (!canView) return <NoAccess message="Your role does not include the firm's clients." />;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4 p-4 sm:p-6">
      <PageHeader
        title="Messages"
        description="Conversations with clients, their files and the firm’s notes"
      />
      <HeldMail onReleased={(thread) => void navigate({ search: { ...search, thread } })} />
      <MessagesView search={search} onSearch={(next) => void navigate({ search: next })} />
    </div>
  );
}
