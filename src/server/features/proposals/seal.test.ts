import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentFolders,
  documents,
  documentVersions,
  firmSigningCerts,
  proposals,
  systemLog,
} from '../../db/schema';
import { createWorker, type TWorker } from '../../jobs/worker';
import { createTestApp, type TTestApp } from '../../test/app';
import { codeOf } from '../../test/outcome';
import { rotateMasterKey } from '../vault';
import { PROPOSAL_SEAL, registerProposalJobs } from './index';

// The sealed PDF: made by the job after the last signature, signed PAdES B-B by the firm's
// certificate (made on first use, or the firm's own PKCS#12), checked by an independent reader,
// poppler's pdfsig, which must also catch a single changed byte. Filed in the client's documents,
// shared with the client.

let t: TTestApp;
let worker: TWorker;
const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };
let dataDir: string;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'proposal-seal-'));
  t = await createTestApp({ DATA_DIR: dataDir, VAULT_KEYS: `k1:${k1.key.toString('base64')}` });
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

function pdfsig(bytes: Buffer) {
  const file = path.join(dataDir, `${randomBytes(4).toString('hex')}.pdf`);
  execFileSync('tee', [file], { input: bytes });
  const out = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  return `${out.stdout}${out.stderr}`;
}

/** A prospect's proposal, sent and signed by one signer through the public procedures. */
async function signedProposal(name: string, existing?: Awaited<ReturnType<TTestApp['seedFirm']>>) {
  const firm = existing ?? (await t.seedFirm(name));
  const api = t.client(firm.owner.token);
  const svc = await api.services.create.mutate({
    name: 'Payroll',
    code: `PR${randomBytes(2).toString('hex').toUpperCase()}`,
    frequency: 'monthly',
    dueDateRule: { dayOfMonth: 7, monthsAfterPeriod: 1 },
  });
  const client = await api.clients.create.mutate({
    code: `S${randomBytes(3).toString('hex')}`,
    name: `${name} Client`,
    prospect: true,
  });
  const email = `seal-${randomBytes(3).toString('hex')}-${run}@example.test`;
  const title = `Payroll engagement ${name} ${run}`;
  const { id } = await api.proposals.create.mutate({
    clientId: client.id,
    title,
    letterHtml: '<p>Dear {{contact_name}}, we will run payroll for {{client_name}}.</p>{{fees}}',
    packages: [{ name: 'Standard', services: [{ serviceId: svc.id, billingMode: 'fixed', fee: '900' }] }],
    terms: 'Monthly in advance.',
    expiresOn: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
    signers: [{ name: 'Nina Shah', email }],
  });
  await api.proposals.send.mutate({ proposalId: id });
  const mail = (await t.outbox()).filter((m) => m.to.includes(email) && m.subject.includes(title)).at(-1);
  const m = mail?.notes.link?.match(/\/sign\/([0-9a-f-]+)\/([0-9a-f-]+)\?t=([A-Za-z0-9_-]+)$/);
  if (!m) throw new Error('no link');
  const link = { proposalId: m[1] as string, signerId: m[2] as string, token: m[3] as string };
  const pub = t.client();
  await pub.signing.requestCode.mutate(link);
  let code = '';
  for (let i = 0; i < 50 && !code; i++) {
    code =
      (await t.outbox()).filter((x) => x.to.includes(email) && x.subject.includes('Your code')).at(-1)?.notes
        .code ?? '';
    if (!code) await new Promise((r) => setTimeout(r, 50));
  }
  const { session } = await pub.signing.verifyCode.mutate({ ...link, code });
  await pub.signing.sign.mutate({
    ...link,
    session,
    packageIndex: 0,
    signature: { kind: 'typed', text: 'Nina Shah' },
    consent: true,
  });
  return { firm, api, id, client };
}

async function sealedBytes(orgId: string, proposalId: string) {
  const [p] = await t.db
    .select()
    .from(proposals)
    .where(and(eq(proposals.orgId, orgId), eq(proposals.id, proposalId)));
  if (!p?.documentId) throw new Error('not sealed');
  const [version] = await t.db
    .select()
    .from(documentVersions)
    .where(eq(documentVersions.documentId, p.documentId));
  const stream = await t.storage.get(version?.storageKey ?? '');
  if (!stream) throw new Error('no file');
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return { bytes: Buffer.concat(chunks), proposal: p };
}

describe('the sealed PDF', () => {
  it('is signed PAdES by the firm certificate made on first use, verified by pdfsig, and filed shared', async () => {
    const { firm, id, client } = await signedProposal('Seal & Co');
    await drain();
    const { bytes, proposal } = await sealedBytes(firm.org.id, id);
    const report = pdfsig(bytes);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('ETSI.CAdES.detached');
    expect(report).toMatch(/Signer Certificate Common Name: Seal & Co document signing/);
    // One byte changed inside the signed range: the digest no longer matches.
    const changed = Buffer.from(bytes);
    const at = changed.indexOf('Certificate of signature');
    const target = at > 0 ? at : 400;
    changed[target] = (changed[target] ?? 0) ^ 0x01;
    const broken = pdfsig(changed);
    expect(broken).not.toContain('Signature is Valid.');
    expect(broken).toContain('Signature Validation: Digest Mismatch.');
    if (process.env.PROPOSAL_PDF_OUT) await fs.writeFile(process.env.PROPOSAL_PDF_OUT, bytes);
    // The text: the letter, the fees, the certificate page with the hash and the trail.
    const text = execFileSync('pdftotext', ['-', '-'], { input: bytes }).toString();
    expect(text).toContain('Dear Nina Shah');
    expect(text).toContain('Certificate of signature');
    expect(text).toContain(proposal.contentSha256 ?? 'missing');
    expect(text).toMatch(/SIGNED\s+Nina Shah/);
    // Filed in the client's "Signed agreements", shared with the client.
    const [doc] = await t.db
      .select()
      .from(documents)
      .where(eq(documents.id, proposal.documentId ?? ''));
    expect(doc?.clientId).toBe(client.id);
    const [folder] = await t.db
      .select()
      .from(documentFolders)
      .where(eq(documentFolders.id, doc?.folderId ?? ''));
    expect(folder?.name).toBe('Signed agreements');
    expect(folder?.visibleToPortal).toBe(true);
    // The proposal's page links to it: the document, its name and its folder.
    const shown = await t.client(firm.owner.token).proposals.get.query({ proposalId: id });
    expect(shown.document).toEqual({ id: doc?.id, name: doc?.name, folderId: folder?.id });
    const log = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(eq(systemLog.orgId, firm.org.id));
    expect(log.map((l) => l.action)).toContain('proposal.seal');
    // The job again does nothing: one document.
    await drain();
    const again = await t.db
      .select()
      .from(documents)
      .where(eq(documents.folderId, folder?.id ?? ''));
    expect(again).toHaveLength(1);
  });

  it("signs with the firm's own uploaded PKCS#12 once uploaded; a wrong password is refused", async () => {
    const keys = forge.pki.rsa.generateKeyPair(1024);
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = '01';
    cert.validity.notBefore = new Date(Date.now() - 60_000);
    cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
    const attrs = [{ shortName: 'CN', value: 'Own Firm Qualified Seal' }];
    cert.setSubject(attrs);
    cert.setIssuer(attrs);
    cert.sign(keys.privateKey, forge.md.sha256.create());
    const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], 'secret', { algorithm: '3des' });
    const fileBase64 = Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary').toString('base64');

    const firm = await t.seedFirm('Own Cert LLP');
    const api = t.client(firm.owner.token);
    expect(await codeOf(api.proposals.uploadCertificate.mutate({ fileBase64, password: 'wrong' }))).toBe(
      'BAD_REQUEST',
    );
    expect(await codeOf(api.proposals.uploadCertificate.mutate({ fileBase64: 'AAAA', password: '' }))).toBe(
      'BAD_REQUEST',
    );
    await api.proposals.uploadCertificate.mutate({ fileBase64, password: 'secret' });
    expect((await api.proposals.certificate.query())?.source).toBe('uploaded');
    expect(
      await codeOf(
        t.client(firm.staff.token).proposals.uploadCertificate.mutate({ fileBase64, password: 'secret' }),
      ),
    ).toBe('FORBIDDEN');
    // The firm's next sealed proposal carries the uploaded certificate.
    const { id } = await signedProposal('Own Cert LLP', firm);
    await drain();
    const { bytes } = await sealedBytes(firm.org.id, id);
    const report = pdfsig(bytes);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: Own Firm Qualified Seal');
  });

  it('keeps signing after a master key rotation, without the old key', async () => {
    const firm = await t.seedFirm('Rotate & Co');
    await signedProposal('Rotate & Co', firm);
    await drain();
    const [before] = await t.db
      .select()
      .from(firmSigningCerts)
      .where(eq(firmSigningCerts.orgId, firm.org.id));
    expect(before?.keySealed).toMatch(/^v1\$k1\$/);
    const result = await rotateMasterKey(t.db, {
      current: k2,
      byId: new Map([k2, k1].map((k) => [k.id, k.key])),
    });
    expect(result.failed).toEqual([]);
    expect(Object.keys(result.byKey)).toEqual(['k2']);
    // A restart with only the new key: the firm's next agreement is sealed by the same certificate.
    t.config.vault = { ...t.config.vault, keys: [k2] };
    const { id } = await signedProposal('Rotate & Co', firm);
    await drain();
    const { bytes } = await sealedBytes(firm.org.id, id);
    expect(pdfsig(bytes)).toContain('Signature Validation: Signature is Valid.');
    const [after] = await t.db.select().from(firmSigningCerts).where(eq(firmSigningCerts.orgId, firm.org.id));
    expect(after?.certPem).toBe(before?.certPem);
  });
});
