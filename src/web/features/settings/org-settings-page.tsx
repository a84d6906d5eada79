import { MONTHS } from '@domain/onboarding';
import { hasPermission } from '@domain/permissions';
import { type TOrgSettings, type TOrgSettingsInput, ZOrgSettings } from '@domain/settings';
import { modernTimeZone } from '@domain/time-zone-names';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Field,
  Input,
  PageHeader,
} from '@web/ui';
import { useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { toast } from '../../ui/toaster';
import { DefaultFoldersCard } from '../documents/default-folders-card';
import { COUNTRIES, CURRENCIES, timeZones } from '../onboarding/regions';
import { SigningCertificateCard } from '../proposals/signing-certificate-card';
import { ChaseSettingsCard } from '../requests/chase-settings-card';
import { NoAccess } from '../shell/access';
import { useProfile } from '../shell/use-profile';
import { TaskSettingsCard } from '../tasks/task-settings-card';
import { ApprovalSettingsCard } from '../timesheets/approval-settings-card';
import { FirmExportCard } from './firm-export-card';
import { LogoField } from './logo-field';
import { MfaPolicyCard } from './mfa-policy-card';
import { SelectField } from './select-field';
import { TaxIdsField } from './tax-ids-field';

export const SECTIONS = [
  { id: 'profile', label: 'Profile' },
  { id: 'address', label: 'Address' },
  { id: 'tax-identifiers', label: 'Tax identifiers' },
  { id: 'documents', label: 'Client documents' },
  { id: 'work', label: 'Work' },
  { id: 'requests', label: 'Client requests' },
  { id: 'security', label: 'Security' },
  { id: 'export', label: 'Export' },
] as const;

/** /admin/settings/org: the firm profile. Needs settings.view to see and settings.edit to save. */
export function OrgSettingsPage() {
  const profile = useProfile();
  if (!hasPermission(profile, 'settings.view'))
    return (
      <NoAccess message="Your role does not let you see the firm's settings. Ask the firm's owner or an admin if you need it." />
    );
  return (
    <OrgSettings
      canEdit={hasPermission(profile, 'settings.edit')}
      isOwner={profile.isOwner}
      canBilling={hasPermission(profile, 'settings.billing')}
    />
  );
}

function OrgSettings({
  canEdit,
  isOwner,
  canBilling,
}: {
  canEdit: boolean;
  isOwner: boolean;
  canBilling: boolean;
}) {
  const { data: settings } = useSuspenseQuery(trpc.settings.get.queryOptions());
  const queryClient = useQueryClient();
  const form = useForm<TOrgSettingsInput, unknown, TOrgSettings>({
    resolver: zodResolver(ZOrgSettings),
    values: {
      name: settings.name,
      legalName: settings.legalName ?? '',
      addressLine1: settings.addressLine1 ?? '',
      addressLine2: settings.addressLine2 ?? '',
      city: settings.city ?? '',
      region: settings.region ?? '',
      postalCode: settings.postalCode ?? '',
      country: settings.country ?? '',
      timeZone: modernTimeZone(settings.timeZone),
      currency: settings.currency,
      fiscalYearStartMonth: settings.fiscalYearStartMonth,
      taxIds: settings.taxIds,
    },
    resetOptions: { keepDirtyValues: false },
  });
  const save = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: async ({ changed }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.profile.me.queryKey() });
        toast.success(changed ? 'Firm profile saved' : 'Nothing to save: no changes');
      },
    }),
  );
  const errors = form.formState.errors;
  const text = (
    name: 'name' | 'legalName' | 'addressLine1' | 'addressLine2' | 'city' | 'region' | 'postalCode',
  ) => form.register(name, { setValueAs: (v) => v ?? '' });

  return (
    <div className="mx-auto max-w-5xl p-6">
      <PageHeader
        trail={[{ label: 'Admin', to: '/admin' }, { label: 'Firm settings' }]}
        title="Firm settings"
        description={
          canEdit
            ? 'How your firm appears to your team and your clients.'
            : 'You can see these settings but not change them.'
        }
      />
      <div className="flex flex-col gap-6 lg:flex-row">
        <nav aria-label="Sections" className="lg:sticky lg:top-0 lg:w-44 lg:shrink-0 lg:self-start">
          <ul className="flex gap-1 overflow-x-auto lg:flex-col">
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <Link
                  to="/admin/settings/org"
                  hash={s.id}
                  activeOptions={{ includeHash: true }}
                  className="block whitespace-nowrap rounded-md px-3 py-1.5 text-sm text-muted-fg hover:bg-muted hover:text-fg data-[status=active]:bg-muted data-[status=active]:font-medium data-[status=active]:text-fg"
                >
                  {s.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex min-w-0 flex-1 flex-col gap-6">
          <form
            noValidate
            className="flex min-w-0 flex-col gap-6"
            onSubmit={form.handleSubmit((values) => save.mutate(values))}
          >
            <fieldset disabled={!canEdit} className="contents">
              <Card id="profile" aria-labelledby="profile-title" className="scroll-mt-4">
                <CardHeader>
                  <div>
                    <CardTitle id="profile-title">Profile</CardTitle>
                    <CardDescription>Names, logo, and how the firm counts time and money.</CardDescription>
                  </div>
                </CardHeader>
                <CardContent className="grid gap-4 sm:grid-cols-2">
                  <Field label="Firm name" required error={errors.name?.message}>
                    <Input autoComplete="organization" {...text('name')} />
                  </Field>
                  <Field
                    label="Legal name"
                    hint="As registered, if different"
                    error={errors.legalName?.message}
                  >
                    <Input {...text('legalName')} />
                  </Field>
                  <div className="sm:col-span-2">
                    <LogoField logoUrl={settings.logoUrl} canEdit={canEdit} firmName={settings.name} />
                  </div>
                  <SelectField
                    form={form}
                    name="timeZone"
                    label="Time zone"
                    error={errors.timeZone?.message}
                    options={timeZones().map((tz) => ({ value: tz, label: tz }))}
                  />
                  <SelectField
                    form={form}
                    name="currency"
                    label="Currency"
                    error={errors.currency?.message}
                    options={[...new Set([...CURRENCIES, settings.currency])].map((c) => ({
                      value: c,
                      label: c,
                    }))}
                  />
                  <SelectField
                    form={form}
                    name="fiscalYearStartMonth"
                    label="Financial year starts"
                    error={errors.fiscalYearStartMonth?.message}
                    options={MONTHS.map((m, i) => ({ value: String(i + 1), label: m }))}
                    numeric
                  />
                </CardContent>
              </Card>

              <Card id="address" aria-labelledby="address-title" className="scroll-mt-4">
                <CardHeader>
                  <div>
                    <CardTitle id="address-title">Address</CardTitle>
                    <CardDescription>Printed on letters and shown to clients in the portal.</CardDescription>
                  </div>
                </CardHeader>
                <CardContent className="grid gap-4 sm:grid-cols-2">
                  <Field
                    label="Address line 1"
                    className="sm:col-span-2"
                    error={errors.addressLine1?.message}
                  >
                    <Input autoComplete="address-line1" {...text('addressLine1')} />
                  </Field>
                  <Field
                    label="Address line 2"
                    className="sm:col-span-2"
                    error={errors.addressLine2?.message}
                  >
                    <Input autoComplete="address-line2" {...text('addressLine2')} />
                  </Field>
                  <Field label="City" error={errors.city?.message}>
                    <Input autoComplete="address-level2" {...text('city')} />
                  </Field>
                  <Field label="Region or state" error={errors.region?.message}>
                    <Input autoComplete="address-level1" {...text('region')} />
                  </Field>
                  <Field label="Postal code" error={errors.postalCode?.message}>
                    <Input autoComplete="postal-code" {...text('postalCode')} />
                  </Field>
                  <SelectField
                    form={form}
                    name="country"
                    label="Country"
                    error={errors.country?.message}
                    options={countryOptions(settings.country)}
                  />
                </CardContent>
              </Card>

              <Card id="tax-identifiers" aria-labelledby="tax-title" className="scroll-mt-4">
                <CardHeader>
                  <div>
                    <CardTitle id="tax-title">Tax identifiers</CardTitle>
                    <CardDescription>
                      The firm's own registrations, such as PAN and GSTIN, EIN, or UTR and VAT.
                    </CardDescription>
                  </div>
                </CardHeader>
                <CardContent>
                  <TaxIdsField form={form} canEdit={canEdit} />
                </CardContent>
              </Card>
            </fieldset>
            {canEdit ? (
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
            ) : null}
          </form>
          {canBilling ? (
            <Card>
              <CardHeader>
                <div>
                  <CardTitle>Billing</CardTitle>
                  <CardDescription>
                    Tax profile, invoice numbering, terms, bank and UPI details, payment reminders.
                  </CardDescription>
                </div>
                <Button asChild variant="outline">
                  <Link to="/admin/settings/billing">Billing settings</Link>
                </Button>
              </CardHeader>
            </Card>
          ) : null}
          <DefaultFoldersCard canEdit={canEdit} />
          <TaskSettingsCard canEdit={canEdit} />
          <ApprovalSettingsCard canEdit={canEdit} />
          <ChaseSettingsCard canEdit={canEdit} />
          <SigningCertificateCard canEdit={canEdit} />
          <MfaPolicyCard canEdit={canEdit} />
          <FirmExportCard isOwner={isOwner} />
        </div>
      </div>
    </div>
  );
}

function countryOptions(current: string | null) {
  const options: { value: string; label: string }[] = COUNTRIES.map((c) => ({
    value: c.code,
    label: c.name,
  }));
  if (current && !options.some((o) => o.value === current)) options.push({ value: current, label: current });
  return options;
}
