import { type TTotpCode, ZTotpCode } from '@domain/mfa';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Field, Input, toast } from '@web/ui';
import { QRCodeSVG } from 'qrcode.react';
import { useForm } from 'react-hook-form';
import { showAuthError } from './auth-errors';

/** The name authenticator apps show beside the code. */
export const TOTP_ISSUER = 'Practice';

type TProps = {
  secret: string;
  /** The otpauth:// address the QR code carries (Amplify's getSetupUri). */
  uri: string;
  submitLabel?: string;
  /** Checks the first code (confirmSignIn or verifyTOTPSetup); throws the provider's error. */
  onVerify: (code: string) => Promise<void>;
};

/**
 * Adding an authenticator app: a QR code to scan, the same key as text to copy for apps that
 * cannot scan, and the first code to prove it works.
 */
export function TotpSetupPanel({ secret, uri, submitLabel = 'Turn on', onVerify }: TProps) {
  const form = useForm<TTotpCode>({ resolver: zodResolver(ZTotpCode), defaultValues: { code: '' } });

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      toast.success('Key copied');
    } catch {
      toast.error('Could not copy: select the key and copy it yourself');
    }
  }

  async function onSubmit({ code }: TTotpCode) {
    try {
      await onVerify(code);
    } catch (error) {
      showAuthError(error);
      form.reset({ code: '' });
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-muted-fg">
        <li>Open an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).</li>
        <li>Scan the QR code, or enter the key by hand.</li>
        <li>Type the six-digit code the app shows.</li>
      </ol>
      <div className="self-center rounded-md bg-white p-3">
        <QRCodeSVG value={uri} size={176} title="QR code for your authenticator app" data-testid="totp-qr" />
      </div>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 break-all rounded-md bg-muted px-3 py-2 font-mono text-sm"
          data-testid="totp-secret"
        >
          {secret}
        </code>
        <Button type="button" variant="secondary" onClick={copy}>
          Copy key
        </Button>
      </div>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
        <Field label="Code from the app" error={form.formState.errors.code?.message}>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...form.register('code')} />
        </Field>
        <Button type="submit" loading={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
      </form>
    </div>
  );
}
