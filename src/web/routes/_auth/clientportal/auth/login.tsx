import { createFileRoute } from '@tanstack/react-router';
import { guard } from '../../../../lib/route-guard';

/** Public: someone already signed in to the portal goes to the portal (SPEC.md §4). */
export const Route = createFileRoute('/_auth/clientportal/auth/login')({
  beforeLoad: ({ location }) => guard(location, { isPublic: true }),
});
