import { createFileRoute } from '@tanstack/react-router';
import { parseMessagesSearch } from '../../../features/messages/messages-search';

/** /messages: the firm's inbox (?view=mine|unassigned|unread, ?q=, ?thread= the open one). */
export const Route = createFileRoute('/_main/messages/')({ validateSearch: parseMessagesSearch });
