import { TAX_REGIME_LABELS, TAX_REGIMES } from '@domain/billing/constants';
import { GST_STATES } from '@domain/billing/gst-states';
import { parseTaxPercent, taxPercentText } from '@domain/billing/invoices';
import { formatInvoiceNumber } from '@domain/billing/numbering';
import { type TBillingSettings, type TBillingSettingsInput, ZBillingSettings } from '@domain/billing/schemas';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
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
  PageHeader,
  Select,
  Switch,
  Textarea,
  toast,
} from '@web/ui';
import { useState } from 'react';
import { Controller, type UseFormReturn, useForm } from 'react-hook-form';
import { type AppRouter, trpc } from '../../../lib/trpc';
import { NoAccess, useCan } from '../../shell/access';
import { LedgersCard } from './ledgers-card';

type TSaved = inferRouterOutputs<AppRouter>['billing']['settings']['get'];
type TForm = UseFormReturn<TBillingSettingsInput, unknown, TBillingSettings>;

/** /admin/settings/billing: how the firm invoices (settings.billing). */
export function BillingSettingsPage() {
  if (!useCan('settings.billing'))
    return (
      <NoAccess message="Your role does not include the billing settings. Ask the firm's owner if you need them." />
    );
  return <BillingSettings />;
}

const blankToNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

function BillingSettings() {
  const { data: saved } = useSuspenseQuery(trpc.billing.settings.get.queryOptions());
  const queryClient = useQueryClient();
  const form: TForm = useForm<TBillingSettingsInput, unknown, TBillingSettings>({
    resolver: zodResolver(ZBillingSettings),
    values: saved.settings,
    resetOptions: { keepDirtyValues: false },
  });
  const save = useMutation(
    trpc.billing.settings.update.mutationOptions({
      onSuccess: async ({ changed }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.billing.settings.get.queryKey() });
        toast.success(changed ? 'Billing settings saved' : 'Nothing to save: no changes');
      },
    }),
  );
  const { errors } = form.formState;
  const regime = form.watch('taxRegime');
  const remindersOn = form.watch('remindersEnabled');
  return (
    <div className="mx-auto max-w-4xl p-6">
      <PageHeader
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Billing settings' }]}
        title="Billing settings"
        description="How the firm's invoices are taxed, numbered and paid, and when clients are reminded."
      />
      <form
        noValidate
        className="flex flex-col gap-6"
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
      >
        <Card>
          <CardHeader>
            <div>
              <CardTitle>Tax</CardTitle>
              <CardDescription>
                What each invoice line is taxed with, and how totals are rounded.
              </CardDescription>
            </div>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <Field label="Tax profile" error={errors.taxRegime?.message} className="sm:col-span-2">
              <Controller
                control={form.control}
                name="taxRegime"
                render={({ field }) => (
                  <Select
                    value={field.value}
                    onValueChange={field.onChange}
                    options={TAX_REGIMES.map((r) => ({ value: r, label: TAX_REGIME_LABELS[r] }))}
                  />
                )}
              />
            </Field>
            {regime === 'gst' ? (
              <Field
                label="The firm's state"
                hint={
                  saved.gstinState
                    ? `The firm's GSTIN is registered in ${saved.gstinState}`
                    : 'The first two digits of the GSTIN'
                }
                error={errors.gstState?.message}
              >
                <Controller
                  control={form.control}
                  name="gstState"
                  render={({ field }) => (
                    <Select
                      value={field.value ?? undefined}
                      placeholder="Choose the state"
                      onValueChange={field.onChange}
                      options={GST_STATES.map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }))}
                    />
                  )}
                />
              </Field>
            ) : null}
            {regime !== 'none' ? <TaxRateField form={form} /> : null}
            <div className="sm:col-span-2">
              <Controller
                control={form.control}
                name="roundTotals"
                render={({ field }) => (
                  <Checkbox
                    label="Round totals to whole units, with an explicit round-off line"
                    checked={field.value}
                    onCheckedChange={(v) => field.onChange(v === true)}
                  />
                )}
              />
            </div>
          </CardContent>
        </Card>
        <NumberingCard form={form} saved={saved} />
        <Card>
          <CardHeader>
            <div>
              <CardTitle>Payment</CardTitle>
              <CardDescription>
                Printed on every invoice; the UPI address adds a QR code to pay.
              </CardDescription>
            </div>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <Field label="Due after (days)" error={errors.dueDays?.message}>
              <Input type="number" min={0} max={365} {...form.register('dueDays', { valueAsNumber: true })} />
            </Field>
            <Field label="Recurring invoices are" error={errors.recurringMode?.message}>
              <Controller
                control={form.control}
                name="recurringMode"
                render={({ field }) => (
                  <Select
                    value={field.value}
                    onValueChange={field.onChange}
                    options={[
                      { value: 'draft', label: 'Drafts to review' },
                      { value: 'issue', label: 'Issued at once' },
                    ]}
                  />
                )}
              />
            </Field>
            <Field label="Terms" error={errors.terms?.message} className="sm:col-span-2">
              <Textarea {...form.register('terms')} />
            </Field>
            <Field label="Bank details" error={errors.bankDetails?.message} className="sm:col-span-2">
              <Textarea
                placeholder={'Bank, branch\nAccount number\nIFSC'}
                {...form.register('bankDetails')}
              />
            </Field>
            <Field label="UPI address" hint="Like firm@hdfcbank" error={errors.upiVpa?.message}>
              <Input {...form.register('upiVpa', { setValueAs: (v) => v || null })} />
            </Field>
            <Field label="Payee name" hint="As the UPI app shows it" error={errors.upiPayee?.message}>
              <Input {...form.register('upiPayee', { setValueAs: (v) => v || null })} />
            </Field>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <div>
              <CardTitle>Payment reminders</CardTitle>
              <CardDescription>
                Mailed to the client's billing contacts for unpaid invoices; stop when paid, or when you pause
                a client.
              </CardDescription>
            </div>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <div className="sm:col-span-2">
              <Controller
                control={form.control}
                name="remindersEnabled"
                render={({ field }) => (
                  <Switch
                    label="Send payment reminders"
                    checked={field.value}
                    onCheckedChange={field.onChange}
                  />
                )}
              />
            </div>
            <Field
              label="Days before the due date"
              hint="Blank: none before"
              error={errors.remindBeforeDays?.message}
            >
              <Input
                type="number"
                min={1}
                max={60}
                disabled={!remindersOn}
                {...form.register('remindBeforeDays', { setValueAs: blankToNull })}
              />
            </Field>
            <Field
              label="Then every (days) after it"
              hint="Blank: none after"
              error={errors.remindEveryDays?.message}
            >
              <Input
                type="number"
                min={1}
                max={90}
                disabled={!remindersOn}
                {...form.register('remindEveryDays', { setValueAs: blankToNull })}
              />
            </Field>
            <div className="sm:col-span-2">
              <Controller
                control={form.control}
                name="remindOnDue"
                render={({ field }) => (
                  <Checkbox
                    label="On the due date"
                    disabled={!remindersOn}
                    checked={field.value}
                    onCheckedChange={(v) => field.onChange(v === true)}
                  />
                )}
              />
            </div>
          </CardContent>
        </Card>
        <LedgersCard form={form} />
        <div className="sticky bottom-0 -mx-1 flex items-center justify-end gap-2 border-t border-border bg-bg/95 px-1 py-3 backdrop-blur">
          <Button
            variant="ghost"
            disabled={!form.formState.isDirty || save.isPending}
            onClick={() => form.reset()}
          >
            Discard changes
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save changes
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The default tax rate typed as a percentage; the form holds basis points. */
function TaxRateField({ form }: { form: TForm }) {
  const [text, setText] = useState(() => taxPercentText(form.getValues('defaultTaxRateBp') ?? 0));
  const error = form.formState.errors.defaultTaxRateBp?.message;
  return (
    <Field label="Default tax rate (%)" hint="For a line whose service names none" error={error}>
      <Input
        inputMode="decimal"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parseTaxPercent(e.target.value);
          if ('error' in parsed) {
            form.setError('defaultTaxRateBp', { type: 'parse', message: parsed.error });
          } else {
            form.clearErrors('defaultTaxRateBp');
            form.setValue('defaultTaxRateBp', parsed.taxRateBp, { shouldDirty: true });
          }
        }}
      />
    </Field>
  );
}

function NumberingCard({ form, saved }: { form: TForm; saved: TSaved }) {
  const { errors } = form.formState;
  const [invoicePrefix, creditNotePrefix, digits] = form.watch([
    'invoicePrefix',
    'creditNotePrefix',
    'seqDigits',
  ]);
  const next = (prefix: string) => {
    const width = Number(digits) >= 1 && Number(digits) <= 8 ? Number(digits) : 4;
    return formatInvoiceNumber(prefix || '…', saved.fiscalYear, (saved.lastSeq[prefix] ?? 0) + 1, width);
  };
  return (
    <Card>
      <CardHeader>
        <div>
          <CardTitle>Numbering</CardTitle>
          <CardDescription>
            Consecutive per series and fiscal year, with no gap; credit notes have their own series.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-3">
        <Field label="Invoice prefix" error={errors.invoicePrefix?.message}>
          <Input className="font-mono" {...form.register('invoicePrefix')} />
        </Field>
        <Field label="Credit note prefix" error={errors.creditNotePrefix?.message}>
          <Input className="font-mono" {...form.register('creditNotePrefix')} />
        </Field>
        <Field label="Digits" error={errors.seqDigits?.message}>
          <Input type="number" min={1} max={8} {...form.register('seqDigits', { valueAsNumber: true })} />
        </Field>
        <dl className="grid gap-1 text-sm sm:col-span-3" aria-live="polite">
          <div className="flex gap-2">
            <dt className="text-muted-fg">Next invoice</dt>
            <dd className="font-mono">{next(invoicePrefix)}</dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-muted-fg">Next credit note</dt>
            <dd className="font-mono">{next(creditNotePrefix)}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
