import { type TRegister, ZRegister } from '@domain/auth';
import { isInvitedAddress, SIGN_UP_INVITE_KEY } from '@domain/team';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { Button, Field, Input, Spinner } from '@web/ui';
import { autoSignIn, signUp } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { useJoinFirm } from '../team/use-join-firm';
import { showAuthError } from './auth-errors';
import { AuthHeading, StandalonePage } from './auth-layout';
import { resendVerificationLink } from './verification-link';

const route = getRouteApi('/auth/register');

export function RegisterPage() {
  const navigate = useNavigate();
  const { invite } = route.useSearch();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<TRegister>({
    resolver: zodResolver(ZRegister),
    defaultValues: { firstName: '', lastName: '', email: '', password: '' },
  });
  // Came from an invitation: its address is the one to register, and the firm is named.
  const invitation = useQuery({
    ...trpc.invites.preview.queryOptions({ key: invite ?? '' }),
    enabled: invite !== undefined,
  });
  const invitedEmail = invitation.data?.state === 'open' ? invitation.data.email : undefined;
  useEffect(() => {
    if (invitedEmail && !form.getValues('email')) form.setValue('email', invitedEmail);
  }, [invitedEmail, form]);
  const join = useJoinFirm();

  /** From an invitation: join its firm at once (home); a refusal shows the invitation and why. */
  async function afterSignIn() {
    if (!invite) {
      await navigate({ to: '/onboarding' });
      return;
    }
    try {
      await join.mutateAsync({ key: invite });
    } catch {
      await navigate({ to: '/auth/invite/$key', params: { key: invite } });
    }
  }

  async function onSubmit(values: TRegister) {
    // The invitation joins only the address it was sent to; another would be a stranger's account.
    if (invitedEmail && !isInvitedAddress(invitedEmail, values.email)) {
      form.setError('email', {
        message: `This invitation is for ${invitedEmail}. Create the account with that address.`,
      });
      return;
    }
    try {
      const { isSignUpComplete, nextStep } = await signUp({
        username: values.email,
        password: values.password,
        options: {
          userAttributes: { email: values.email, given_name: values.firstName, family_name: values.lastName },
          // The invitation's key proves the mailbox: the provider confirms the account without a mail.
          ...(invite && invitedEmail ? { validationData: { [SIGN_UP_INVITE_KEY]: invite } } : {}),
          autoSignIn: true,
        },
      });
      if (nextStep.signUpStep === 'COMPLETE_AUTO_SIGN_IN') {
        // Already confirmed: signs in at once. Confirmed by the emailed link: Amplify polls every
        // 5 seconds for up to 3 minutes (SPEC.md §4), so this tab carries on by itself.
        if (!isSignUpComplete) setSentTo(values.email);
        const result = await autoSignIn();
        if (result.nextStep.signInStep === 'DONE') await afterSignIn();
        return;
      }
      if (nextStep.signUpStep === 'DONE') {
        await navigate({ to: '/auth/login', search: invite ? { invite } : {} });
        return;
      }
      setSentTo(values.email);
    } catch (error) {
      showAuthError(error);
    }
  }

  const errors = form.formState.errors;
  return (
    <StandalonePage>
      {sentTo ? (
        <div className="flex flex-col items-start gap-4">
          <MailCheck aria-hidden className="size-10 text-primary" />
          <AuthHeading
            title="Check your email"
            description={
              <>
                We sent a verification link to <strong className="text-fg">{sentTo}</strong>. Open it to
                verify your address; this page carries on by itself once you have.
              </>
            }
          />
          <p className="flex items-center gap-2 text-sm text-muted-fg" role="status">
            <Spinner className="size-4" /> Waiting for verification…
          </p>
          <Button variant="secondary" onClick={() => sentTo && resendVerificationLink(sentTo)}>
            Send the link again
          </Button>
          <Link to="/auth/login" className="text-sm text-primary hover:underline">
            Back to sign in
          </Link>
        </div>
      ) : (
        <>
          <AuthHeading
            title="Create your account"
            description={
              invitation.data?.state === 'open'
                ? `Then join ${invitation.data.firmName} as ${invitation.data.roleName}.`
                : 'Start running your practice in minutes.'
            }
          />
          <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
            <div className="grid grid-cols-2 gap-3">
              <Field label="First name" error={errors.firstName?.message}>
                <Input autoComplete="given-name" autoFocus {...form.register('firstName')} />
              </Field>
              <Field label="Last name" error={errors.lastName?.message}>
                <Input autoComplete="family-name" {...form.register('lastName')} />
              </Field>
            </div>
            <Field label="Work email" error={errors.email?.message}>
              <Input type="email" autoComplete="email" {...form.register('email')} />
            </Field>
            <Field
              label="Password"
              hint="At least 8 characters, with upper and lower case letters, a number and a symbol."
              error={errors.password?.message}
            >
              <Input type="password" autoComplete="new-password" {...form.register('password')} />
            </Field>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Create account
            </Button>
          </form>
          <p className="mt-6 text-center text-sm text-muted-fg">
            Already have an account?{' '}
            <Link
              to="/auth/login"
              search={invite ? { invite } : {}}
              className="font-medium text-primary hover:underline"
            >
              Sign in
            </Link>
          </p>
        </>
      )}
    </StandalonePage>
  );
}
