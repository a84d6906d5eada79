import { randomInt } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import { normaliseRecoveryCode, RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT } from '../../domain/mfa';
import type { TExecutor } from '../db/client';
import { idpRecoveryCodes, idpUsers } from '../db/schema';
import type { TIdpSecrets } from './deps';

// Recovery codes (Cognito has none; a lost phone there needs an administrator): ten random codes
// of 50 bits, shown once, stored as an HMAC under the server's keyed-hash key (sealed by the vault's
// master key): 50 bits under a plain hash would fall to a GPU within hours, so a copy of the database
// alone must not be able to test guesses. The key outlives master key rotation, and so do the codes.
// Each is spent by one sign-in; a new set replaces the old.

type TMac = Pick<TIdpSecrets, 'mac'>;

const hashOf = (secrets: TMac, userId: string, code: string) =>
  secrets.mac(`idp.recovery\u0000${userId}\u0000${normaliseRecoveryCode(code)}`);

function newCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A fresh set for the user, replacing every earlier code; the caller shows them once. */
export async function replaceRecoveryCodes(tx: TExecutor, secrets: TMac, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await tx.delete(idpRecoveryCodes).where(eq(idpRecoveryCodes.userId, userId));
  await tx
    .insert(idpRecoveryCodes)
    .values(
      await Promise.all(
        codes.map(async (code) => ({ userId, codeHash: await hashOf(secrets, userId, code) })),
      ),
    );
  return codes;
}

/** Spends the code if it is one of the user's unused ones: the count left, or null. */
export async function spendRecoveryCode(
  db: TExecutor,
  secrets: TMac,
  userId: string,
  code: string,
): Promise<number | null> {
  const spent = await db
    .update(idpRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(idpRecoveryCodes.userId, userId),
        eq(idpRecoveryCodes.codeHash, await hashOf(secrets, userId, code)),
        isNull(idpRecoveryCodes.usedAt),
      ),
    )
    .returning({ userId: idpRecoveryCodes.userId });
  return spent.length ? recoveryCodesLeft(db, userId) : null;
}

export async function recoveryCodesLeft(db: TExecutor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(idpRecoveryCodes)
    .where(and(eq(idpRecoveryCodes.userId, userId), isNull(idpRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** The user's authenticator state, for the app's account screen. */
export async function totpStateOf(db: TExecutor, userId: string) {
  const [row] = await db
    .select({ enabled: idpUsers.totpEnabled, email: idpUsers.emailMfaEnabled })
    .from(idpUsers)
    .where(eq(idpUsers.id, userId));
  return {
    enabled: row?.enabled === true,
    emailEnabled: row?.email === true,
    recoveryCodesLeft: row ? await recoveryCodesLeft(db, userId) : 0,
  };
}

/**
 * An administrator's reset (a lost phone, no recovery codes left): the authenticator and every
 * recovery code go; the next sign-in sets up again when MFA is required. False when there was none.
 */
export async function resetUserMfa(tx: TExecutor, userId: string): Promise<boolean> {
  const rows = await tx
    .update(idpUsers)
    .set({
      totpSecret: null,
      totpPendingSecret: null,
      totpEnabled: false,
      emailMfaEnabled: false,
      mfaPreferred: null,
      totpDeviceName: null,
    })
    .where(eq(idpUsers.id, userId))
    .returning({ id: idpUsers.id });
  await tx.delete(idpRecoveryCodes).where(eq(idpRecoveryCodes.userId, userId));
  return rows.length > 0;
}
