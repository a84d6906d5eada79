import type { TPortalCodeRequest } from '@domain/client-users';
import { useMutation } from '@tanstack/react-query';
import { Button, Field, Input } from '@web/ui';
import { lazy, Suspense, useState } from 'react';
import { errorMessage, trpc } from '../../lib/trpc';
import { AuthHeading } from '../auth/auth-layout';
import { useLazySchemaForm } from './lazy-schema-form';

// The shared schemas (zod) and the code step come with the first key or tap in the form (or its
// submit), not with the page: the page's first load is what every portal visit pays.
const schemas = () => import('@domain/client-users');
const codeStep = () => import('./portal-code-step');
const CodeStep = lazy(() => codeStep().then((m) => ({ default: m.CodeStep })));

/** /clientportal/auth/login: the email, then the one-time code mailed to it. */
export function PortalLoginPage() {
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  return sent ? (
    <Suspense fallback={null}>
      <CodeStep email={sent.email} message={sent.message} onBack={() => setSent(null)} onResent={setSent} />
    </Suspense>
  ) : (
    <EmailStep onSent={setSent} />
  );
}

function EmailStep({ onSent }: { onSent: (sent: { email: string; message: string }) => void }) {
  const form = useLazySchemaForm<TPortalCodeRequest, TPortalCodeRequest>({ email: '' }, () =>
    schemas().then((m) => m.ZPortalCodeRequest),
  );
  const request = useMutation(
    trpc.clientPortalAuth.requestCode.mutationOptions({
      // The code step is shown once it is here (fetched since the first key or tap, so at once).
      onSuccess: async (result, input) => {
        await codeStep();
        onSent({ email: input.email.trim().toLowerCase(), message: result.message });
      },
      // Also beside the field (the toast says it too): a limit's wait is worth keeping in view.
      onError: (error) => form.setError('email', errorMessage(error)),
    }),
  );
  const prefetch = () => {
    form.prefetch();
    void codeStep().catch(() => undefined);
  };
  return (
    <>
      <AuthHeading
        title="Sign in to your client portal"
        description="Enter the email address your firm invited. We will email you a sign-in code."
      />
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => request.mutate(values))}
        onPointerDownCapture={prefetch}
        onKeyDownCapture={prefetch}
        className="flex flex-col gap-4"
      >
        <Field label="Email" error={form.errors.email}>
          <Input type="email" inputMode="email" autoComplete="email" autoFocus {...form.register('email')} />
        </Field>
        <Button type="submit" size="lg" loading={request.isPending}>
          Email me a code
        </Button>
      </form>
    </>
  );
}
