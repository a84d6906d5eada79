import { browserTimeZone } from '@domain/format';
import { MONTHS, type TCreateFirm, ZCreateFirm } from '@domain/onboarding';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button, Field, Input, Select } from '@web/ui';
import { fetchUserAttributes } from 'aws-amplify/auth';
import '../../lib/amplify-auth';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { AuthHeading } from '../auth/auth-layout';
import { COUNTRIES, CURRENCIES, defaultsForCountry, timeZones } from './regions';

/** A newly registered person creates their firm here and becomes its owner. */
export function OnboardingPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const guess = defaultsForCountry(browserTimeZone(), navigator.language);
  const form = useForm<TCreateFirm>({
    resolver: zodResolver(ZCreateFirm),
    defaultValues: { firmName: '', firstName: '', lastName: '', ...guess },
  });

  useEffect(() => {
    fetchUserAttributes()
      .then((attributes) => {
        if (!form.getValues('firstName')) form.setValue('firstName', attributes.given_name ?? '');
        if (!form.getValues('lastName')) form.setValue('lastName', attributes.family_name ?? '');
      })
      .catch(() => {
        // The names are typed in by hand then.
      });
  }, [form]);

  const createFirm = useMutation(
    trpc.onboarding.createFirm.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.profile.me.queryKey() });
        await navigate({ to: '/' });
      },
    }),
  );

  const errors = form.formState.errors;
  return (
    <>
      <AuthHeading
        title="Set up your firm"
        description="You will be its owner. You can change all of this later."
      />
      <form
        onSubmit={form.handleSubmit((values) => createFirm.mutate(values))}
        noValidate
        className="flex flex-col gap-4"
      >
        <Field label="Firm name" error={errors.firmName?.message}>
          <Input autoFocus autoComplete="organization" {...form.register('firmName')} />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label="Your first name" error={errors.firstName?.message}>
            <Input autoComplete="given-name" {...form.register('firstName')} />
          </Field>
          <Field label="Your last name" error={errors.lastName?.message}>
            <Input autoComplete="family-name" {...form.register('lastName')} />
          </Field>
        </div>
        <Field label="Country" error={errors.country?.message}>
          <Controller
            control={form.control}
            name="country"
            render={({ field }) => (
              <Select
                {...field}
                value={field.value}
                onValueChange={(code) => {
                  field.onChange(code);
                  const country = COUNTRIES.find((c) => c.code === code);
                  if (country) {
                    form.setValue('currency', country.currency);
                    form.setValue('fiscalYearStartMonth', country.fiscalYearStartMonth);
                    form.setValue('timeZone', country.timeZone);
                  }
                }}
                options={COUNTRIES.map((c) => ({ value: c.code, label: c.name }))}
              />
            )}
          />
        </Field>
        <Field label="Time zone" error={errors.timeZone?.message}>
          <Controller
            control={form.control}
            name="timeZone"
            render={({ field }) => (
              <Select
                {...field}
                onValueChange={field.onChange}
                options={timeZones().map((tz) => ({ value: tz, label: tz }))}
              />
            )}
          />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label="Currency" error={errors.currency?.message}>
            <Controller
              control={form.control}
              name="currency"
              render={({ field }) => (
                <Select
                  {...field}
                  onValueChange={field.onChange}
                  options={CURRENCIES.map((c) => ({ value: c, label: c }))}
                />
              )}
            />
          </Field>
          <Field label="Financial year starts" error={errors.fiscalYearStartMonth?.message}>
            <Controller
              control={form.control}
              name="fiscalYearStartMonth"
              render={({ field }) => (
                <Select
                  {...field}
                  value={String(field.value)}
                  onValueChange={(v) => field.onChange(Number(v))}
                  options={MONTHS.map((m, i) => ({ value: String(i + 1), label: m }))}
                />
              )}
            />
          </Field>
        </div>
        <Button type="submit" loading={createFirm.isPending}>
          Create firm
        </Button>
      </form>
    </>
  );
}
