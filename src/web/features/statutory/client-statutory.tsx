import { gstStateLabel } from '@domain/billing/gst-states';
import { todayIn } from '@domain/days';
import {
  GST_SCHEME_LABELS,
  GST_SCHEMES,
  TURNOVER_BAND_LABELS,
  TURNOVER_BANDS,
} from '@domain/statutory/catalogue';
import {
  type TRegistrations,
  type TRegistrationsInput,
  ZRegistrations,
} from '@domain/statutory/registrations';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Field,
  FormSelect,
  Input,
  RecordDialog,
  Skeleton,
  Switch,
  toast,
  useFormat,
} from '@web/ui';
import { Pencil } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Controller } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-2 py-1.5">
      <dt className="text-sm text-muted-fg">{label}</dt>
      <dd className="col-span-2 min-w-0 text-sm wrap-anywhere text-fg">
        {children || <span className="text-muted-fg">—</span>}
      </dd>
    </div>
  );
}

const toInput = (r: TRegistrations): TRegistrationsInput => ({
  gstin: r.gstin ?? '',
  gstScheme: r.gstScheme,
  turnoverBand: r.turnoverBand,
  pan: r.pan ?? '',
  tan: r.tan ?? '',
  cin: r.cin ?? '',
  llpin: r.llpin ?? '',
  taxAudit: r.taxAudit,
  transferPricing: r.transferPricing,
  collectsTcs: r.collectsTcs,
});

/** The client's tax registrations (issue 39): what decides the filings it must make. */
export function ClientRegistrationsCard({ clientId }: { clientId: string }) {
  const registrations = useQuery(trpc.statutory.registrations.queryOptions({ clientId }));
  const canEdit = useCan('clients.edit');
  const [editing, setEditing] = useState(false);
  const queryClient = useQueryClient();
  const save = useMutation(trpc.statutory.setRegistrations.mutationOptions());
  const r = registrations.data;
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle>Registrations</CardTitle>
        {canEdit && r ? (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            <Pencil aria-hidden />
            Edit registrations
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {!r ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <dl>
            <Row label="GSTIN">
              {r.gstin ? (
                <span>
                  <span className="font-mono">{r.gstin}</span> · {gstStateLabel(r.gstin.slice(0, 2))}
                  {r.gstScheme ? ` · ${GST_SCHEME_LABELS[r.gstScheme]}` : ''}
                </span>
              ) : null}
            </Row>
            <Row label="Turnover">{r.turnoverBand ? TURNOVER_BAND_LABELS[r.turnoverBand] : null}</Row>
            <Row label="PAN">{r.pan ? <span className="font-mono">{r.pan}</span> : null}</Row>
            <Row label="TAN">{r.tan ? <span className="font-mono">{r.tan}</span> : null}</Row>
            <Row label={r.llpin ? 'LLPIN' : 'CIN'}>
              {r.cin || r.llpin ? <span className="font-mono">{r.cin ?? r.llpin}</span> : null}
            </Row>
            <Row label="Audit">
              {[
                r.taxAudit ? 'Tax audit (44AB)' : null,
                r.transferPricing ? 'Transfer pricing' : null,
                r.collectsTcs ? 'Collects TCS' : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Row>
          </dl>
        )}
      </CardContent>
      {canEdit && r ? (
        <RecordDialog
          open={editing}
          onOpenChange={setEditing}
          schema={ZRegistrations}
          values={toInput(r)}
          submit={(data) => save.mutateAsync({ clientId, data })}
          onSaved={async () => {
            toast.success('Registrations saved');
            await queryClient.invalidateQueries({ queryKey: trpc.statutory.pathKey() });
          }}
          title="Registrations"
          description="Each number is checked by its format; a GSTIN by its check character too."
          submitLabel="Save registrations"
        >
          {({ register, control, formState: { errors } }) => (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="GSTIN" hint="15 characters, e.g. 27AAPFU0939F1ZV" error={errors.gstin?.message}>
                  <Input className="uppercase" autoFocus {...register('gstin')} />
                </Field>
                <Field label="GST scheme" error={errors.gstScheme?.message}>
                  <FormSelect
                    control={control}
                    name="gstScheme"
                    none="Not registered"
                    options={GST_SCHEMES.map((s) => ({ value: s, label: GST_SCHEME_LABELS[s] }))}
                  />
                </Field>
              </div>
              <Field label="Aggregate turnover" error={errors.turnoverBand?.message}>
                <FormSelect
                  control={control}
                  name="turnoverBand"
                  none="Not known"
                  options={TURNOVER_BANDS.map((b) => ({ value: b, label: TURNOVER_BAND_LABELS[b] }))}
                />
              </Field>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="PAN" hint="e.g. AAPFU0939F" error={errors.pan?.message}>
                  <Input className="uppercase" {...register('pan')} />
                </Field>
                <Field label="TAN" hint="e.g. MUMA12345B" error={errors.tan?.message}>
                  <Input className="uppercase" {...register('tan')} />
                </Field>
                <Field label="CIN" hint="Companies" error={errors.cin?.message}>
                  <Input className="uppercase" {...register('cin')} />
                </Field>
                <Field label="LLPIN" hint="LLPs, e.g. AAB-1234" error={errors.llpin?.message}>
                  <Input className="uppercase" {...register('llpin')} />
                </Field>
              </div>
              {(['taxAudit', 'transferPricing', 'collectsTcs'] as const).map((name) => (
                <Controller
                  key={name}
                  control={control}
                  name={name}
                  render={({ field }) => (
                    <Switch
                      label={
                        name === 'taxAudit'
                          ? 'Tax audit applies (section 44AB)'
                          : name === 'transferPricing'
                            ? 'Transfer pricing applies (section 92E)'
                            : 'Collects tax at source (TCS)'
                      }
                      checked={!!field.value}
                      onCheckedChange={field.onChange}
                    />
                  )}
                />
              ))}
            </>
          )}
        </RecordDialog>
      ) : null}
    </Card>
  );
}

/** The filings the client must make, when each is next due, and the gaps ("engage for this"). */
export function ClientFilingsCard({ clientId }: { clientId: string }) {
  const format = useFormat();
  const filings = useQuery(trpc.statutory.clientFilings.queryOptions({ clientId }));
  const canEngage = useCan('clients.edit');
  const queryClient = useQueryClient();
  const engage = useMutation(
    trpc.statutory.engage.mutationOptions({
      onSuccess: async (r) => {
        toast.success(r.created === 1 ? 'Engaged for the filing' : `${r.created} engagements added`);
        await queryClient.invalidateQueries({ queryKey: trpc.statutory.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.engagements.pathKey() });
      },
    }),
  );
  const rows = filings.data?.filings;
  const gaps = rows?.filter((f) => f.gap && f.linkedServices.length) ?? [];
  return (
    <Card className="lg:col-span-2">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle>Statutory filings</CardTitle>
        {canEngage && gaps.length > 1 ? (
          <Button
            variant="outline"
            size="sm"
            loading={engage.isPending}
            onClick={() =>
              engage.mutate({
                items: gaps.map((g) => ({ clientId, filingCode: g.code })),
                startDate: todayIn(format.timeZone),
              })
            }
          >
            Engage for all {gaps.length} gaps
          </Button>
        ) : null}
      </CardHeader>
      <CardContent>
        {!rows ? (
          <Skeleton className="h-24 w-full" />
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-fg">
            No filings yet: record the client’s registrations (GSTIN, PAN, TAN, CIN or LLPIN) to see what it
            must file.
          </p>
        ) : (
          <table className="w-full text-sm">
            <caption className="sr-only">Filings this client must make</caption>
            <thead className="text-left text-xs text-muted-fg">
              <tr>
                <th scope="col" className="py-1 font-normal">
                  Filing
                </th>
                <th scope="col" className="py-1 font-normal">
                  Next due
                </th>
                <th scope="col" className="py-1 font-normal">
                  Engagement
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((f) => (
                <tr key={f.code} className="border-t border-border">
                  <th scope="row" className="py-1.5 pr-2 text-left font-normal">
                    <span className="font-medium">{f.name}</span>
                    <span className="block text-xs text-muted-fg">{f.description}</span>
                  </th>
                  <td className="py-1.5 pr-2 whitespace-nowrap">
                    {f.nextDue ? (
                      <>
                        {format.date(f.nextDue.due)}
                        <span className="block text-xs text-muted-fg">{f.nextDue.periodLabel}</span>
                      </>
                    ) : null}
                  </td>
                  <td className="py-1.5">
                    {f.engaged.length ? (
                      <span className="flex flex-wrap gap-1">
                        {f.engaged.map((s) => (
                          <Badge key={s.id} tone="green" dot>
                            {s.name}
                          </Badge>
                        ))}
                      </span>
                    ) : (
                      <span className="flex flex-wrap items-center gap-2">
                        <Badge tone="yellow" dot>
                          Gap
                        </Badge>
                        {f.linkedServices[0] && canEngage ? (
                          <Button
                            size="sm"
                            variant="outline"
                            loading={engage.isPending && engage.variables?.items[0]?.filingCode === f.code}
                            onClick={() =>
                              engage.mutate({
                                items: [{ clientId, filingCode: f.code }],
                                startDate: todayIn(format.timeZone),
                              })
                            }
                          >
                            Engage for {f.linkedServices[0].name}
                          </Button>
                        ) : f.linkedServices.length === 0 ? (
                          <Link
                            to="/admin/services"
                            className="text-xs text-primary underline underline-offset-2"
                          >
                            Link a service to this filing
                          </Link>
                        ) : null}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The client's expiry registers (issue 39): digital signature certificates, professional tax,
 * licences and registrations with their expiry dates, kept as the existing expiry reminders (which
 * remind the client and the responsible members ahead of the date).
 */
export function ClientExpiryCard({ clientId }: { clientId: string }) {
  const format = useFormat();
  const canSee = useCan('reminders.view');
  const list = useQuery({
    ...trpc.reminders.list.queryOptions({ type: 'expiry', clientId, pageSize: 20, sort: 'remindAt' }),
    enabled: canSee,
  });
  if (!canSee) return null;
  const rows = list.data?.rows;
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle>Expiry registers</CardTitle>
        <Link
          to="/reminders/$type"
          params={{ type: 'expiry' }}
          className="text-sm text-primary underline underline-offset-2"
        >
          Expiry reminders
        </Link>
      </CardHeader>
      <CardContent>
        {!rows ? (
          <Skeleton className="h-12 w-full" />
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-fg">
            No digital signature certificate, licence or registration with an expiry date yet. Add one as an
            expiry reminder for this client: it reminds ahead of the date.
          </p>
        ) : (
          <ul className="divide-y divide-border text-sm">
            {rows.map((r) => (
              <li key={r.id} className="flex items-center justify-between gap-2 py-1.5">
                <span className="min-w-0">{r.itemName ?? r.title}</span>
                <span className="shrink-0 text-muted-fg">
                  {r.expiryDate ? `Expires ${format.date(r.expiryDate)}` : null}
                  {r.status === 'scheduled' ? ` · reminder ${format.date(r.remindAt)}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
