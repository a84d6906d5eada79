import { createLazyFileRoute } from '@tanstack/react-router';
import { BroadcastTemplatesPage } from '../../../../features/broadcasts/templates-page';

export const Route = createLazyFileRoute('/_main/admin/templates/broadcasts')({
  component: BroadcastTemplatesPage,
});
