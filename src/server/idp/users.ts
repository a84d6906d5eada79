import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { idpUsers, type TIdpUserStatus } from '../db/schema';
import { E, invalidParameter } from './errors';
import type { TAttribute } from './input';
import { hashPassword } from './passwords';
import { revokeUserSessions } from './sessions';
import { makeVerifier } from './srp';

export type TIdpUser = typeof idpUsers.$inferSelect;

/** Standard attributes a user may set; `custom:*` are also accepted. */
const STANDARD_ATTRIBUTES = new Set([
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'email',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'phone_number',
  'address',
  'updated_at',
]);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const usernameKey = (username: string) => username.normalize('NFC').toLowerCase();

export function checkUsername(username: string): void {
  if (!/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u.test(username)) {
    throw invalidParameter(
      "1 validation error detected: Value at 'username' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}]+",
    );
  }
}

/**
 * The attributes a user may write, as a map; `sub` and `*_verified` are skipped (SPEC.md §5),
 * unknown names are refused, an email must look like one.
 */
export function writableAttributes(list: TAttribute[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { Name, Value } of list) {
    if (Name === 'sub' || Name.endsWith('_verified')) continue;
    if (!STANDARD_ATTRIBUTES.has(Name) && !/^custom:[\w.-]{1,20}$/.test(Name)) {
      throw invalidParameter(`Attribute does not exist in the schema: ${Name}`);
    }
    if (Name === 'email' && !EMAIL.test(Value)) throw invalidParameter('Invalid email address format.');
    out[Name] = Value;
  }
  return out;
}

export async function findUserByName(db: TExecutor, name: string): Promise<TIdpUser | null> {
  const key = usernameKey(name);
  const [byName] = await db.select().from(idpUsers).where(eq(idpUsers.usernameKey, key));
  if (byName) return byName;
  if (!name.includes('@')) return null;
  // Sign-in by a verified email alias, when exactly one user has it.
  const byEmail = await db
    .select()
    .from(idpUsers)
    .where(and(eq(idpUsers.email, key), eq(idpUsers.emailVerified, true)))
    .limit(2);
  return byEmail.length === 1 ? (byEmail[0] ?? null) : null;
}

export async function findUserById(db: TExecutor, id: string): Promise<TIdpUser | null> {
  const [row] = await db.select().from(idpUsers).where(eq(idpUsers.id, id));
  return row ?? null;
}

/** Throws the errors a sign-in or a self-service call gives for a user in a bad state. */
export function assertUsable(user: TIdpUser | null): asserts user is TIdpUser {
  if (!user) throw E.userNotFound();
  if (!user.enabled) throw E.userDisabled();
}

/** The password's scrypt hash and its SRP salt and verifier (USER_ID_FOR_SRP is the user name). */
export async function passwordColumns(poolName: string, username: string, password: string) {
  const { salt, verifier } = makeVerifier(poolName, username, password);
  return { passwordHash: await hashPassword(password), srpSalt: salt, srpVerifier: verifier };
}

export async function createUser(
  db: TExecutor,
  input: {
    poolName: string;
    username: string;
    password: string;
    attributes: Record<string, string>;
    status: TIdpUserStatus;
    emailVerified?: boolean;
  },
): Promise<TIdpUser> {
  const { email, ...rest } = input.attributes;
  const [row] = await db
    .insert(idpUsers)
    .values({
      id: randomUUID(),
      username: input.username,
      usernameKey: usernameKey(input.username),
      email: email ? email.toLowerCase() : null,
      emailVerified: Boolean(email) && input.emailVerified === true,
      attributes: rest,
      status: input.status,
      ...(await passwordColumns(input.poolName, input.username, input.password)),
    })
    .onConflictDoNothing({ target: idpUsers.usernameKey })
    .returning();
  if (!row) throw E.usernameExists();
  return row;
}

export async function setPassword(
  db: TExecutor,
  poolName: string,
  user: TIdpUser,
  password: string,
  status?: TIdpUserStatus,
) {
  await db
    .update(idpUsers)
    .set({ ...(await passwordColumns(poolName, user.username, password)), ...(status ? { status } : {}) })
    .where(eq(idpUsers.id, user.id));
}

/** Cognito's attribute list: sub first, email and email_verified, then the rest. */
export function attributesOf(user: TIdpUser): TAttribute[] {
  const list: TAttribute[] = [{ Name: 'sub', Value: user.id }];
  if (user.email) {
    list.push(
      { Name: 'email', Value: user.email },
      { Name: 'email_verified', Value: String(user.emailVerified) },
    );
  }
  for (const [Name, Value] of Object.entries(user.attributes)) list.push({ Name, Value });
  return list;
}

/** Another user already holds this email as a verified alias. */
export async function emailTaken(db: TExecutor, email: string, exceptUserId: string): Promise<boolean> {
  const rows = await db
    .select({ id: idpUsers.id })
    .from(idpUsers)
    .where(and(eq(idpUsers.email, email.toLowerCase()), eq(idpUsers.emailVerified, true)))
    .limit(2);
  return rows.some((r) => r.id !== exceptUserId);
}

/** Disables a user: no sign-in, and every token of theirs is refused from the next call on. */
export async function disableUser(db: TExecutor, userId: string): Promise<void> {
  await db.update(idpUsers).set({ enabled: false }).where(eq(idpUsers.id, userId));
  await revokeUserSessions(db, userId);
}

/** `a***@e***`: what CodeDeliveryDetails shows of an address. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.charAt(0)}***@${domain.charAt(0)}***`;
}

export function emailDelivery(email: string) {
  return { Destination: maskEmail(email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
}
