import { createFileRoute } from '@tanstack/react-router';
import { parseMessagesSearch } from '../../../../features/messages/messages-search';
import { ensureValidRoute, isUuid } from '../../../../lib/route-guard';

/** /clients/{id}/messages: the Messages tab of the client layout (which loads the client itself). */
export const Route = createFileRoute('/_main/clients/$id/messages')({
  validateSearch: parseMessagesSearch,
  beforeLoad: ({ params }) => ensureValidRoute(isUuid(params.id)),
});
