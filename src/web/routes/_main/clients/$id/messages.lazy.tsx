import { createLazyFileRoute } from '@tanstack/react-router';
import { ClientMessagesPage } from '../../../../features/messages/client-messages-page';

export const Route = createLazyFileRoute('/_main/clients/$id/messages')({ component: ClientMessagesPage });
