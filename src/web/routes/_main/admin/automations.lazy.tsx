import { createLazyFileRoute } from '@tanstack/react-router';
import { AutomationsPage } from '../../../features/automations/automations-page';

export const Route = createLazyFileRoute('/_main/admin/automations')({
  component: AutomationsPage,
});
