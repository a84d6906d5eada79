import { ZSigningCertificateUpload } from '@domain/proposals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Field,
  Input,
  toast,
  useFormat,
} from '@web/ui';
import { useState } from 'react';
import { errorMessage, trpc } from '../../lib/trpc';

/**
 * Firm settings: the certificate that seals signed proposals. Made for the firm on first use; the
 * firm may upload its own PKCS#12 (.p12/.pfx), whose key the server keeps sealed by the vault key.
 */
export function SigningCertificateCard({ canEdit }: { canEdit: boolean }) {
  const format = useFormat();
  const queryClient = useQueryClient();
  const info = useQuery({ ...trpc.proposals.certificate.queryOptions(), enabled: canEdit });
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const upload = useMutation(
    trpc.proposals.uploadCertificate.mutationOptions({
      onSuccess: async (r) => {
        toast.success(`Signing certificate “${r.subject}” saved`);
        setFile(null);
        setPassword('');
        await queryClient.invalidateQueries({ queryKey: trpc.proposals.certificate.queryKey() });
      },
      onError: (e) => setError(errorMessage(e)),
    }),
  );
  if (!canEdit) return null;
  const submit = async () => {
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    const parsed = ZSigningCertificateUpload.safeParse({ fileBase64: btoa(binary), password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Choose a .p12 or .pfx file');
      return;
    }
    setError(null);
    upload.mutate(parsed.data);
  };
  return (
    <Card id="signing" aria-labelledby="signing-title" className="scroll-mt-4">
      <CardHeader>
        <div>
          <CardTitle id="signing-title">Document signing certificate</CardTitle>
          <CardDescription>
            Signed proposals are sealed as PDFs with this certificate, so any PDF reader shows they have not
            changed.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <p className="text-sm">
          {info.data
            ? `${info.data.source === 'uploaded' ? 'Your own' : 'Made for the firm'}: ${info.data.subject}, valid until ${format.date(info.data.notAfter)}.`
            : 'None yet: one is made for the firm when the first proposal is signed.'}
        </p>
        <Field label="Your own certificate (.p12 or .pfx)">
          <Input
            type="file"
            accept=".p12,.pfx,application/x-pkcs12"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </Field>
        <Field label="Its password">
          <Input
            type="password"
            autoComplete="off"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
        <Button
          className="self-start"
          disabled={!file}
          loading={upload.isPending}
          onClick={() => void submit()}
        >
          Upload certificate
        </Button>
      </CardContent>
    </Card>
  );
}
