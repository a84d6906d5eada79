import { createHash, sign as rsaSign } from 'node:crypto';
import { Signer } from '@signpdf/utils';
import forge from 'node-forge';

// The PDF's signature as PAdES baseline B-B asks (ETSI EN 319 142-1): a detached CMS SignedData
// (SubFilter ETSI.CAdES.detached) whose signed attributes are the content type, the message digest
// and the signing certificate v2 (ESS, RFC 5035), and no signing-time attribute (the time is the
// signature dictionary's /M). node-forge's PKCS#7 writer cannot add the ESS attribute, so the
// structure is written here with forge's ASN.1 and signed with node:crypto.

const { asn1 } = forge;
const U = asn1.Class.UNIVERSAL;
const T = asn1.Type;

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
} as const;

const oid = (o: string) => asn1.create(U, T.OID, false, asn1.oidToDer(o).getBytes());
const seq = (items: forge.asn1.Asn1[]) => asn1.create(U, T.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(U, T.SET, true, items);
const octets = (b: Buffer) => asn1.create(U, T.OCTETSTRING, false, b.toString('binary'));
const int = (n: number) => asn1.create(U, T.INTEGER, false, asn1.integerToDer(n).getBytes());
const algorithm = (o: string) => seq([oid(o), asn1.create(U, T.NULL, false, '')]);
const attribute = (type: string, value: forge.asn1.Asn1) => seq([oid(type), set([value])]);
const der = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const fromDer = (b: Buffer) => asn1.fromDer(b.toString('binary'));

export const pemToDer = (pem: string) =>
  Buffer.from(forge.pem.decode(pem).find((m) => m.type === 'CERTIFICATE')?.body ?? '', 'binary');

/** The CMS for one PDF byte range, signed by the firm's key; certificates: leaf first, then the chain. */
export function cadesDetached(content: Buffer, keyPem: string, certDers: Buffer[]): Buffer {
  const [leafDer] = certDers;
  if (!leafDer) throw new Error('no signing certificate');
  const leaf = fromDer(leafDer);
  const tbs = (leaf.value as forge.asn1.Asn1[])[0] as forge.asn1.Asn1;
  const tbsParts = tbs.value as forge.asn1.Asn1[];
  // An explicit [0] version comes first in a v3 certificate.
  const offset = tbsParts[0]?.tagClass === asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  const serial = tbsParts[offset] as forge.asn1.Asn1;
  const issuer = tbsParts[offset + 2] as forge.asn1.Asn1;

  const essCertIdV2 = seq([octets(createHash('sha256').update(leafDer).digest())]);
  const signedAttrs = [
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(createHash('sha256').update(content).digest())),
    attribute(OID.signingCertificateV2, seq([seq([essCertIdV2])])),
  ];
  // Signed as a DER SET (RFC 5652 §5.4), carried as [0] IMPLICIT in the SignerInfo.
  const signature = rsaSign('sha256', der(set(signedAttrs)), keyPem);
  const signerInfo = seq([
    int(1),
    seq([issuer, serial]),
    algorithm(OID.sha256),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, signedAttrs),
    algorithm(OID.sha256WithRsa),
    octets(signature),
  ]);
  const signedData = seq([
    int(1),
    set([algorithm(OID.sha256)]),
    seq([oid(OID.data)]),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, certDers.map(fromDer)),
    set([signerInfo]),
  ]);
  return der(seq([oid(OID.signedData), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]));
}

/** @signpdf's signer: it hands over the bytes outside the placeholder. */
export class CadesSigner extends Signer {
  constructor(
    private readonly keyPem: string,
    private readonly certDers: Buffer[],
  ) {
    super();
  }
  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    return cadesDetached(pdfBuffer, this.keyPem, this.certDers);
  }
}
