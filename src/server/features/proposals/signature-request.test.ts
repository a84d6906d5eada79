import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documents, documentVersions, proposals, systemLog } from '../../db/schema';
import { createWorker, type TWorker } from '../../jobs/worker';
import { createTestApp, type TTestApp } from '../../test/app';
import { uploadFile } from '../../test/files';
import { codeAndMessageOf, codeOf } from '../../test/outcome';
import { PROPOSAL_SEAL, registerProposalJobs } from './index';

// Standalone signature requests: a client's PDF sent to two signers in turn, signed with the same
// flow (link, mailed code, typed or drawn signature, consent), sealed as the original pages plus a
// certificate page, PAdES by the firm's certificate (checked by pdfsig), filed next to the original.

let t: TTestApp;
let worker: TWorker;
let dataDir: string;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'signature-request-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  registerProposalJobs(t.storage);
  worker = createWorker(
    { db: t.db, config: t.config, mailer: t.mailer, log: { info() {}, warn() {}, error() {} } },
    { pollMs: 10, kinds: [PROPOSAL_SEAL] },
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const run = Math.random().toString(36).slice(2, 8);
async function drain() {
  for (let n = await worker.tick(); n > 0; n = await worker.tick()) {}
}

/** A two-page PDF, as a client's scanned board resolution might be. */
function twoPagePdf(): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4' });
  doc.text('Board resolution: page one');
  doc.addPage();
  doc.text('Board resolution: page two');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.end();
  });
}

function pdfTool(tool: string, bytes: Buffer) {
  const file = path.join(dataDir, `${randomBytes(4).toString('hex')}.pdf`);
  execFileSync('tee', [file], { input: bytes });
  const out = spawnSync(tool, [file], { encoding: 'utf8' });
  return `${out.stdout}${out.stderr}`;
}

async function signIn(email: string, title: string) {
  const mail = (await t.outbox()).filter((m) => m.to.includes(email) && m.subject.includes(title)).at(-1);
  const m = mail?.notes.link?.match(/\/sign\/([0-9a-f-]+)\/([0-9a-f-]+)\?t=([A-Za-z0-9_-]+)$/);
  if (!m) throw new Error(`no link for ${email}`);
  const link = { proposalId: m[1] as string, signerId: m[2] as string, token: m[3] as string };
  const pub = t.client();
  const before = (await t.outbox()).filter(
    (x) => x.to.includes(email) && x.subject.includes('Your code'),
  ).length;
  await pub.signing.requestCode.mutate(link);
  const code = await vi.waitFor(async () => {
    const codes = (await t.outbox()).filter((x) => x.to.includes(email) && x.subject.includes('Your code'));
    if (codes.length <= before) throw new Error('no code yet');
    return codes.at(-1)?.notes.code as string;
  });
  const { session } = await pub.signing.verifyCode.mutate({ ...link, code });
  return { link, session, pub };
}

describe('a signature request for a client PDF', () => {
  it('is signed in turn by two, sealed with the original pages and a certificate page, filed next to it', async () => {
    const firm = await t.seedFirm('Resolve & Co');
    const api = t.client(firm.owner.token);
    const client = await api.clients.create.mutate({ code: `R${run}`, name: 'Board Client Ltd' });
    const root = await api.documents.open.mutate({ clientId: client.id });
    const folder = await api.documents.createFolder.mutate({ parentId: root.id, name: 'Resolutions' });
    const original = await twoPagePdf();
    const up = await uploadFile(
      t,
      firm.owner.token,
      folder.id,
      'Resolution 7.pdf',
      original,
      'application/pdf',
    );
    expect(up.status).toBe(201);
    const text = await uploadFile(t, firm.owner.token, folder.id, 'notes.txt', 'just text', 'text/plain');

    const a = `dir-a-${run}@example.test`;
    const b = `dir-b-${run}@example.test`;
    const title = `Resolution 7 ${run}`;
    const base = {
      title,
      expiresOn: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
      signingOrder: 'sequential' as const,
      signers: [
        { name: 'Dev Anand', email: a },
        { name: 'Lata Iyer', email: b },
      ],
    };
    // Only a PDF; another firm's document is not found; a member without the permission is refused.
    expect(
      await codeAndMessageOf(api.proposals.requestSignature.mutate({ ...base, documentId: text.body.id })),
    ).toContain('Only a PDF can be sent for signature');
    const other = await t.seedFirm('Other Signers');
    expect(
      await codeOf(
        t.client(other.owner.token).proposals.requestSignature.mutate({ ...base, documentId: up.body.id }),
      ),
    ).toBe('NOT_FOUND');
    expect(
      await codeOf(
        t.client(firm.staff.token).proposals.requestSignature.mutate({ ...base, documentId: up.body.id }),
      ),
    ).toBe('FORBIDDEN');

    const { id } = await api.proposals.requestSignature.mutate({ ...base, documentId: up.body.id });
    const shown = await api.proposals.get.query({ proposalId: id });
    expect(shown).toMatchObject({
      kind: 'document',
      status: 'sent',
      sourceDocument: { id: up.body.id, version: 1 },
    });
    // In turn: only the first is mailed.
    expect((await t.outbox()).some((m) => m.to.includes(b) && m.subject.includes(title))).toBe(false);

    const first = await signIn(a, title);
    const view = await first.pub.signing.view.query({ ...first.link, session: first.session });
    expect(view).toMatchObject({ kind: 'document', document: { name: 'Resolution 7.pdf' }, myTurn: true });
    // The signer opens the file with the link and the session, and nothing else.
    const docUrl = `${t.url}/api/signing/${first.link.proposalId}/${first.link.signerId}/document`;
    const got = await fetch(`${docUrl}?t=${first.link.token}&s=${first.session}`);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(original)).toBe(true);
    expect((await fetch(`${docUrl}?t=${first.link.token}&s=${'x'.repeat(32)}`)).status).toBe(403);
    expect((await fetch(`${docUrl}?t=${'y'.repeat(32)}&s=${first.session}`)).status).toBe(404);

    await first.pub.signing.sign.mutate({
      ...first.link,
      session: first.session,
      packageIndex: 0,
      signature: { kind: 'typed', text: 'Dev Anand' },
      consent: true,
    });
    const second = await signIn(b, title);
    const done = await second.pub.signing.sign.mutate({
      ...second.link,
      session: second.session,
      packageIndex: 0,
      signature: { kind: 'typed', text: 'Lata Iyer' },
      consent: true,
    });
    expect(done.done).toBe(true);
    await drain();

    const [p] = await t.db.select().from(proposals).where(eq(proposals.id, id));
    expect(p?.status).toBe('accepted');
    const [sealed] = await t.db
      .select()
      .from(documents)
      .where(eq(documents.id, p?.documentId ?? ''));
    expect(sealed?.folderId).toBe(folder.id);
    expect(sealed?.name).toMatch(/^Resolution 7 \(signed [0-9a-f]{6}\)\.pdf$/);
    const [version] = await t.db
      .select()
      .from(documentVersions)
      .where(and(eq(documentVersions.documentId, sealed?.id ?? ''), eq(documentVersions.version, 1)));
    const stream = await t.storage.get(version?.storageKey ?? '');
    if (!stream) throw new Error('no sealed file');
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const report = pdfTool('pdfsig', bytes);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('ETSI.CAdES.detached');
    expect(pdfTool('pdfinfo', bytes)).toMatch(/Pages:\s+3/);
    const content = execFileSync('pdftotext', ['-', '-'], { input: bytes }).toString();
    expect(content).toContain('Board resolution: page one');
    expect(content).toContain('Board resolution: page two');
    expect(content).toContain('Certificate of signature');
    expect(content).toMatch(/SIGNED Dev Anand/);
    expect(content).toMatch(/SIGNED Lata Iyer/);
    expect(content).toContain(p?.contentSha256 ?? 'missing');
    // One changed byte breaks it.
    const changed = Buffer.from(bytes);
    const at = changed.indexOf('Board resolution');
    changed[at > 0 ? at : 400] = (changed[at > 0 ? at : 400] ?? 0) ^ 0x01;
    expect(pdfTool('pdfsig', changed)).toContain('Digest Mismatch');
    // The staff page links to the signed copy; the log has each step.
    const after = await api.proposals.get.query({ proposalId: id });
    expect(after.document?.id).toBe(sealed?.id);
    const log = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, firm.org.id), eq(systemLog.recordId, id)));
    expect(log.map((l) => l.action)).toEqual(
      expect.arrayContaining([
        'proposal.requestSignature',
        'proposal.send',
        'proposal.accept',
        'proposal.seal',
      ]),
    );
  });
});
