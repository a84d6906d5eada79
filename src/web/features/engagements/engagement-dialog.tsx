import {
  BILLING_MODE_LABELS,
  BILLING_MODES,
  FEE_TRIGGER_LABELS,
  FEE_TRIGGERS,
  type TBillingMode,
} from '@domain/billing/constants';
import { todayIn } from '@domain/days';
import { type TEngagementInput, ZEngagementInput } from '@domain/engagements';
import { FREQUENCY_LABELS } from '@domain/services';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Checkbox,
  DatePicker,
  DialogClose,
  DialogContent,
  Dialog as DialogRoot,
  Field,
  Input,
  Select,
  Textarea,
  toast,
  useFormat,
} from '@web/ui';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { trpc } from '../../lib/trpc';
import type { TEngagementRow } from '../services/use-services';
import { useCan } from '../shell/access';

type TEngagementForm = ReturnType<
  typeof useForm<TEngagementInput, unknown, z.output<typeof ZEngagementInput>>
>;

/** How the engagement is billed: its fee, and for a fixed fee when each period's fee is billed and from when. */
function BillingFields({ form }: { form: TEngagementForm }) {
  const errors = form.formState.errors;
  const mode = (form.watch('billingMode') ?? 'hourly') as TBillingMode;
  return (
    <fieldset className="flex flex-col gap-4 rounded-md border border-border p-3">
      <legend className="px-1 text-sm font-medium">Billing</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Billed" error={errors.billingMode?.message}>
          <Controller
            control={form.control}
            name="billingMode"
            render={({ field }) => (
              <Select
                name={field.name}
                ref={field.ref}
                value={field.value ?? 'hourly'}
                onValueChange={field.onChange}
                options={BILLING_MODES.map((m) => ({ value: m, label: BILLING_MODE_LABELS[m] }))}
              />
            )}
          />
        </Field>
        <Field
          label={mode === 'fixed' ? 'Fee per period' : 'Fee'}
          hint="The service's default fee unless you change it"
          error={errors.fee?.message}
          required={mode === 'fixed'}
        >
          <Input inputMode="decimal" placeholder="0.00" {...form.register('fee')} />
        </Field>
      </div>
      {mode === 'fixed' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="The fee is billed" error={errors.feeTrigger?.message}>
            <Controller
              control={form.control}
              name="feeTrigger"
              render={({ field }) => (
                <Select
                  name={field.name}
                  ref={field.ref}
                  value={field.value ?? 'manual'}
                  onValueChange={field.onChange}
                  options={FEE_TRIGGERS.map((t) => ({ value: t, label: FEE_TRIGGER_LABELS[t] }))}
                />
              )}
            />
          </Field>
          <Field
            label="Bill from"
            hint="Fees are due for periods from this day; empty: from the start date"
            error={errors.billFrom?.message}
          >
            <Controller
              control={form.control}
              name="billFrom"
              render={({ field }) => (
                <DatePicker
                  {...field}
                  value={field.value ?? null}
                  min={form.watch('startDate') || undefined}
                />
              )}
            />
          </Field>
        </div>
      ) : null}
    </fieldset>
  );
}

/** Adds a service to a client (or edits an engagement): dates, fee (the service's by default), assignees. */
export function EngagementDialog({
  open,
  onOpenChange,
  clientId,
  engagement,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  clientId: string;
  engagement: TEngagementRow | null;
}) {
  const queryClient = useQueryClient();
  const canSeeTeam = useCan('team.view');
  // A new engagement starts on the firm's today.
  const { timeZone } = useFormat();
  const services = useQuery({
    ...trpc.services.list.queryOptions({ page: 1, pageSize: 200, sort: 'name', direction: 'asc' }),
    enabled: open,
  });
  const team = useQuery({
    ...trpc.team.list.queryOptions({
      page: 1,
      pageSize: 200,
      sort: 'name',
      direction: 'asc',
      status: 'active',
    }),
    enabled: open && canSeeTeam,
  });
  const form = useForm<TEngagementInput, unknown, z.output<typeof ZEngagementInput>>({
    resolver: zodResolver(ZEngagementInput),
    defaultValues: {
      serviceId: '',
      startDate: todayIn(timeZone),
      endDate: null,
      fee: '',
      assigneeIds: [],
      notes: '',
      billingMode: 'hourly',
      feeTrigger: 'manual',
      billFrom: null,
    },
  });
  useEffect(() => {
    if (!open) return;
    form.reset(
      engagement
        ? {
            serviceId: engagement.service.id,
            startDate: engagement.startDate,
            endDate: engagement.endDate,
            fee: engagement.fee ?? '',
            assigneeIds: engagement.assignees.map((a) => a.id),
            notes: engagement.notes ?? '',
            billingMode: engagement.billingMode,
            feeTrigger: engagement.feeTrigger,
            billFrom: engagement.billFrom,
          }
        : {
            serviceId: '',
            startDate: todayIn(timeZone),
            endDate: null,
            fee: '',
            assigneeIds: [],
            notes: '',
            billingMode: 'hourly',
            feeTrigger: 'manual',
            billFrom: null,
          },
    );
  }, [open, engagement, form, timeZone]);
  const done = async (message: string) => {
    toast.success(message);
    onOpenChange(false);
    await queryClient.invalidateQueries({ queryKey: trpc.engagements.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.services.pathKey() });
  };
  const create = useMutation(
    trpc.engagements.create.mutationOptions({ onSuccess: () => done('Service added') }),
  );
  const update = useMutation(
    trpc.engagements.update.mutationOptions({ onSuccess: () => done('Engagement saved') }),
  );
  const errors = form.formState.errors;
  const serviceRows = services.data?.rows ?? [];
  // Members already assigned stay listed even if the team list is out of reach.
  const memberOptions = new Map<string, string>((engagement?.assignees ?? []).map((a) => [a.id, a.name]));
  for (const m of team.data?.rows ?? []) memberOptions.set(m.id, m.name);

  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={engagement ? `Edit ${engagement.service.name}` : 'Add a service'}
        description="Which service the client takes, from when, for what fee and who works on it."
        footer={
          <>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button type="submit" form="engagement-form" loading={create.isPending || update.isPending}>
              {engagement ? 'Save' : 'Add service'}
            </Button>
          </>
        }
      >
        <form
          id="engagement-form"
          noValidate
          className="flex flex-col gap-4"
          onSubmit={form.handleSubmit(({ serviceId, ...values }) =>
            engagement
              ? update.mutate({ engagementId: engagement.id, ...values })
              : create.mutate({ clientId, serviceId, ...values }),
          )}
        >
          <Field label="Service" error={errors.serviceId ? 'Choose a service' : undefined} required>
            <Controller
              control={form.control}
              name="serviceId"
              render={({ field }) => (
                <Select
                  {...field}
                  disabled={!!engagement || services.isPending}
                  placeholder={services.isPending ? 'Loading services…' : 'Choose a service'}
                  onValueChange={(value) => {
                    field.onChange(value);
                    const chosen = serviceRows.find((s) => s.id === value);
                    form.setValue('fee', chosen?.defaultFee ?? '');
                    // The service's arrangement; a fixed fee with no default fee is billed by the hour.
                    form.setValue(
                      'billingMode',
                      chosen?.billingMode === 'fixed' && !chosen.defaultFee
                        ? 'hourly'
                        : (chosen?.billingMode ?? 'hourly'),
                    );
                    form.setValue('feeTrigger', chosen?.feeTrigger ?? 'manual');
                  }}
                  options={(engagement
                    ? [
                        {
                          id: engagement.service.id,
                          name: engagement.service.name,
                          code: engagement.service.code,
                          frequency: engagement.service.frequency,
                        },
                      ]
                    : serviceRows
                  ).map((s) => ({
                    value: s.id,
                    label: `${s.name} (${s.code}) · ${FREQUENCY_LABELS[s.frequency as keyof typeof FREQUENCY_LABELS] ?? s.frequency}`,
                  }))}
                />
              )}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Start date" error={errors.startDate?.message} required>
              <Controller
                control={form.control}
                name="startDate"
                render={({ field }) => (
                  <DatePicker {...field} value={field.value ?? null} clearable={false} />
                )}
              />
            </Field>
            <Field label="End date" hint="Leave empty while ongoing" error={errors.endDate?.message}>
              <Controller
                control={form.control}
                name="endDate"
                render={({ field }) => (
                  <DatePicker
                    {...field}
                    value={field.value ?? null}
                    min={form.watch('startDate') || undefined}
                  />
                )}
              />
            </Field>
          </div>
          <BillingFields form={form} />
          <Field label="Assignees" error={errors.assigneeIds?.message}>
            <Controller
              control={form.control}
              name="assigneeIds"
              render={({ field }) => {
                const value = field.value ?? [];
                return memberOptions.size === 0 ? (
                  <p className="text-sm text-muted-fg">
                    {team.isFetching ? 'Loading members…' : 'No members to choose from.'}
                  </p>
                ) : (
                  <ul
                    aria-label="Assignees"
                    className="max-h-40 overflow-y-auto rounded-md border border-border p-2"
                  >
                    {[...memberOptions].map(([id, name]) => (
                      <li key={id} className="py-1">
                        <Checkbox
                          label={name}
                          checked={value.includes(id)}
                          onCheckedChange={(on) =>
                            field.onChange(on ? [...value, id] : value.filter((v) => v !== id))
                          }
                        />
                      </li>
                    ))}
                  </ul>
                );
              }}
            />
          </Field>
          <Field label="Notes" error={errors.notes?.message}>
            <Textarea rows={2} {...form.register('notes')} />
          </Field>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
