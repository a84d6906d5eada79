import { createFileRoute } from '@tanstack/react-router';
import { parsePortalMessagesSearch } from '../../../features/messages/portal-messages-search';

/** /clientportal/{clientId}/messages: the person's conversations with the firm (?thread= opens one). */
export const Route = createFileRoute('/clientportal/$clientId/messages')({
  validateSearch: parsePortalMessagesSearch,
});
