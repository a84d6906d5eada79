import type { z } from 'zod';
import type { ZSigningCertificateUpload } from '../../../domain/proposals';
import { actorOf, type TRequestMeta, type TScope } from '../../auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/client';
import { audit } from '../system-log';
import { readPkcs12, signingCertificateInfo, storeUploadedCertificate } from './certificate';

export { signingCertificateInfo };

/** The firm's own PKCS#12 replaces the made one; documents sealed before keep their signature. */
export async function uploadCertificate(
  db: TDb,
  config: Pick<TConfig, 'vault'>,
  scope: TScope,
  input: z.output<typeof ZSigningCertificateUpload>,
  meta: TRequestMeta,
) {
  const p12 = readPkcs12(Buffer.from(input.fileBase64, 'base64'), input.password);
  return db.transaction(async (tx) => {
    await storeUploadedCertificate(tx, config, scope.orgId, p12);
    await audit(tx, actorOf(scope, meta), {
      action: 'proposal.certificate.upload',
      recordType: 'org',
      recordId: scope.orgId,
      summary: `Uploaded the firm's signing certificate “${p12.subject}” (valid until ${p12.notAfter.toISOString().slice(0, 10)})`,
    });
    return { subject: p12.subject, notAfter: p12.notAfter };
  });
}
