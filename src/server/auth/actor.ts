import type { TPortalClientAccess } from './portal-session';
import type { TRequestMeta, TScope } from './scope';

/** Who a system-log row names: a member, a client user through the portal, or the product itself. */
export type TActor =
  | { kind: 'member'; orgId: string; memberId: string; meta?: TRequestMeta }
  | { kind: 'client_user'; orgId: string; clientUserId: string; meta?: TRequestMeta }
  | { kind: 'system'; orgId: string }
  /** A firm's automation rule (issue 41): the log row says "by rule <name>". */
  | { kind: 'automation'; orgId: string; ruleId: string; ruleName: string };

export const actorOf = (scope: Pick<TScope, 'orgId' | 'memberId'>, meta?: TRequestMeta) =>
  ({ kind: 'member', orgId: scope.orgId, memberId: scope.memberId, meta }) as const satisfies TActor;

export const portalActorOf = (
  access: Pick<TPortalClientAccess, 'orgId' | 'clientUserId'>,
  meta?: TRequestMeta,
) =>
  ({
    kind: 'client_user',
    orgId: access.orgId,
    clientUserId: access.clientUserId,
    meta,
  }) as const satisfies TActor;
