import { TRPCClientError } from '@trpc/client';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NOT_ALLOWED_CHARACTER } from '../domain/fields';
import { INVALID_VALUES_MESSAGE, inputErrorOf } from './db/errors';
import { clients, systemLog, taskComments } from './db/schema';
import { AMZ_JSON } from './idp/endpoint';
import { createTestApp, type TTestApp } from './test/app';
import { createCallerFactory, router } from './trpc/init';
import { publicProcedure } from './trpc/procedures';

// Issue 16: a NUL, a lone surrogate, a date or a number the database cannot hold, or a malformed
// upload answers 400 with a clear message and changes nothing; never a 500.

let t: TTestApp;
let firm: Awaited<ReturnType<TTestApp['seedFirm']>>;
let api: ReturnType<TTestApp['client']>;
let clientId: string;
let taskId: string;

beforeAll(async () => {
  t = await createTestApp();
  firm = await t.seedFirm('Bad input');
  api = t.client(firm.owner.token);
  clientId = (await api.clients.create.mutate({ code: 'C1', name: 'Mehta Traders' })).id;
  taskId = (await api.tasks.create.mutate({ title: 'March GST return', clientId })).id;
});
afterAll(() => t?.close());

const NUL = 'Mehta\u0000Traders';
const LONE = 'Mehta \ud800 Traders';
const FAR = new Date('+275760-09-13T00:00:00.000Z');

async function refusal(call: () => Promise<unknown>) {
  const error = await call().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as { data?: { httpStatus?: number }; message: string };
  return { status: e.data?.httpStatus, message: e.message };
}

async function logRows() {
  const [row] = await t.db.select({ n: count() }).from(systemLog).where(eq(systemLog.orgId, firm.org.id));
  return row?.n ?? 0;
}

describe('text the database cannot hold', () => {
  it('clients.create and clients.update refuse a NUL and a lone surrogate, changing nothing', async () => {
    const before = await logRows();
    for (const name of [NUL, LONE]) {
      const created = await refusal(() => api.clients.create.mutate({ code: 'C2', name }));
      expect(created).toEqual({ status: 400, message: `${NOT_ALLOWED_CHARACTER}` });
      const updated = await refusal(() =>
        api.clients.update.mutate({ clientId, data: { code: 'C1', name: 'Mehta', notes: name } }),
      );
      expect(updated).toEqual({ status: 400, message: `${NOT_ALLOWED_CHARACTER}` });
    }
    const search = await refusal(() => api.clients.list.query({ search: '\u0000' }));
    expect(search.status).toBe(400);
    const rows = await t.db.select().from(clients).where(eq(clients.orgId, firm.org.id));
    expect(rows.map((r) => r.name)).toEqual(['Mehta Traders']);
    expect(await logRows()).toBe(before);
  });

  it('a task comment refuses them too', async () => {
    for (const body of [NUL, LONE]) {
      const res = await refusal(() => api.tasks.comments.add.mutate({ taskId, body }));
      expect(res).toEqual({ status: 400, message: `${NOT_ALLOWED_CHARACTER}` });
    }
    const [row] = await t.db.select({ n: count() }).from(taskComments).where(eq(taskComments.taskId, taskId));
    expect(row?.n).toBe(0);
  });
});

describe('dates and numbers the database cannot hold', () => {
  it('systemLog.list and reminders.create refuse a far date', async () => {
    const list = await refusal(() => api.systemLog.list.query({ from: FAR }));
    expect(list).toEqual({ status: 400, message: 'Choose a date between the years 1900 and 2200' });
    const before = await logRows();
    const reminder = await refusal(() =>
      api.reminders.create.mutate({
        type: 'client',
        title: 'Send the books',
        clientId,
        channels: ['email'],
        remindAt: FAR,
      }),
    );
    expect(reminder).toEqual({
      status: 400,
      message: 'Choose a date between the years 1900 and 2200',
    });
    expect(await logRows()).toBe(before);
  });

  it('the system-log export refuses a far date', async () => {
    const res = await fetch(`${t.url}/api/systemlog/export.csv?from=%2B275760-09-13T00:00:00.000Z`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/1900 and 2200/);
  });

  it('a document download refuses a version beyond an integer', async () => {
    const res = await fetch(`${t.url}/api/documents/${crypto.randomUUID()}/download?version=2147483648`, {
      headers: { authorization: `Bearer ${firm.owner.token}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'BAD_REQUEST',
      message: 'Choose a version of the file from its history',
    });
  });
});

describe('malformed uploads', () => {
  const post = async (body: BodyInit, contentType?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${firm.owner.token}` };
    if (contentType) headers['content-type'] = contentType;
    const res = await fetch(`${t.url}/api/clients/import`, { method: 'POST', headers, body });
    return { status: res.status, body: (await res.json()) as { error: string; message: string } };
  };
  const choose = {
    status: 400,
    body: { error: 'BAD_REQUEST', message: 'Choose a CSV or Excel file to upload' },
  };

  it('the client import answers "choose a file" for fields without a file, a nameless file and broken multipart', async () => {
    const fields = new FormData();
    fields.append('note', 'hello');
    expect(await post(fields)).toEqual(choose);

    const boundary = 'XyZ';
    const nameless = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="note"',
      '',
      'hello',
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"',
      'Content-Type: application/octet-stream',
      '',
      'Code,Name',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    expect(await post(nameless, `multipart/form-data; boundary=${boundary}`)).toEqual(choose);
    expect(await post('--x\r\nContent-Disp', 'multipart/form-data')).toEqual(choose);
    expect(
      await post(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nCode,Na`,
        `multipart/form-data; boundary=${boundary}`,
      ),
    ).toEqual(choose);
    expect(await post('x', 'multipart/form-data; boundary=')).toEqual(choose);
    expect(await logRows()).toBeGreaterThan(0);
  });

  it('a file with a NUL in a cell names the row', async () => {
    const text = '\ufeffCode,Name\r\nC8,Iyer\u0000Co\r\n';
    const bytes = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(text.slice(1), 'utf16le'))]);
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'clients.csv');
    expect(await post(form)).toEqual({
      status: 400,
      body: {
        error: 'BAD_REQUEST',
        message: 'Row 2 of this file contains a character that is not allowed: remove it and upload again',
      },
    });
  });

  it('a field before the file is skipped', async () => {
    const form = new FormData();
    form.append('note', 'hello');
    form.append('file', new Blob(['Code,Name\r\nC9,Iyer & Co\r\n']), 'clients.csv');
    const res = await post(form);
    expect(res.status, res.body.message).toBe(200);
  });

  it('a body the route does not take answers { error, message }', async () => {
    const res = await post('{}', 'text/plain');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(choose.body);
    const upload = await fetch(`${t.url}/api/documents/upload?taskId=${taskId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${firm.owner.token}`, 'content-type': 'multipart/form-data' },
      body: '--x\r\n',
    });
    expect(upload.status).toBe(400);
    expect(((await upload.json()) as { error: string }).error).toBe('BAD_REQUEST');
    const big = await fetch(`${t.url}/api/trpc/clients.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${firm.owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ notes: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: 'What was sent is too large' });
  });
});

describe('the identity provider', () => {
  const idp = async (operation: string, body: Record<string, unknown>) => {
    const res = await fetch(`${t.url}/api/idp`, {
      method: 'POST',
      headers: {
        'content-type': AMZ_JSON,
        'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      },
      body: JSON.stringify({ ClientId: t.config.idp.clientId, ...body }),
    });
    return { status: res.status, body: (await res.json()) as { __type: string; message: string } };
  };

  it('answers InvalidParameterException for a NUL, a lone surrogate or the wrong type', async () => {
    for (const Username of ['a\u0000b@example.test', '\ud800@example.test', 42, ['x']]) {
      for (const operation of ['ConfirmSignUp', 'ResendConfirmationCode', 'ForgotPassword']) {
        const res = await idp(operation, { Username, ConfirmationCode: '123456' });
        expect(res.status).toBe(400);
        expect(res.body.__type).toBe('InvalidParameterException');
      }
    }
    const confirm = await idp('ConfirmForgotPassword', {
      Username: 'a@example.test',
      ConfirmationCode: '12\u00003456',
      Password: 'Secret-pass-1',
    });
    expect(confirm.body.__type).toBe('InvalidParameterException');
  });
});

describe('the last resort', () => {
  it('maps a data exception from the database driver to 400, and nothing else', async () => {
    const caught = async (query: ReturnType<typeof sql>) =>
      t.db.execute(query).then(
        () => null,
        (e: unknown) => e,
      );
    for (const query of [
      sql`select ${'a\u0000b'}::text`,
      sql`select ${'2147483648'}::int4`,
      sql`select ${'294277-01-01'}::timestamptz`,
      sql`select ${'nope'}::uuid`,
    ]) {
      const error = await caught(query);
      expect(error).toBeTruthy();
      expect(inputErrorOf(error)?.code).toBe('BAD_REQUEST');
    }
    expect(inputErrorOf(await caught(sql`select * from no_such_table`))).toBeNull();

    // A procedure whose input the schemas let through: the middleware every procedure starts with.
    const probe = router({
      echo: publicProcedure
        .input(z.object({ text: z.string() }))
        .query(({ input }) => t.db.execute(sql`select ${input.text}::text`)),
    });
    const call = createCallerFactory(probe)({} as never);
    await expect(call.echo({ text: 'a\u0000b' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: INVALID_VALUES_MESSAGE,
    });
    await expect(call.echo({ text: 'ab' })).resolves.toBeTruthy();
    expect(inputErrorOf(new Error('boom'))).toBeNull();
  });
});
