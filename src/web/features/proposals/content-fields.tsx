import { BILLING_MODE_LABELS, BILLING_MODES, type TBillingMode } from '@domain/billing/constants';
import {
  FOLLOW_UP_BILLING,
  FOLLOW_UP_BILLING_LABELS,
  isRetainer,
  MAX_ADD_ONS,
  MAX_PACKAGES,
  PROPOSAL_PLACEHOLDERS,
  type TFollowUpBilling,
} from '@domain/proposals';
import { useQuery } from '@tanstack/react-query';
import { Button, Field, IconButton, Input, Select, Textarea } from '@web/ui';
import { Plus, Trash2 } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import { RichTextEditor } from '../broadcasts/rich-text-editor';

// The letter, packages, add-ons and terms: one editor for a template and for a proposal. Values are
// plain state; the page checks them with the same zod schema the procedure uses before saving.

export type TServiceDraft = {
  serviceId: string;
  fee: string;
  billingMode: TBillingMode;
  feeTrigger: 'period_start' | 'project_complete' | 'manual';
  description: string;
};
export type TContentDraft = {
  letterHtml: string;
  packages: { name: string; services: TServiceDraft[] }[];
  addOns: TServiceDraft[];
  terms: string;
  followUp: TFollowUpDraft;
};
export type TFollowUpDraft = {
  billing: TFollowUpBilling;
  retainer: string;
  requestTemplateId: string | null;
  requestDueDays: number;
};
const noFollowUp = (): TFollowUpDraft => ({
  billing: 'none',
  retainer: '',
  requestTemplateId: null,
  requestDueDays: 14,
});

export const emptyService = (): TServiceDraft => ({
  serviceId: '',
  fee: '',
  billingMode: 'fixed',
  feeTrigger: 'manual',
  description: '',
});
export const emptyContent = (): TContentDraft => ({
  letterHtml:
    '<p>Dear {{contact_name}},</p><p>Thank you for choosing {{firm_name}}. This letter sets out the services we will provide to {{client_name}}:</p>{{services}}<p>Our fees:</p>{{fees}}<p>This offer is open until {{expiry_date}}.</p>',
  packages: [{ name: 'Standard', services: [emptyService()] }],
  addOns: [],
  terms: '',
  followUp: noFollowUp(),
});

/** A stored content (fees as numbers' strings or null) as the editor's drafts. */
export function toDraft(c: {
  letterHtml: string;
  packages: { name: string; services: (Omit<TServiceDraft, 'fee'> & { fee: string | null })[] }[];
  addOns: (Omit<TServiceDraft, 'fee'> & { fee: string | null })[];
  terms: string;
  followUp?: Omit<TFollowUpDraft, 'retainer'> & { retainer: string | null };
}): TContentDraft {
  const s = (x: Omit<TServiceDraft, 'fee'> & { fee: string | null }) => ({ ...x, fee: x.fee ?? '' });
  return {
    letterHtml: c.letterHtml,
    packages: c.packages.map((p) => ({ name: p.name, services: p.services.map(s) })),
    addOns: c.addOns.map(s),
    terms: c.terms,
    followUp: c.followUp ? { ...c.followUp, retainer: c.followUp.retainer ?? '' } : noFollowUp(),
  };
}

const NO_REQUEST = '__none__';

/** What follows an acceptance: an invoice (first fees or a retainer) and an onboarding request. */
function FollowUpFields({
  value,
  onChange,
}: {
  value: TFollowUpDraft;
  onChange: (v: TFollowUpDraft) => void;
}) {
  const templates = useQuery(trpc.proposals.requestTemplateOptions.queryOptions());
  return (
    <section className="flex flex-col gap-3">
      <h2 className="font-semibold">After the client accepts</h2>
      <p className="text-sm text-muted-fg">
        The engagements are always created. Optionally the first invoice or a retainer is raised, and an
        onboarding request is sent to the client's portal users (kept as a draft when nobody uses the portal
        yet).
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Invoice">
          <Select
            value={value.billing}
            options={FOLLOW_UP_BILLING.map((b) => ({ value: b, label: FOLLOW_UP_BILLING_LABELS[b] }))}
            onValueChange={(b) => onChange({ ...value, billing: b as TFollowUpBilling })}
          />
        </Field>
        {isRetainer(value.billing) && (
          <Field label="Retainer amount">
            <Input
              inputMode="decimal"
              value={value.retainer}
              onChange={(e) => onChange({ ...value, retainer: e.target.value })}
            />
          </Field>
        )}
        <Field label="Onboarding request">
          <Select
            value={value.requestTemplateId ?? NO_REQUEST}
            options={[
              { value: NO_REQUEST, label: 'No request' },
              ...(templates.data ?? []).map((t) => ({ value: t.id, label: t.name })),
            ]}
            onValueChange={(id) => onChange({ ...value, requestTemplateId: id === NO_REQUEST ? null : id })}
          />
        </Field>
        {value.requestTemplateId && (
          <Field label="Request due after (days)">
            <Input
              inputMode="numeric"
              value={String(value.requestDueDays)}
              onChange={(e) =>
                onChange({ ...value, requestDueDays: Number(e.target.value.replace(/\D/g, '')) || 0 })
              }
            />
          </Field>
        )}
      </div>
    </section>
  );
}

function ServiceRow({
  value,
  onChange,
  onRemove,
  label,
}: {
  value: TServiceDraft;
  onChange: (v: TServiceDraft) => void;
  onRemove: () => void;
  label: string;
}) {
  const options = useQuery(trpc.proposals.serviceOptions.queryOptions());
  return (
    <div className="grid grid-cols-1 gap-2 rounded-md border border-border p-2 sm:grid-cols-[2fr_1.5fr_1fr_auto]">
      <Select
        aria-label={`${label}: service`}
        placeholder="Choose a service"
        value={value.serviceId || undefined}
        options={(options.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
        onValueChange={(serviceId) => {
          const chosen = options.data?.find((o) => o.id === serviceId);
          onChange({ ...value, serviceId, fee: value.fee || chosen?.defaultFee || '' });
        }}
      />
      <Select
        aria-label={`${label}: billing`}
        value={value.billingMode}
        options={BILLING_MODES.map((m) => ({ value: m, label: BILLING_MODE_LABELS[m] }))}
        onValueChange={(m) => onChange({ ...value, billingMode: m as TBillingMode })}
      />
      <Input
        aria-label={`${label}: fee`}
        inputMode="decimal"
        placeholder="Fee"
        value={value.fee}
        disabled={value.billingMode !== 'fixed'}
        onChange={(e) => onChange({ ...value, fee: e.target.value })}
      />
      <IconButton aria-label={`Remove ${label}`} size="sm" onClick={onRemove}>
        <Trash2 />
      </IconButton>
    </div>
  );
}

export function ContentFields({
  value,
  onChange,
}: {
  value: TContentDraft;
  onChange: (v: TContentDraft) => void;
}) {
  const setPackage = (i: number, p: TContentDraft['packages'][number]) =>
    onChange({ ...value, packages: value.packages.map((x, j) => (j === i ? p : x)) });
  return (
    <div className="flex flex-col gap-5">
      <Field
        label="Letter"
        hint={`Placeholders: ${PROPOSAL_PLACEHOLDERS.map((p) => `{{${p.key}}}`).join(' ')}`}
      >
        <RichTextEditor
          label="Letter"
          value={value.letterHtml}
          onChange={(letterHtml) => onChange({ ...value, letterHtml })}
        />
      </Field>
      <section className="flex flex-col gap-3">
        <h2 className="font-semibold">Packages the client chooses between</h2>
        {value.packages.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: unsaved rows have no identity but their place.
          <div key={`package-${i}`} className="flex flex-col gap-2 rounded-lg border border-border p-3">
            <div className="flex items-end gap-2">
              <Field label={`Package ${i + 1} name`} className="flex-1">
                <Input value={p.name} onChange={(e) => setPackage(i, { ...p, name: e.target.value })} />
              </Field>
              {value.packages.length > 1 && (
                <IconButton
                  aria-label={`Remove package ${i + 1}`}
                  size="sm"
                  onClick={() => onChange({ ...value, packages: value.packages.filter((_, j) => j !== i) })}
                >
                  <Trash2 />
                </IconButton>
              )}
            </div>
            {p.services.map((s, k) => (
              <ServiceRow
                // biome-ignore lint/suspicious/noArrayIndexKey: unsaved rows have no identity but their place.
                key={`service-${i}-${k}`}
                label={`Package ${i + 1} service ${k + 1}`}
                value={s}
                onChange={(v) =>
                  setPackage(i, { ...p, services: p.services.map((x, j) => (j === k ? v : x)) })
                }
                onRemove={() => setPackage(i, { ...p, services: p.services.filter((_, j) => j !== k) })}
              />
            ))}
            <Button
              variant="ghost"
              size="sm"
              className="self-start"
              onClick={() => setPackage(i, { ...p, services: [...p.services, emptyService()] })}
            >
              <Plus aria-hidden /> Add a service to {p.name || `package ${i + 1}`}
            </Button>
          </div>
        ))}
        {value.packages.length < MAX_PACKAGES && (
          <Button
            variant="outline"
            size="sm"
            className="self-start"
            onClick={() =>
              onChange({
                ...value,
                packages: [
                  ...value.packages,
                  { name: `Package ${value.packages.length + 1}`, services: [emptyService()] },
                ],
              })
            }
          >
            <Plus aria-hidden /> Add a package
          </Button>
        )}
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="font-semibold">Optional add-ons</h2>
        {value.addOns.map((s, k) => (
          <ServiceRow
            // biome-ignore lint/suspicious/noArrayIndexKey: unsaved rows have no identity but their place.
            key={`addon-${k}`}
            label={`Add-on ${k + 1}`}
            value={s}
            onChange={(v) => onChange({ ...value, addOns: value.addOns.map((x, j) => (j === k ? v : x)) })}
            onRemove={() => onChange({ ...value, addOns: value.addOns.filter((_, j) => j !== k) })}
          />
        ))}
        {value.addOns.length < MAX_ADD_ONS && (
          <Button
            variant="ghost"
            size="sm"
            className="self-start"
            onClick={() => onChange({ ...value, addOns: [...value.addOns, emptyService()] })}
          >
            <Plus aria-hidden /> Add an add-on
          </Button>
        )}
      </section>
      <Field label="Terms">
        <Textarea
          rows={4}
          value={value.terms}
          onChange={(e) => onChange({ ...value, terms: e.target.value })}
        />
      </Field>
      <FollowUpFields value={value.followUp} onChange={(followUp) => onChange({ ...value, followUp })} />
    </div>
  );
}
