import type { TPortalCodeVerify } from '@domain/client-users';
import { PORTAL_CODE_LENGTH } from '@domain/client-users-constants';
import { ROUTE_PATHS, safeReturnPath } from '@domain/route-guard';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { Button, Field, Input } from '@web/ui';
import { MailCheck } from 'lucide-react';
import { errorMessage, trpc } from '../../lib/trpc';
import { AuthHeading } from '../auth/auth-layout';
import { useLazySchemaForm } from './lazy-schema-form';

// The portal login's second step (the code mailed), fetched with the first key or tap on the first
// step or its submit, not with the page.

const route = getRouteApi('/_auth/clientportal/auth/login');
const schemas = () => import('@domain/client-users');

export function CodeStep({
  email,
  message,
  onBack,
  onResent,
}: {
  email: string;
  message: string;
  onBack: () => void;
  onResent: (sent: { email: string; message: string }) => void;
}) {
  const navigate = useNavigate();
  const { next } = route.useSearch();
  const queryClient = useQueryClient();
  const form = useLazySchemaForm<TPortalCodeVerify, TPortalCodeVerify>({ email, code: '' }, () =>
    schemas().then((m) => m.ZPortalCodeVerify),
  );
  const verify = useMutation(
    trpc.clientPortalAuth.verifyCode.mutationOptions({
      onSuccess: async () => {
        // Nothing cached for someone else (or for nobody) may outlive the sign-in.
        queryClient.clear();
        await navigate({
          href: safeReturnPath(next, 'portal') ?? ROUTE_PATHS['clientportal-index'],
          replace: true,
        });
      },
      onError: (error) => {
        form.setError('code', errorMessage(error));
        form.setValue('code', '');
        form.setFocus('code');
      },
    }),
  );
  const resend = useMutation(
    trpc.clientPortalAuth.requestCode.mutationOptions({
      onSuccess: (result) => {
        form.clearErrors();
        onResent({ email, message: result.message });
      },
    }),
  );
  return (
    <>
      <MailCheck aria-hidden className="mb-3 size-10 text-primary" />
      <AuthHeading title="Check your email" description={message} />
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => verify.mutate(values))}
        onPointerDownCapture={form.prefetch}
        onKeyDownCapture={form.prefetch}
        className="flex flex-col gap-4"
      >
        <Field label="Sign-in code" error={form.errors.code}>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={PORTAL_CODE_LENGTH}
            autoFocus
            className="text-center font-mono text-xl tracking-[0.5em]"
            {...form.register('code')}
          />
        </Field>
        <Button type="submit" size="lg" loading={verify.isPending}>
          Sign in
        </Button>
      </form>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
        <Button variant="ghost" size="sm" onClick={onBack}>
          Use another email
        </Button>
        <Button variant="ghost" size="sm" loading={resend.isPending} onClick={() => resend.mutate({ email })}>
          Send a new code
        </Button>
      </div>
    </>
  );
}
