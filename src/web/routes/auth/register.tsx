import { createFileRoute } from '@tanstack/react-router';
import { parseInviteSearch } from '../../lib/invite-search';
import { guard } from '../../lib/route-guard';

export const Route = createFileRoute('/auth/register')({
  validateSearch: parseInviteSearch,
  beforeLoad: ({ location }) => guard(location, { isPublic: true }),
});
