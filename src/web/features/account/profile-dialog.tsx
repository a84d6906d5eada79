import { type TUpdateProfile, type TUpdateProfileInput, ZUpdateProfile } from '@domain/account';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Dialog, DialogClose, DialogContent, Field, Input, Skeleton } from '@web/ui';
import { useForm, useWatch } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { toast } from '../../ui/toaster';

/** "My profile": the member's own name, phone and picture. */
export function ProfileDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="My profile" description="How you appear to your firm.">
        {open ? <ProfileForm onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** Only an address the schema accepts is loaded: a half-typed or http:// one would trip the CSP. */
const previewable = (picture: string | null | undefined): picture is string =>
  Boolean(picture) && ZUpdateProfile.shape.picture.safeParse(picture).success;

function ProfileForm({ onDone }: { onDone: () => void }) {
  const account = useQuery(trpc.account.get.queryOptions());
  if (!account.data) return <Skeleton className="h-64" />;
  const { email, ...values } = account.data;
  return (
    <ProfileFields
      email={email}
      defaults={{ ...values, phone: values.phone ?? '', picture: values.picture ?? '' }}
      onDone={onDone}
    />
  );
}

function ProfileFields({
  email,
  defaults,
  onDone,
}: {
  email: string;
  defaults: TUpdateProfileInput;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<TUpdateProfileInput, unknown, TUpdateProfile>({
    resolver: zodResolver(ZUpdateProfile),
    defaultValues: defaults,
  });
  const save = useMutation(
    trpc.account.updateProfile.mutationOptions({
      onSuccess: async () => {
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.account.get.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.profile.me.queryKey() }),
        ]);
        toast.success('Profile saved');
        onDone();
      },
    }),
  );
  const [first, last, picture] = useWatch({
    control: form.control,
    name: ['firstName', 'lastName', 'picture'],
  });
  const errors = form.formState.errors;
  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((v) =>
        save.mutate({ ...v, phone: v.phone ?? '', picture: v.picture ?? '' }),
      )}
      className="flex flex-col gap-4"
    >
      <div className="flex items-center gap-3">
        <Avatar
          name={`${first} ${last}`.trim() || email}
          src={previewable(picture) ? picture : null}
          size="lg"
        />
        <p className="truncate text-sm text-muted-fg">{email}</p>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Field label="First name" required error={errors.firstName?.message}>
          <Input autoComplete="given-name" {...form.register('firstName')} />
        </Field>
        <Field label="Last name" required error={errors.lastName?.message}>
          <Input autoComplete="family-name" {...form.register('lastName')} />
        </Field>
      </div>
      <Field label="Phone" error={errors.phone?.message}>
        <Input type="tel" autoComplete="tel" {...form.register('phone')} />
      </Field>
      <Field label="Picture URL" hint="An https:// address of a square image" error={errors.picture?.message}>
        <Input type="url" inputMode="url" {...form.register('picture')} />
      </Field>
      <div className="flex justify-end gap-2 pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
