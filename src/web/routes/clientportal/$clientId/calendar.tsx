import { createFileRoute } from '@tanstack/react-router';
import { loadOrNotFound } from '../../../features/client-portal/load';

/** /clientportal/{clientId}/calendar: the client's statutory filings for a year (issue 39). */
export const Route = createFileRoute('/clientportal/$clientId/calendar')({
  loader: ({ context, params }) =>
    loadOrNotFound(() =>
      context.queryClient.ensureQueryData(
        context.trpc.clientPortalCalendar.get.queryOptions({ clientId: params.clientId }),
      ),
    ),
});
