import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveAttachments, members, roles, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { download, filesUnder, sha256 } from '../../test/files';
import { sweepOrphanFiles } from '../documents';
import { dropUnlinkedAttachments } from './attachments';

let t: TTestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leave-attachments-test-'));
  t = await createTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const nextYear = new Date().getUTCFullYear() + 1;
function monday(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month - 1, 1));
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
const plus = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function upload(token: string, bytes: Uint8Array | string, name = 'certificate.pdf') {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart]), name);
  const res = await fetch(`${t.url}/api/leave/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { id: string; message: string; error: string } };
}

/** A firm whose Sick leave needs a file beyond 2 days; the staff member applies, the owner decides. */
async function sickFirm(name: string) {
  const firm = await t.seedFirm(name);
  await t.db
    .update(roles)
    .set({ permissions: ['leaves.view', 'leaves.create'] })
    .where(eq(roles.id, firm.roles.staff.id));
  const owner = t.client(firm.owner.token);
  const { id: typeId } = await owner.leave.types.create.mutate({
    name: 'Sick leave',
    allowance: 10,
    attachmentAfterDays: 2,
  });
  await owner.leave.setup.allocate.mutate({
    memberId: firm.staff.id,
    leaveTypeId: typeId,
    year: nextYear,
    amount: 10,
  });
  // A colleague with the same role: neither the member nor their approver.
  const sub = randomUUID();
  const [colleague] = await t.db
    .insert(members)
    .values({
      orgId: firm.org.id,
      sub,
      email: `colleague-${sub}@example.test`,
      firstName: 'Cara',
      lastName: 'Colleague',
      roleId: firm.roles.staff.id,
      isVerified: true,
    })
    .returning();
  if (!colleague) throw new Error('no colleague');
  return {
    firm,
    typeId,
    owner,
    staff: t.client(firm.staff.token),
    colleague: { ...colleague, token: await t.tokenFor(sub) },
  };
}

describe('leave attachments', () => {
  it('needs a file beyond N days: refused without, allowed with, and read by the member and the approver only', async () => {
    const { firm, typeId, owner, staff, colleague } = await sickFirm('Sick & Co');
    const mon = monday(nextYear, 6);
    const long = { leaveTypeId: typeId, startDate: mon, endDate: plus(mon, 2), reason: 'Flu' };

    // Two days is within the rule; three are beyond it, and the preview says so before submitting.
    expect(await staff.leave.requests.preview.query({ ...long, endDate: plus(mon, 1) })).toMatchObject({
      attachmentRequired: false,
    });
    expect(await staff.leave.requests.preview.query(long)).toMatchObject({ attachmentRequired: true });
    await expect(staff.leave.requests.submit.mutate(long)).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
      message: 'Sick leave longer than 2 days needs an attachment, such as a medical certificate',
    });

    const up = await upload(firm.staff.token, PDF);
    expect(up.status, up.body.message).toBe(201);
    expect(up.body).toMatchObject({ name: 'certificate.pdf', contentType: 'application/pdf' });
    // Before a request names it, the file is its uploader's alone.
    const unlinked = await download(t, firm.owner.token, `/api/leave/attachments/${up.body.id}/download`);
    expect(unlinked.res.status).toBe(404);

    // Another member's upload cannot be put on one's own request.
    const theirs = await upload(colleague.token, PDF, 'not yours.pdf');
    await expect(
      staff.leave.requests.submit.mutate({ ...long, attachmentId: theirs.body.id }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });

    const { id: requestId } = await staff.leave.requests.submit.mutate({ ...long, attachmentId: up.body.id });
    // An attachment goes on one request only.
    await expect(
      staff.leave.requests.submit.mutate({
        ...long,
        startDate: plus(mon, 7),
        endDate: plus(mon, 9),
        attachmentId: up.body.id,
      }),
    ).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });

    const [mine] = (await staff.leave.requests.mine.query({ year: nextYear })).requests;
    expect(mine).toMatchObject({ id: requestId, attachment: { id: up.body.id, name: 'certificate.pdf' } });
    const [pending] = (await owner.leave.requests.team.query({ status: 'pending' })).rows;
    expect(pending).toMatchObject({ id: requestId, attachment: { id: up.body.id } });

    const file = `/api/leave/attachments/${up.body.id}/download`;
    for (const token of [firm.staff.token, firm.owner.token]) {
      const got = await download(t, token, file);
      expect(got.res.status).toBe(200);
      expect(sha256(got.bytes)).toBe(sha256(PDF));
      expect(got.res.headers.get('content-disposition')).toMatch(/^attachment; filename="certificate.pdf"/);
    }
    const preview = await download(t, firm.owner.token, `/api/leave/attachments/${up.body.id}/preview`);
    expect(preview.res.status).toBe(200);
    expect(preview.res.headers.get('content-type')).toBe('application/pdf');

    // The colleague (no leaves.approve, not the manager) is told it does not exist, as is another firm.
    expect((await download(t, colleague.token, file)).res.status).toBe(404);
    const other = await t.seedFirm('Elsewhere');
    expect((await download(t, other.owner.token, file)).res.status).toBe(404);
    // Made the member's manager, the colleague decides their leave and so reads the file.
    await owner.leave.setup.updateMember.mutate({
      memberId: firm.staff.id,
      managerId: colleague.id,
      office: null,
      workingDays: null,
      minutesPerDay: null,
    });
    expect((await download(t, colleague.token, file)).res.status).toBe(200);

    const log = await t.db
      .select({ action: systemLog.action, summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.recordId, up.body.id)));
    expect(log.map((l) => l.action)).toEqual(
      expect.arrayContaining([
        'leave.attachmentUpload',
        'leave.attachmentDownload',
        'leave.attachmentPreview',
      ]),
    );
    const [applied] = await t.db
      .select({ summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.recordId, requestId), eq(systemLog.action, 'leave.apply')));
    expect(applied?.summary).toContain('with “certificate.pdf”');

    // Cancelling keeps the file with the request, still readable by the member.
    await staff.leave.requests.cancel.mutate({ requestId });
    expect((await download(t, firm.staff.token, file)).res.status).toBe(200);
  });

  it('refuses a malformed or oversized upload with a 4xx and stores nothing', async () => {
    const { firm } = await sickFirm('Broken uploads');
    const post = async (body: BodyInit, contentType?: string) => {
      const headers: Record<string, string> = { authorization: `Bearer ${firm.staff.token}` };
      if (contentType) headers['content-type'] = contentType;
      const res = await fetch(`${t.url}/api/leave/attachments`, { method: 'POST', headers, body });
      return { status: res.status, body: (await res.json()) as { error: string; message: string } };
    };
    const before = await filesUnder(path.join(dataDir, 'files'));
    const fields = new FormData();
    fields.append('note', 'no file');
    expect(await post(fields)).toMatchObject({ status: 400, body: { message: 'Choose a file to upload' } });
    expect(await post('--x\r\nContent-Disp', 'multipart/form-data')).toMatchObject({ status: 400 });
    expect((await post('{}', 'application/json')).status).toBe(400);
    expect((await post('x', 'multipart/form-data; boundary=')).status).toBe(400);
    const big = await upload(firm.staff.token, new Uint8Array(10 * 1024 * 1024 + 1), 'scan.pdf');
    expect(big).toMatchObject({ status: 413, body: { error: 'PAYLOAD_TOO_LARGE' } });
    expect(await filesUnder(path.join(dataDir, 'files'))).toEqual(before);
    // Without leaves.create there is no upload at all.
    await t.db
      .update(roles)
      .set({ permissions: ['leaves.view'] })
      .where(eq(roles.id, firm.roles.staff.id));
    expect((await upload(firm.staff.token, PDF)).status).toBe(403);
    // A malformed id is not found, not an error.
    expect((await download(t, firm.staff.token, '/api/leave/attachments/nope/download')).res.status).toBe(
      404,
    );
  });

  it('forgets an upload no request named within a day; the orphan sweep then removes its bytes', async () => {
    const { firm } = await sickFirm('Left behind');
    const up = await upload(firm.staff.token, PDF);
    expect(up.status).toBe(201);
    const [row] = await t.db.select().from(leaveAttachments).where(eq(leaveAttachments.id, up.body.id));
    if (!row) throw new Error('no attachment');
    const later = new Date(Date.now() + 25 * 60 * 60_000);
    // Linked or young, an attachment's bytes survive the sweep.
    const stored = async () => {
      const body = await t.storage.get(row.storageKey);
      body?.destroy();
      return body !== null;
    };
    await sweepOrphanFiles(t.db, t.storage, later, { minAgeMs: 0 });
    expect(await stored()).toBe(true);
    expect(await dropUnlinkedAttachments(t.db, later)).toBeGreaterThanOrEqual(1);
    expect(await t.db.select().from(leaveAttachments).where(eq(leaveAttachments.id, up.body.id))).toEqual([]);
    await sweepOrphanFiles(t.db, t.storage, later, { minAgeMs: 0 });
    expect(await stored()).toBe(false);
  });
});
