import { createLazyFileRoute } from '@tanstack/react-router';
import { RemindersPage } from '../../../features/reminders/reminders-page';

export const Route = createLazyFileRoute('/_main/reminders/$type')({ component: RemindersPage });
