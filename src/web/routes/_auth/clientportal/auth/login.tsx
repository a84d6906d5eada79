import { safeReturnPath } from '@domain/route-guard';
import { createFileRoute } from '@tanstack/react-router';
import { guard } from '../../../../lib/route-guard';

/** Public: someone already signed in to the portal goes to the portal (SPEC.md §4). */
export const Route = createFileRoute('/_auth/clientportal/auth/login')({
  // `?next=`: the portal page the person asked for before being sent to sign in.
  validateSearch: (search: Record<string, unknown>): { next?: string } => {
    // Always set: the router keeps a raw parameter that validation leaves out.
    return { next: safeReturnPath(search.next, 'portal') ?? undefined };
  },
  beforeLoad: ({ location }) => guard(location, { isPublic: true }),
});
