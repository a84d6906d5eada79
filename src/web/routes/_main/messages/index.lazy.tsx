import { createLazyFileRoute } from '@tanstack/react-router';
import { InboxPage } from '../../../features/messages/inbox-page';

export const Route = createLazyFileRoute('/_main/messages/')({ component: InboxPage });
