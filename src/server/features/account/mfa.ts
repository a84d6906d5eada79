import { TRPCError } from '@trpc/server';
import type { TMfaStatus } from '../../../domain/mfa';
import { actorOf, mfaRuleOfMember, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb, TExecutor } from '../../db/client';
import { replaceRecoveryCodes, totpStateOf } from '../../idp/recovery-codes';
import { audit } from '../system-log';
import { secretBox } from '../vault';

// The member's own two-step sign-in as the app sees it: the firm's rule and the recovery codes.
// The authenticator itself is set up and turned on or off with the identity provider (Amplify's
// setUpTOTP / verifyTOTPSetup / updateMFAPreference), which logs those changes.

type TCaller = { scope: TScope; sub: string; config: TConfig };

export async function mfaStatus(db: TExecutor, { scope, sub, config }: TCaller): Promise<TMfaStatus> {
  const rule = await mfaRuleOfMember(db, scope.orgId, scope.memberId);
  const available = config.idp.mode === 'embedded';
  const state = available
    ? await totpStateOf(db, sub)
    : { enabled: false, emailEnabled: false, recoveryCodesLeft: 0 };
  const enabled = state.enabled || state.emailEnabled;
  return {
    enabled,
    totpEnabled: state.enabled,
    emailEnabled: state.emailEnabled,
    required: rule.covered,
    dueAt: enabled ? null : rule.dueAt,
    overdue: !enabled && rule.pastGrace,
    recoveryCodesLeft: state.recoveryCodesLeft,
    available,
  };
}

/** Ten new recovery codes, shown once; the earlier ones stop working. */
export async function regenerateRecoveryCodes(db: TDb, { scope, sub, config }: TCaller, meta: TRequestMeta) {
  if (config.idp.mode !== 'embedded')
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Recovery codes need the built-in sign-in' });
  return db.transaction(async (tx) => {
    const { enabled, emailEnabled } = await totpStateOf(tx, sub);
    if (!enabled && !emailEnabled)
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'Turn on two-step sign-in before making recovery codes',
      });
    const codes = await replaceRecoveryCodes(tx, secretBox(config, tx), sub);
    await audit(tx, actorOf(scope, meta), {
      action: 'member.recovery_codes',
      recordType: 'member',
      recordId: scope.memberId,
      summary: 'Made a new set of recovery codes (the earlier ones no longer work)',
    });
    return { codes };
  });
}
