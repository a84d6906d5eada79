import { type TForgotPassword, ZForgotPassword } from '@domain/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@tanstack/react-router';
import { Button, Field, Input } from '@web/ui';
import { resetPassword } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { showAuthError } from './auth-errors';
import { AuthHeading } from './auth-layout';

export function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<TForgotPassword>({
    resolver: zodResolver(ZForgotPassword),
    defaultValues: { email: '' },
  });

  async function onSubmit({ email }: TForgotPassword) {
    try {
      await resetPassword({ username: email });
      setSentTo(email);
    } catch (error) {
      showAuthError(error);
    }
  }

  if (sentTo) {
    return (
      <>
        <AuthHeading
          title="Check your email"
          description={`We sent a link to reset your password to ${sentTo}. It expires in an hour.`}
        />
        <Link to="/auth/login" className="text-sm text-primary hover:underline">
          Back to sign in
        </Link>
      </>
    );
  }
  return (
    <>
      <AuthHeading title="Reset your password" description="Enter your email and we will send you a link." />
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
        <Field label="Email" error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="username" autoFocus {...form.register('email')} />
        </Field>
        <Button type="submit" loading={form.formState.isSubmitting}>
          Send reset link
        </Button>
      </form>
      <p className="mt-6 text-center text-sm">
        <Link to="/auth/login" className="text-primary hover:underline">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
