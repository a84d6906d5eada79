import { type TNewPassword, ZNewPassword } from '@domain/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Field, Input } from '@web/ui';
import { confirmResetPassword, confirmSignIn } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { useForm } from 'react-hook-form';
import { showAuthError } from './auth-errors';

type TProps =
  | { mode: 'challenge'; onDone: () => void }
  | { mode: 'reset'; username: string; code: string; onDone: () => void };

/** A new password: answering the NEW_PASSWORD_REQUIRED challenge, or completing a reset link. */
export function NewPasswordForm(props: TProps) {
  const form = useForm<TNewPassword>({
    resolver: zodResolver(ZNewPassword),
    defaultValues: { password: '', confirm: '' },
  });
  async function onSubmit({ password }: TNewPassword) {
    try {
      if (props.mode === 'challenge') {
        const { nextStep } = await confirmSignIn({ challengeResponse: password });
        if (nextStep.signInStep !== 'DONE')
          throw new Error(`This sign-in step is not supported yet: ${nextStep.signInStep}`);
      } else {
        await confirmResetPassword({
          username: props.username,
          confirmationCode: props.code,
          newPassword: password,
        });
      }
      props.onDone();
    } catch (error) {
      showAuthError(error);
    }
  }
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="flex flex-col gap-4">
      <Field
        label="New password"
        hint="At least 8 characters, with upper and lower case letters, a number and a symbol."
        error={form.formState.errors.password?.message}
      >
        <Input type="password" autoComplete="new-password" autoFocus {...form.register('password')} />
      </Field>
      <Field label="Confirm new password" error={form.formState.errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" {...form.register('confirm')} />
      </Field>
      <Button type="submit" loading={form.formState.isSubmitting}>
        Set password
      </Button>
    </form>
  );
}
