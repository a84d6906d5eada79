import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import forge from 'node-forge';
import type { TConfig } from '../../config';
import type { TExecutor } from '../../db/client';
import { firmSigningCerts, orgs } from '../../db/schema';
import { secretBox, signingKeyContext } from '../vault';
import { pemToDer } from './cms';

// The firm's signing certificate: made for the firm on first use (a self-signed RSA-2048
// certificate in the firm's name, ten years), or the firm's own PKCS#12 uploaded on the settings
// page. The private key is kept sealed by the vault key (context bound to the firm).

type TVault = Pick<TConfig, 'vault'>;

export type TSigningKey = { keyPem: string; certDers: Buffer[]; subject: string };

function subjectOf(cert: forge.pki.Certificate) {
  return cert.subject.attributes.map((a) => `${a.shortName ?? a.name}=${a.value}`).join(', ');
}

function selfSigned(firmName: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // A positive serial: the top bit cleared.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 86_400_000);
  const attrs = [
    { shortName: 'CN', value: `${firmName.slice(0, 60)} document signing` },
    { shortName: 'O', value: firmName.slice(0, 64) },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { keyPem, cert };
}

/** The firm's key and certificate, made and stored on first use (two racing makers keep the first). */
export async function firmSigningKey(db: TExecutor, config: TVault, orgId: string): Promise<TSigningKey> {
  const box = secretBox(config, db);
  const read = () => db.select().from(firmSigningCerts).where(eq(firmSigningCerts.orgId, orgId));
  let [row] = await read();
  if (!row) {
    const [firm] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, orgId));
    const { keyPem, cert } = selfSigned(firm?.name ?? 'Firm');
    await db
      .insert(firmSigningCerts)
      .values({
        orgId,
        source: 'generated',
        certPem: forge.pki.certificateToPem(cert),
        keySealed: await box.seal(keyPem, signingKeyContext(orgId)),
        subject: subjectOf(cert),
        notAfter: cert.validity.notAfter,
      })
      .onConflictDoNothing();
    [row] = await read();
  }
  if (!row) throw new Error('signing certificate not stored');
  const chain = row.chainPem ? forge.pem.decode(row.chainPem).map((m) => Buffer.from(m.body, 'binary')) : [];
  return {
    keyPem: await box.open(row.keySealed, signingKeyContext(orgId)),
    certDers: [pemToDer(row.certPem), ...chain],
    subject: row.subject,
  };
}

/** What the settings page shows about the certificate (never the key). */
export async function signingCertificateInfo(db: TExecutor, orgId: string) {
  const [row] = await db
    .select({
      source: firmSigningCerts.source,
      subject: firmSigningCerts.subject,
      notAfter: firmSigningCerts.notAfter,
    })
    .from(firmSigningCerts)
    .where(eq(firmSigningCerts.orgId, orgId));
  return row ?? null;
}

const badFile = () =>
  new TRPCError({
    code: 'BAD_REQUEST',
    message: 'This is not a PKCS#12 file with a key and its certificate, or the password is wrong',
  });

/** Reads an uploaded PKCS#12 (.p12/.pfx): its key, its certificate (the one matching the key), its chain. */
export function readPkcs12(bytes: Buffer, password: string) {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(bytes.toString('binary')), password);
  } catch {
    throw badFile();
  }
  const oids = forge.pki.oids as Record<string, string>;
  const bags = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const keyBags = [...bags(oids.pkcs8ShroudedKeyBag ?? ''), ...bags(oids.keyBag ?? '')];
  const certs: forge.pki.Certificate[] = bags(oids.certBag ?? '').flatMap((b) => (b.cert ? [b.cert] : []));
  const key = keyBags[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key || !certs.length) throw badFile();
  const modulus = key.n.toString(16);
  const leaf = certs.find((c) => (c.publicKey as forge.pki.rsa.PublicKey).n?.toString(16) === modulus);
  if (!leaf) throw badFile();
  if (leaf.validity.notAfter < new Date()) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'This certificate has expired' });
  }
  return {
    keyPem: forge.pki.privateKeyToPem(key),
    certPem: forge.pki.certificateToPem(leaf),
    chainPem: certs
      .filter((c) => c !== leaf)
      .map((c) => forge.pki.certificateToPem(c))
      .join(''),
    subject: subjectOf(leaf),
    notAfter: leaf.validity.notAfter,
  };
}

/** Replaces the firm's certificate with its own (the caller logs it in the same transaction). */
export async function storeUploadedCertificate(
  db: TExecutor,
  config: TVault,
  orgId: string,
  p12: ReturnType<typeof readPkcs12>,
) {
  const box = secretBox(config, db);
  const values = {
    source: 'uploaded' as const,
    certPem: p12.certPem,
    chainPem: p12.chainPem,
    keySealed: await box.seal(p12.keyPem, signingKeyContext(orgId)),
    subject: p12.subject,
    notAfter: p12.notAfter,
    updatedAt: new Date(),
  };
  await db
    .insert(firmSigningCerts)
    .values({ orgId, ...values })
    .onConflictDoUpdate({ target: firmSigningCerts.orgId, set: values });
}
