import { TRPCError } from '@trpc/server';
import type { TIssueLink } from '../../../domain/signed-links';
import { requirePermission, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { canonicalResource, signLink } from '../../http/signed-links';
import { secretBox } from '../vault';
import { linkableOf } from './purposes';

const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: 'File not found' });

/**
 * A short-lived link to one staff file route for the signed-in member: the route's permission and
 * its check on the object pass now (else the same answer the route would give), and the link opens
 * that path and query only, for this member and sign-in, within minutes.
 */
export async function issueLink(
  db: TDb,
  config: Pick<TConfig, 'vault'>,
  who: { scope: TScope; sub: string; originJti: string | null },
  input: TIssueLink,
) {
  const resource = canonicalResource(input.path);
  if (!resource) throw notFound();
  const [pathname = '', search = ''] = resource.split('?');
  const found = linkableOf(pathname);
  if (!found) throw notFound();
  const { linkable, ids } = found;
  if (linkable.permission) requirePermission(who.scope, linkable.permission);
  await linkable.check?.(db, who.scope, ids, new URLSearchParams(search));
  const box = secretBox(config, db);
  return signLink((data) => box.mac(data), {
    o: who.scope.orgId,
    m: who.scope.memberId,
    s: who.sub,
    j: who.originJti ?? '',
    p: linkable.purpose,
    r: resource,
  });
}
