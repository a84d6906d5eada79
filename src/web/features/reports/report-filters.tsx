import { CLIENT_STATUSES, CLIENT_TYPE_LABELS, CLIENT_TYPES } from '@domain/clients';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Field, Select } from '@web/ui';
import { X } from 'lucide-react';
import { trpc } from '../../lib/trpc';
import type { TReportSearch } from './report-search';

const ALL = '__all__';
const CLIENT_STATUS_LABELS = { active: 'Active', inactive: 'Inactive' } as const;

type TFilterKey = 'serviceId' | 'groupId' | 'memberId' | 'clientType' | 'clientStatus' | 'tag';

/**
 * The filters above a report: the period and the chosen narrowing, each written to the URL (and
 * the page reset), so the view can be shared. `required` filters (the grid's service) have no "all".
 */
export function ReportFilters({
  search,
  period,
  onChange,
  show,
  required = [],
}: {
  search: TReportSearch;
  period: { from: string; to: string };
  onChange: (patch: Partial<TReportSearch>) => void;
  show: TFilterKey[];
  required?: TFilterKey[];
}) {
  const options = useQuery(trpc.reports.options.queryOptions());
  const set = (patch: Partial<TReportSearch>) => onChange({ ...patch, page: undefined });
  const choose = (key: TFilterKey, list: { value: string; label: string }[], label: string) => (
    <Field key={key} label={label} className="min-w-40">
      <Select
        value={search[key] ?? ALL}
        onValueChange={(v) => set({ [key]: v === ALL ? undefined : v })}
        options={[...(required.includes(key) ? [] : [{ value: ALL, label: `All` }]), ...list]}
        placeholder={`Choose a ${label.toLowerCase()}`}
      />
    </Field>
  );
  const narrowed = show.some((k) => search[k] && !required.includes(k)) || search.from || search.to;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <Field label="From" className="w-44">
        <DatePicker value={period.from} clearable={false} onChange={(d) => d && set({ from: d })} />
      </Field>
      <Field label="To" className="w-44">
        <DatePicker value={period.to} clearable={false} onChange={(d) => d && set({ to: d })} />
      </Field>
      {show.includes('serviceId')
        ? choose(
            'serviceId',
            (options.data?.services ?? []).map((s) => ({ value: s.id, label: s.name })),
            'Service',
          )
        : null}
      {show.includes('groupId')
        ? choose(
            'groupId',
            (options.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name })),
            'Client group',
          )
        : null}
      {show.includes('memberId')
        ? choose(
            'memberId',
            (options.data?.members ?? []).map((m) => ({ value: m.id, label: m.name })),
            'Member',
          )
        : null}
      {show.includes('clientType')
        ? choose(
            'clientType',
            CLIENT_TYPES.map((t) => ({ value: t, label: CLIENT_TYPE_LABELS[t] })),
            'Client type',
          )
        : null}
      {show.includes('clientStatus')
        ? choose(
            'clientStatus',
            CLIENT_STATUSES.map((s) => ({ value: s, label: CLIENT_STATUS_LABELS[s] })),
            'Client status',
          )
        : null}
      {show.includes('tag')
        ? choose(
            'tag',
            // A tag named in the URL stays choosable even when no live client carries it any more.
            [...new Set([...(options.data?.tags ?? []), ...(search.tag ? [search.tag] : [])])].map((t) => ({
              value: t,
              label: t,
            })),
            'Tag',
          )
        : null}
      {narrowed ? (
        <Button
          variant="ghost"
          size="sm"
          onClick={() =>
            set({
              from: undefined,
              to: undefined,
              ...Object.fromEntries(show.filter((k) => !required.includes(k)).map((k) => [k, undefined])),
            })
          }
        >
          <X aria-hidden /> Clear filters
        </Button>
      ) : null}
    </div>
  );
}

/** Minutes as hours with one decimal, in the firm's number format. */
export const hours = (
  minutes: number,
  format: { number: (v: number, o?: Intl.NumberFormatOptions) => string },
) => format.number(minutes / 60, { maximumFractionDigits: 1 });

export const pct = (v: number | null) => (v === null ? '—' : `${v}%`);
