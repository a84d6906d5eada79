import type { TAudience } from '@domain/broadcasts';
import { CLIENT_TYPE_LABELS, CLIENT_TYPES } from '@domain/clients';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, Field, Select } from '@web/ui';
import { trpc } from '../../lib/trpc';

const ANY = 'any';
export type TAudienceDraft = Partial<TAudience>;

/** The audience's filters: each narrows the clients reached; "Any" does not filter. */
export function AudienceFields({
  value,
  onChange,
}: {
  value: TAudienceDraft;
  onChange: (next: TAudienceDraft) => void;
}) {
  const options = useQuery(trpc.clients.options.queryOptions());
  const services = useQuery(trpc.services.list.queryOptions({ pageSize: 200 }));
  const one = (list: readonly string[] | undefined) => list?.[0] ?? ANY;
  const set = (key: 'groupIds' | 'serviceIds' | 'tags' | 'types' | 'statuses', v: string) =>
    onChange({ ...value, [key]: v === ANY ? [] : [v] });
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label="Client group">
        <Select
          value={one(value.groupIds)}
          onValueChange={(v) => set('groupIds', v)}
          options={[
            { value: ANY, label: 'Any group' },
            ...(options.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name })),
          ]}
        />
      </Field>
      <Field label="Service engaged">
        <Select
          value={one(value.serviceIds)}
          onValueChange={(v) => set('serviceIds', v)}
          options={[
            { value: ANY, label: 'Any service' },
            ...(services.data?.rows ?? []).map((s) => ({ value: s.id, label: s.name })),
          ]}
        />
      </Field>
      <Field label="Tag">
        <Select
          value={one(value.tags)}
          onValueChange={(v) => set('tags', v)}
          options={[
            { value: ANY, label: 'Any tag' },
            ...(options.data?.tags ?? []).map((t) => ({ value: t, label: t })),
          ]}
        />
      </Field>
      <Field label="Type">
        <Select
          value={one(value.types)}
          onValueChange={(v) => set('types', v)}
          options={[
            { value: ANY, label: 'Any type' },
            ...CLIENT_TYPES.map((t) => ({ value: t, label: CLIENT_TYPE_LABELS[t] })),
          ]}
        />
      </Field>
      <Field label="Status">
        <Select
          value={value.statuses === undefined ? 'active' : one(value.statuses)}
          onValueChange={(v) => set('statuses', v)}
          options={[
            { value: 'active', label: 'Active clients' },
            { value: 'inactive', label: 'Inactive clients' },
            { value: ANY, label: 'Any status' },
          ]}
        />
      </Field>
      <Field label="Portal access">
        <Select
          value={value.portalAccess ?? 'any'}
          onValueChange={(v) => onChange({ ...value, portalAccess: v as TAudience['portalAccess'] })}
          options={[
            { value: 'any', label: 'With or without' },
            { value: 'with', label: 'With portal access' },
            { value: 'without', label: 'Without portal access' },
          ]}
        />
      </Field>
      <div className="flex items-end pb-2">
        <Checkbox
          label="Has overdue work"
          checked={!!value.overdueOnly}
          onCheckedChange={(c) => onChange({ ...value, overdueOnly: c === true })}
        />
      </div>
    </div>
  );
}
