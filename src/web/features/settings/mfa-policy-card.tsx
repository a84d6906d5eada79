import { MFA_GRACE_DAYS_MAX, type TMfaPolicy, type TMfaPolicyInput, ZMfaPolicy } from '@domain/mfa';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Checkbox,
  Field,
  Input,
  Select,
  Skeleton,
  toast,
} from '@web/ui';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { trpc } from '../../lib/trpc';

const POLICY_OPTIONS = [
  { value: 'off', label: 'Not required' },
  { value: 'all', label: 'Required for all staff' },
  { value: 'roles', label: 'Required for chosen roles' },
];

/**
 * The firm's two-step sign-in rule on /admin/settings/org. Grace days count from when the rule
 * started to apply to each member; after them, sign-in makes the member set it up.
 */
export function MfaPolicyCard({ canEdit }: { canEdit: boolean }) {
  const policy = useQuery(trpc.settings.mfaPolicy.queryOptions());
  return (
    <Card id="security" aria-labelledby="security-title" className="scroll-mt-4">
      <CardHeader>
        <div>
          <CardTitle id="security-title">Security</CardTitle>
          <CardDescription>Two-step sign-in (an authenticator app) for your staff.</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        {policy.data ? (
          <MfaPolicyForm
            canEdit={canEdit}
            values={{
              policy: policy.data.policy,
              roleIds: policy.data.roleIds,
              graceDays: policy.data.graceDays,
            }}
            roleOptions={policy.data.roleOptions}
          />
        ) : (
          <Skeleton className="h-24" />
        )}
      </CardContent>
    </Card>
  );
}

function MfaPolicyForm({
  canEdit,
  values,
  roleOptions,
}: {
  canEdit: boolean;
  values: TMfaPolicy;
  roleOptions: { id: string; name: string }[];
}) {
  const queryClient = useQueryClient();
  const form = useForm<TMfaPolicyInput, unknown, TMfaPolicy>({ resolver: zodResolver(ZMfaPolicy), values });
  const kind = useWatch({ control: form.control, name: 'policy' });
  const save = useMutation(
    trpc.settings.updateMfaPolicy.mutationOptions({
      onSuccess: async ({ changed }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.settings.mfaPolicy.queryKey() });
        toast.success(changed ? 'Two-step sign-in rule saved' : 'Nothing to save: no changes');
      },
    }),
  );
  const errors = form.formState.errors;
  return (
    <form noValidate onSubmit={form.handleSubmit((v) => save.mutate(v))} className="flex flex-col gap-4">
      <fieldset disabled={!canEdit} className="contents">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Two-step sign-in" error={errors.policy?.message}>
            <Controller
              control={form.control}
              name="policy"
              render={({ field }) => (
                <Select
                  name={field.name}
                  ref={field.ref}
                  disabled={field.disabled}
                  value={field.value}
                  onValueChange={field.onChange}
                  options={POLICY_OPTIONS}
                />
              )}
            />
          </Field>
          {kind !== 'off' && (
            <Field
              label="Grace days"
              hint={`Days to set it up, from when the rule applies to a person (0–${MFA_GRACE_DAYS_MAX})`}
              error={errors.graceDays?.message}
            >
              <Input
                type="number"
                min={0}
                max={MFA_GRACE_DAYS_MAX}
                {...form.register('graceDays', { valueAsNumber: true })}
              />
            </Field>
          )}
        </div>
        {kind === 'roles' && (
          <fieldset className="flex flex-col gap-2" aria-describedby="mfa-roles-error">
            <legend className="mb-1 text-sm font-medium">Roles that must use it</legend>
            <Controller
              control={form.control}
              name="roleIds"
              render={({ field }) => (
                <div className="grid gap-2 sm:grid-cols-2">
                  {roleOptions.map((role) => (
                    <Checkbox
                      key={role.id}
                      label={role.name}
                      checked={field.value.includes(role.id)}
                      onCheckedChange={(on) =>
                        field.onChange(
                          on ? [...field.value, role.id] : field.value.filter((id) => id !== role.id),
                        )
                      }
                    />
                  ))}
                </div>
              )}
            />
            {errors.roleIds && (
              <p id="mfa-roles-error" className="text-sm text-danger">
                {errors.roleIds.message}
              </p>
            )}
          </fieldset>
        )}
        {canEdit && (
          <div className="flex justify-end">
            <Button type="submit" loading={save.isPending}>
              Save rule
            </Button>
          </div>
        )}
      </fieldset>
    </form>
  );
}
