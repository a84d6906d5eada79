import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { TExecutor } from '../db/client';
import { idpDevices } from '../db/schema';
import { E, invalidParameter } from './errors';

export type TDevice = typeof idpDevices.$inferSelect;

/** A tracked device for a new sign-in; its verifier comes with ConfirmDevice. */
export async function newDevice(db: TExecutor, userId: string, region: string, ip: string) {
  const DeviceKey = `${region}_${randomUUID()}`;
  const DeviceGroupKey = `-${randomBytes(6).toString('base64url')}`;
  // Millisecond timestamps, so the page cursor (a JS date) matches rows exactly.
  const now = new Date();
  await db.insert(idpDevices).values({
    deviceKey: DeviceKey,
    userId,
    groupKey: DeviceGroupKey,
    lastIp: ip,
    createdAt: now,
    updatedAt: now,
  });
  return { DeviceKey, DeviceGroupKey };
}

/** A confirmed device of this user, or null. */
export async function findDevice(db: TExecutor, userId: string, deviceKey: string, confirmedOnly = true) {
  if (deviceKey.length > 55) return null;
  const [row] = await db
    .select()
    .from(idpDevices)
    .where(
      and(
        eq(idpDevices.deviceKey, deviceKey),
        eq(idpDevices.userId, userId),
        confirmedOnly ? isNotNull(idpDevices.verifier) : undefined,
      ),
    );
  return row ?? null;
}

/** A confirmed device of this user that they chose to remember: it stands in for MFA. */
export async function isRemembered(db: TExecutor, userId: string, deviceKey: string): Promise<boolean> {
  const device = await findDevice(db, userId, deviceKey);
  return device?.rememberedStatus === 'remembered';
}

export async function requireDevice(db: TExecutor, userId: string, deviceKey: string) {
  const device = await findDevice(db, userId, deviceKey);
  if (!device) throw E.deviceNotFound();
  return device;
}

export async function touchDevice(db: TExecutor, deviceKey: string, ip: string) {
  await db
    .update(idpDevices)
    .set({ lastAuthenticatedAt: sql`now()`, lastIp: ip })
    .where(eq(idpDevices.deviceKey, deviceKey));
}

const epoch = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : undefined);

/** Cognito's DeviceType. */
export function deviceShape(d: TDevice) {
  const attributes = [
    { Name: 'device_status', Value: 'valid' },
    ...(d.name ? [{ Name: 'device_name', Value: d.name }] : []),
    ...(d.lastIp ? [{ Name: 'last_ip_used', Value: d.lastIp }] : []),
    { Name: 'dev:device_remembered_status', Value: d.rememberedStatus ?? 'not_remembered' },
  ];
  return {
    DeviceKey: d.deviceKey,
    DeviceAttributes: attributes,
    DeviceCreateDate: epoch(d.createdAt),
    DeviceLastModifiedDate: epoch(d.updatedAt),
    DeviceLastAuthenticatedDate: epoch(d.lastAuthenticatedAt ?? d.createdAt),
  };
}

type TCursor = { c: string; k: string };

const encodeCursor = (d: TDevice) =>
  Buffer.from(JSON.stringify({ c: d.createdAt.toISOString(), k: d.deviceKey } satisfies TCursor)).toString(
    'base64url',
  );

function decodeCursor(token: string): TCursor {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as TCursor;
    if (typeof parsed.c === 'string' && typeof parsed.k === 'string' && !Number.isNaN(Date.parse(parsed.c)))
      return parsed;
  } catch {
    // fall through
  }
  throw invalidParameter('Invalid pagination token.');
}

/** Confirmed devices, newest first, keyset-paged. */
export async function listDevices(db: TExecutor, userId: string, limit: number, paginationToken?: string) {
  const cursor = paginationToken ? decodeCursor(paginationToken) : null;
  const rows = await db
    .select()
    .from(idpDevices)
    .where(
      and(
        eq(idpDevices.userId, userId),
        isNotNull(idpDevices.verifier),
        cursor
          ? or(
              lt(idpDevices.createdAt, new Date(cursor.c)),
              and(eq(idpDevices.createdAt, new Date(cursor.c)), lt(idpDevices.deviceKey, cursor.k)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(idpDevices.createdAt), desc(idpDevices.deviceKey))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    Devices: page.map(deviceShape),
    ...(rows.length > limit && last ? { PaginationToken: encodeCursor(last) } : {}),
  };
}

/**
 * Whether a password attempt comes from somewhere the person has been: a device of theirs that
 * they remembered (by its key), or an address one of their devices signed in from within `days`
 * (a device row is made only after a right password). Answers a name for that source, or null.
 */
export async function trustedSource(
  db: TExecutor,
  userId: string,
  deviceKey: string | undefined,
  ip: string,
  days: number,
): Promise<string | null> {
  if (deviceKey && deviceKey.length <= 55) {
    const [device] = await db
      .select({ key: idpDevices.deviceKey })
      .from(idpDevices)
      .where(
        and(
          eq(idpDevices.deviceKey, deviceKey),
          eq(idpDevices.userId, userId),
          eq(idpDevices.rememberedStatus, 'remembered'),
          isNotNull(idpDevices.verifier),
        ),
      )
      .limit(1);
    if (device) return `device:${device.key}`;
  }
  const since = sql`now() - make_interval(days => ${days}::int)`;
  const [seen] = await db
    .select({ key: idpDevices.deviceKey })
    .from(idpDevices)
    .where(
      and(
        eq(idpDevices.userId, userId),
        eq(idpDevices.lastIp, ip),
        or(gt(idpDevices.createdAt, since), gt(idpDevices.lastAuthenticatedAt, since)),
      ),
    )
    .limit(1);
  return seen ? `ip:${ip}` : null;
}
