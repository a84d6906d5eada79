import { parseSignedOutReason, type TSignedOutReason } from '@domain/signed-out';
import { createFileRoute } from '@tanstack/react-router';
import { parseInviteSearch, type TInviteSearch } from '../../lib/invite-search';
import { guard } from '../../lib/route-guard';

export const Route = createFileRoute('/auth/login')({
  // `?reason=`: why the app signed this person out (a turned-off member), shown beside the form.
  validateSearch: (search: Record<string, unknown>): TInviteSearch & { reason?: TSignedOutReason } => {
    const reason = parseSignedOutReason(search.reason);
    return { ...parseInviteSearch(search), ...(reason ? { reason } : {}) };
  },
  beforeLoad: ({ location }) => guard(location, { isPublic: true }),
});
