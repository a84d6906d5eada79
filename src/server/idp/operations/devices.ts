import { and, eq } from 'drizzle-orm';
import type { TExecutor } from '../../db/client';
import { idpDevices } from '../../db/schema';
import { authenticate } from '../access';
import type { TBody, TIdpContext, TOperation } from '../deps';
import { deviceShape, findDevice, listDevices, requireDevice } from '../devices';
import { E, invalidParameter } from '../errors';
import { optInteger, optString, reqString } from '../input';

/** The app logs what a person does to their devices (the system log's device changes). */
const deviceChanged = (
  ctx: TIdpContext,
  tx: TExecutor,
  sub: string,
  change: 'remembered' | 'not_remembered' | 'forgotten',
  deviceName: string | null,
) =>
  ctx.onEvent?.(tx, {
    kind: 'device_changed',
    change,
    deviceName,
    sub,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });

const accessToken = (body: TBody) => reqString(body, 'AccessToken', 8192);
const deviceKey = (body: TBody) => reqString(body, 'DeviceKey', 55);

/** base64 bytes → hex; empty or not base64 → InvalidParameterException. */
function base64Hex(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/=_-]{1,2048}$/.test(value))
    throw invalidParameter(`${field} is invalid.`);
  const hex = Buffer.from(value, 'base64').toString('hex');
  if (!hex) throw invalidParameter(`${field} is invalid.`);
  return hex;
}

export const ConfirmDevice: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const key = deviceKey(body);
  const name = optString(body, 'DeviceName', 1024);
  const config = body.DeviceSecretVerifierConfig as TBody | undefined;
  if (typeof config !== 'object' || config === null)
    throw invalidParameter('DeviceSecretVerifierConfig is required.');
  const salt = base64Hex(config.Salt, 'Salt');
  const verifier = base64Hex(config.PasswordVerifier, 'PasswordVerifier');
  const access = await authenticate(ctx, token);
  // A sign-in confirms the device it was given, and only that one.
  if (access.deviceKey !== key) throw E.deviceNotFound();
  const device = await findDevice(ctx.db, access.user.id, key, false);
  if (!device) throw E.deviceNotFound();
  if (device.verifier) throw invalidParameter('Device is already confirmed.');
  await ctx.db
    .update(idpDevices)
    .set({
      salt,
      verifier,
      name: name ?? null,
      rememberedStatus: 'not_remembered',
      updatedAt: new Date(),
      lastIp: ctx.ip,
    })
    .where(eq(idpDevices.deviceKey, key));
  // The pool lets the user opt in: rememberDevice (UpdateDeviceStatus) remembers it.
  return { UserConfirmationNecessary: true };
};

export const GetDevice: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const key = deviceKey(body);
  const { user } = await authenticate(ctx, token);
  return { Device: deviceShape(await requireDevice(ctx.db, user.id, key)) };
};

export const ListDevices: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const limit = optInteger(body, 'Limit', 0, 60) || 60;
  const paginationToken = optString(body, 'PaginationToken', 1024);
  const { user } = await authenticate(ctx, token);
  return listDevices(ctx.db, user.id, limit, paginationToken || undefined);
};

export const UpdateDeviceStatus: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const key = deviceKey(body);
  const status = optString(body, 'DeviceRememberedStatus', 32);
  if (status !== 'remembered' && status !== 'not_remembered') {
    throw invalidParameter(
      "1 validation error detected: Value at 'deviceRememberedStatus' failed to satisfy constraint: Member must satisfy enum value set: [remembered, not_remembered]",
    );
  }
  const { user } = await authenticate(ctx, token);
  const device = await requireDevice(ctx.db, user.id, key);
  if (device.rememberedStatus === status) return {};
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(idpDevices)
      .set({ rememberedStatus: status, updatedAt: new Date() })
      .where(eq(idpDevices.deviceKey, key));
    await deviceChanged(ctx, tx, user.id, status, device.name);
  });
  return {};
};

export const ForgetDevice: TOperation = async (ctx, body) => {
  const token = accessToken(body);
  const key = deviceKey(body);
  const { user } = await authenticate(ctx, token);
  await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(idpDevices)
      .where(and(eq(idpDevices.deviceKey, key), eq(idpDevices.userId, user.id)))
      .returning({ name: idpDevices.name });
    if (!deleted) throw E.deviceNotFound();
    await deviceChanged(ctx, tx, user.id, 'forgotten', deleted.name);
  });
  return {};
};
