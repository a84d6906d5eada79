import { createFileRoute } from '@tanstack/react-router';
import { ensureValidRoute, guard } from '../../../lib/route-guard';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The link's token: a string of at most 200 characters, or none. Anything else fails the route as
 * the zod schema it replaces did (no zod on the first page).
 */
function parseSignSearch(search: Record<string, unknown>): { t?: string } {
  const t = search.t;
  if (t === undefined) return {};
  if (typeof t !== 'string' || t.length > 200) throw new Error('This signing link is not valid');
  return { t };
}

/** Public: a proposal's signer opens it from the mailed link (the server checks the link). */
export const Route = createFileRoute('/_auth/sign/$proposalId/$signerId')({
  validateSearch: parseSignSearch,
  beforeLoad: ({ location, params }) => {
    ensureValidRoute(UUID.test(params.proposalId) && UUID.test(params.signerId));
    guard(location, { isPublic: true, skipRedirect: true });
  },
});
