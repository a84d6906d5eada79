import { safeReturnPath } from '@domain/route-guard';
import { parseSignedOutReason, type TSignedOutReason } from '@domain/signed-out';
import { createFileRoute } from '@tanstack/react-router';
import { parseInviteSearch, type TInviteSearch } from '../../lib/invite-search';
import { guard } from '../../lib/route-guard';

export const Route = createFileRoute('/auth/login')({
  // `?reason=`: why the app signed this person out (a turned-off member), shown beside the form;
  // `?next=`: the page the person asked for before being sent to sign in.
  validateSearch: (
    search: Record<string, unknown>,
  ): TInviteSearch & { reason?: TSignedOutReason; next?: string } => {
    const reason = parseSignedOutReason(search.reason);
    const next = safeReturnPath(search.next, 'staff');
    // `next` always set: the router keeps a raw parameter that validation leaves out, so an unsafe
    // one is overwritten rather than omitted.
    return { ...parseInviteSearch(search), ...(reason ? { reason } : {}), next: next ?? undefined };
  },
  beforeLoad: ({ location }) => guard(location, { isPublic: true }),
});
