import { type TForgotPassword, ZForgotPassword } from '@domain/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@tanstack/react-router';
import { Button, buttonVariants, Field, Input } from '@web/ui';
import { Link2Off } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { AuthHeading } from './auth-layout';
import { resendVerificationLink } from './verification-link';

/**
 * A verify or reset link whose key does not decode: cut short or changed on its way from the mail
 * (a wrapped line, a mail scanner). The person came to finish something, so the page says what
 * went wrong and offers a new link, rather than a bare 404.
 */
export function BrokenLinkPage({ kind }: { kind: 'verify' | 'reset' }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <Link2Off aria-hidden className="size-10 text-danger" />
      <AuthHeading
        title="This link is broken"
        description={`The ${kind === 'verify' ? 'verification' : 'password reset'} link was cut short or changed on its way from the email. Ask for a new one: it works in place of this.`}
      />
      {kind === 'verify' ? (
        <ResendVerification />
      ) : (
        <Link to="/auth/forgotpassword" className={buttonVariants()}>
          Send a new reset link
        </Link>
      )}
      <Link to="/auth/login" className="text-sm text-primary hover:underline">
        Back to sign in
      </Link>
    </div>
  );
}

function ResendVerification() {
  const form = useForm<TForgotPassword>({
    resolver: zodResolver(ZForgotPassword),
    defaultValues: { email: '' },
  });
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(({ email }) => resendVerificationLink(email))}
      className="flex w-full flex-col gap-4"
    >
      <Field label="Email" error={form.formState.errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register('email')} />
      </Field>
      <Button type="submit" loading={form.formState.isSubmitting}>
        Send a new verification link
      </Button>
    </form>
  );
}
