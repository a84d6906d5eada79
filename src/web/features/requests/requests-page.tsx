import { getRouteApi, Link } from '@tanstack/react-router';
import { Button, PageHeader } from '@web/ui';
import { LayoutTemplate } from 'lucide-react';
import { NoAccess, useCan } from '../shell/access';
import { RequestsList } from './requests-list';

const route = getRouteApi('/_main/requests/');

/** /requests: every request the firm has sent or drafted, for the clients the member may see. */
export function RequestsPage() {
  const canView = useCan('requests.view');
  const search = route.useSearch();
  if (!canView)
    return (
      <NoAccess message="Your role does not include client requests. Ask the firm owner if you need it." />
    );
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 p-4 sm:p-6">
      <PageHeader
        title="Requests"
        description="Documents and answers asked of clients: what waits on them, what waits on review."
        actions={
          <Button asChild variant="secondary">
            <Link to="/admin/templates/requests">
              <LayoutTemplate aria-hidden /> Templates
            </Link>
          </Button>
        }
      />
      <RequestsList search={search} />
    </div>
  );
}
