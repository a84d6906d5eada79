import {
  BILLING_MODE_LABELS,
  BILLING_MODES,
  FEE_TRIGGER_LABELS,
  FEE_TRIGGERS,
} from '@domain/billing/constants';
import { bpToPercent } from '@domain/billing/wip';
import {
  dueDateRulePreview,
  FREQUENCY_LABELS,
  SERVICE_FREQUENCIES,
  type TServiceInput,
  type TServiceValues,
  ZServiceInput,
} from '@domain/services';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Field, FormSelect, Input, RecordDialog, Switch, Textarea, type TRecordForm, toast } from '@web/ui';
import { Controller } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import type { TServiceRow } from './use-services';

const EMPTY: TServiceInput = {
  name: '',
  code: '',
  category: '',
  description: '',
  frequency: 'monthly',
  dueDateRule: null,
  defaultFee: '',
  projectTemplateId: null,
  statutoryFilingCode: null,
  billingMode: 'fixed',
  feeTrigger: 'manual',
  taxCode: '',
  taxRate: '',
};

const fromRow = (s: TServiceRow): TServiceInput => ({
  name: s.name,
  code: s.code,
  category: s.category ?? '',
  description: s.description ?? '',
  frequency: s.frequency,
  dueDateRule: s.dueDateRule,
  defaultFee: s.defaultFee ?? '',
  projectTemplateId: s.projectTemplateId,
  statutoryFilingCode: s.statutoryFilingCode,
  billingMode: s.billingMode,
  feeTrigger: s.feeTrigger,
  taxCode: s.taxCode,
  taxRate: bpToPercent(s.taxRateBp),
});

/** Creates a service, or edits the one given; the same schema as the server checks it. */
export function ServiceDrawer({
  open,
  onOpenChange,
  service,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  service: TServiceRow | null;
}) {
  const queryClient = useQueryClient();
  const create = useMutation(trpc.services.create.mutationOptions());
  const update = useMutation(trpc.services.update.mutationOptions());
  const canSeeTemplates = useCan('projects.view');
  const templates = useQuery({
    ...trpc.projectTemplates.options.queryOptions(),
    enabled: open && canSeeTemplates,
  });
  // The filings of the catalogue version the firm accepted, as the server checks a link against.
  const catalogue = useQuery({ ...trpc.statutory.catalogue.queryOptions(), enabled: open });
  return (
    <RecordDialog
      as="drawer"
      open={open}
      onOpenChange={onOpenChange}
      schema={ZServiceInput}
      values={service ? fromRow(service) : EMPTY}
      submit={(v) => (service ? update.mutateAsync({ serviceId: service.id, ...v }) : create.mutateAsync(v))}
      onSaved={async (_, v) => {
        toast.success(service ? `Saved ${v.name}` : `Added the service ${v.name}`);
        await queryClient.invalidateQueries({ queryKey: trpc.services.pathKey() });
      }}
      title={service ? `Edit ${service.name}` : 'New service'}
      description="What the firm does for its clients, how often, and when it falls due."
      submitLabel={service ? 'Save service' : 'Create service'}
    >
      {(form) => (
        <ServiceFields
          form={form}
          templates={canSeeTemplates ? (templates.data ?? []) : null}
          filings={catalogue.data?.filings ?? []}
        />
      )}
    </RecordDialog>
  );
}

type TFilingOption = { code: string; name: string; authority: string; description: string };

function ServiceFields({
  form,
  templates,
  filings,
}: {
  form: TRecordForm<TServiceInput, TServiceValues>;
  /** null: the member may not see templates, so the field is not offered. */
  templates: { id: string; name: string }[] | null;
  filings: readonly TFilingOption[];
}) {
  const errors = form.formState.errors;
  const rule = form.watch('dueDateRule');
  const linked = form.watch('statutoryFilingCode');
  const filing = filings.find((f) => f.code === linked) ?? null;
  // A link the firm's version no longer has (retired by a release) stays visible, by its code.
  const options = filings.map((f) => ({ value: f.code, label: `${f.name} · ${f.authority}` }));
  if (linked && !filing) options.push({ value: linked, label: linked });
  const ruleErrors = errors.dueDateRule;
  return (
    <>
      <Field label="Name" error={errors.name?.message} required>
        <Input autoFocus placeholder="GST return" {...form.register('name')} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Code" hint="Unique in the firm, e.g. GST-M" error={errors.code?.message} required>
          <Input className="uppercase" {...form.register('code')} />
        </Field>
        <Field label="Category" error={errors.category?.message}>
          <Input placeholder="Indirect tax" {...form.register('category')} />
        </Field>
      </div>
      <Field
        label="Statutory filing"
        hint={
          filing
            ? `${filing.description} Its frequency and due dates come from the catalogue, and recorded extensions move them.`
            : 'Link a filing from the catalogue to take its periods and due dates.'
        }
        error={errors.statutoryFilingCode?.message}
      >
        <FormSelect
          control={form.control}
          name="statutoryFilingCode"
          none="Not a statutory filing"
          options={options}
        />
      </Field>
      {linked ? null : (
        <>
          <Field label="Frequency" error={errors.frequency?.message} required>
            <FormSelect
              control={form.control}
              name="frequency"
              options={SERVICE_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
            />
          </Field>
          <fieldset className="flex flex-col gap-3 rounded-md border border-border p-3">
            <legend className="px-1 text-sm font-medium">Due date</legend>
            <Controller
              control={form.control}
              name="dueDateRule"
              render={({ field }) => (
                <Switch
                  label="Work of each period falls due on a set day"
                  checked={!!field.value}
                  onCheckedChange={(on) =>
                    field.onChange(on ? { dayOfMonth: 20, monthsAfterPeriod: 1 } : null)
                  }
                />
              )}
            />
            {rule ? (
              <>
                <div className="grid gap-4 sm:grid-cols-2">
                  <Field
                    label="Day of the month"
                    hint="1 to 31"
                    error={ruleErrors?.dayOfMonth?.message}
                    required
                  >
                    <Input
                      type="number"
                      min={1}
                      max={31}
                      {...form.register('dueDateRule.dayOfMonth', { valueAsNumber: true })}
                    />
                  </Field>
                  <Field
                    label="Months after the period"
                    hint="0 to 12"
                    error={ruleErrors?.monthsAfterPeriod?.message}
                    required
                  >
                    <Input
                      type="number"
                      min={0}
                      max={12}
                      {...form.register('dueDateRule.monthsAfterPeriod', { valueAsNumber: true })}
                    />
                  </Field>
                </div>
                <p className="text-sm text-muted-fg" aria-live="polite" data-testid="due-date-preview">
                  Due: {rulePreview(rule)}
                </p>
              </>
            ) : null}
          </fieldset>
        </>
      )}
      {templates ? (
        <Field
          label="Project template"
          hint="Each client's engagement gets a project per period with this template's tasks"
          error={errors.projectTemplateId?.message}
        >
          <FormSelect
            control={form.control}
            name="projectTemplateId"
            none="No template (no projects generated)"
            options={templates.map((t) => ({ value: t.id, label: t.name }))}
          />
        </Field>
      ) : null}
      <Field
        label="Default fee"
        hint="Offered when the service is added to a client"
        error={errors.defaultFee?.message}
      >
        <Input inputMode="decimal" placeholder="0.00" {...form.register('defaultFee')} />
      </Field>
      <ServiceBillingFields form={form} />
      <Field label="Description" error={errors.description?.message}>
        <Textarea rows={3} {...form.register('description')} />
      </Field>
    </>
  );
}

/** What its engagements start with (how they are billed) and what its invoice lines carry (tax). */
function ServiceBillingFields({ form }: { form: TRecordForm<TServiceInput, TServiceValues> }) {
  const errors = form.formState.errors;
  return (
    <fieldset className="flex flex-col gap-4 rounded-md border border-border p-3">
      <legend className="px-1 text-sm font-medium">Billing</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Billed" hint="What a new engagement starts with" error={errors.billingMode?.message}>
          <FormSelect
            control={form.control}
            name="billingMode"
            options={BILLING_MODES.map((m) => ({ value: m, label: BILLING_MODE_LABELS[m] }))}
          />
        </Field>
        {form.watch('billingMode') === 'fixed' ? (
          <Field label="The fee is billed" error={errors.feeTrigger?.message}>
            <FormSelect
              control={form.control}
              name="feeTrigger"
              options={FEE_TRIGGERS.map((t) => ({ value: t, label: FEE_TRIGGER_LABELS[t] }))}
            />
          </Field>
        ) : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Tax code"
          hint="SAC or HSN, printed on its invoice lines"
          error={errors.taxCode?.message}
        >
          <Input placeholder="998231" {...form.register('taxCode')} />
        </Field>
        <Field label="Tax rate (%)" hint="Empty: the firm's default rate" error={errors.taxRate?.message}>
          <Input inputMode="decimal" placeholder="18" {...form.register('taxRate')} />
        </Field>
      </div>
    </fieldset>
  );
}

function rulePreview(rule: { dayOfMonth: number; monthsAfterPeriod: number }) {
  const day = Number(rule.dayOfMonth);
  const months = Number(rule.monthsAfterPeriod);
  if (
    !Number.isInteger(day) ||
    day < 1 ||
    day > 31 ||
    !Number.isInteger(months) ||
    months < 0 ||
    months > 12
  ) {
    return 'enter a day (1–31) and months (0–12)';
  }
  return dueDateRulePreview({ dayOfMonth: day, monthsAfterPeriod: months });
}
