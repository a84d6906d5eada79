import { OWNER_CANNOT_DELETE, type TDeleteAccount, ZDeleteAccount } from '@domain/security';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import {
  Button,
  Card,
  CardHeader,
  CardTitle,
  Dialog,
  DialogClose,
  DialogContent,
  Field,
  Input,
} from '@web/ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { signOutStaff } from '../../lib/session';
import { trpc } from '../../lib/trpc';

/**
 * Delete my account: the firm's owner is told why not; anyone else confirms with their password,
 * leaves the firm (deactivated, their work stays) and is signed out.
 */
export function SecurityDeleteAccount({ isOwner }: { isOwner: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <Card aria-labelledby="delete-account-title">
      <CardHeader>
        <div>
          <CardTitle id="delete-account-title">Delete my account</CardTitle>
          <p className="text-sm text-muted-fg">
            {isOwner
              ? OWNER_CANNOT_DELETE
              : 'Removes your sign-in and takes you out of the firm. Your clients, tasks, time and leave stay with the firm under your name.'}
          </p>
        </div>
        <Button variant="danger" size="sm" disabled={isOwner} onClick={() => setOpen(true)}>
          Delete my account
        </Button>
      </CardHeader>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title="Delete your account?"
          description="This cannot be undone: your sign-in is removed for good."
        >
          {open ? <DeleteAccountForm /> : null}
        </DialogContent>
      </Dialog>
    </Card>
  );
}

function DeleteAccountForm() {
  const form = useForm<TDeleteAccount>({
    resolver: zodResolver(ZDeleteAccount),
    defaultValues: { password: '' },
  });
  const remove = useMutation(
    trpc.security.deleteAccount.mutationOptions({
      // The identity is gone and its sign-ins revoked: this browser leaves too.
      onSuccess: () => signOutStaff(),
    }),
  );
  return (
    <form noValidate onSubmit={form.handleSubmit((v) => remove.mutate(v))} className="flex flex-col gap-4">
      <Field label="Your password" required error={form.formState.errors.password?.message}>
        <Input type="password" autoComplete="current-password" {...form.register('password')} />
      </Field>
      <div className="flex justify-end gap-2 pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" variant="danger" loading={remove.isPending || remove.isSuccess}>
          Delete my account
        </Button>
      </div>
    </form>
  );
}
