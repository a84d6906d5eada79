import { DISBURSEMENT_KIND_LABELS, FEE_TRIGGER_LABELS } from '@domain/billing/constants';
import { documentDownloadPath, isPreviewable } from '@domain/documents';
import { formatMinutes } from '@domain/timesheets';
import {
  Button,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  IconButton,
  useFormat,
} from '@web/ui';
import { Ellipsis, Paperclip, Pencil, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { saveFile } from '../../documents/file-transfer';
import { PreviewDialog } from '../../documents/preview-dialog';
import { useCan } from '../../shell/access';
import type { TWipCovered, TWipDisbursement, TWipFee, TWipTime } from './use-wip';
import { type TWipColumn, type TWipGroup, WipTable } from './wip-table';

// The sections of a client's work in progress: fees due, time (grouped), time a fee covers, and
// disbursements. Each row's key is what the selection holds (see wip-client-page.tsx).

export type TSelection = { selected: ReadonlySet<string>; toggle: (keys: string[], on: boolean) => void };

export const feeKey = (f: Pick<TWipFee, 'engagementId' | 'periodStart'>) =>
  `f:${f.engagementId}|${f.periodStart}`;
export const timeKey = (t: Pick<TWipTime, 'id'>) => `t:${t.id}`;
export const disbursementKey = (d: Pick<TWipDisbursement, 'id'>) => `d:${d.id}`;

const hours = (minutes: number) => `${formatMinutes(minutes)} h`;

function Section({
  title,
  description,
  total,
  children,
  actions,
}: {
  title: string;
  description?: ReactNode;
  total?: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <div className="min-w-0">
          <CardTitle>{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
        <div className="flex shrink-0 items-center gap-3">
          {total ? <p className="text-sm font-medium tabular-nums">{total}</p> : null}
          {actions}
        </div>
      </CardHeader>
      <div className="border-t border-border">{children}</div>
    </Card>
  );
}

export function FeesSection({ fees, selection }: { fees: TWipFee[]; selection: TSelection | null }) {
  const format = useFormat();
  if (!fees.length) return null;
  const columns: TWipColumn<TWipFee>[] = [
    {
      id: 'fee',
      header: 'Fee',
      className: 'w-full whitespace-normal',
      cell: (f) => (
        <div>
          <p className="font-medium">{f.description}</p>
          <p className="text-xs text-muted-fg">
            {f.periodStart === f.periodEnd
              ? format.date(f.periodStart)
              : `${format.date(f.periodStart)} to ${format.date(f.periodEnd)}`}
            {f.project ? ` · ${f.project.name}` : ''}
          </p>
        </div>
      ),
    },
    { id: 'when', header: 'Billed', cell: (f) => FEE_TRIGGER_LABELS[f.trigger] },
    {
      id: 'covered',
      header: 'Time it covers',
      className: 'text-right tabular-nums',
      cell: (f) =>
        f.covered.minutes ? (
          <div>
            <p>{hours(f.covered.minutes)}</p>
            <p className="text-xs text-muted-fg">worth {format.moneyMinor(f.covered.value)}</p>
          </div>
        ) : (
          <span className="text-muted-fg">-</span>
        ),
    },
    {
      id: 'amount',
      header: 'Fee',
      className: 'text-right tabular-nums',
      cell: (f) => format.moneyMinor(f.fee),
    },
  ];
  return (
    <Section
      title="Fixed fees due"
      description="Periods of fixed-fee engagements that are due and not billed."
      total={format.moneyMinor(fees.reduce((s, f) => s + f.fee, 0))}
    >
      <WipTable
        label="Fixed fees due"
        columns={columns}
        groups={[{ key: 'fees', rows: fees }]}
        keyOf={feeKey}
        rowLabel={(f) => f.description}
        selection={selection}
      />
    </Section>
  );
}

function timeColumns(format: ReturnType<typeof useFormat>): TWipColumn<TWipTime>[] {
  return [
    { id: 'date', header: 'Date', cell: (e) => format.date(e.date) },
    { id: 'member', header: 'Member', cell: (e) => e.member.name },
    {
      id: 'work',
      header: 'Work',
      className: 'w-full max-w-0 whitespace-normal',
      cell: (e) => (
        <div className="min-w-40">
          <p className="truncate" title={e.note || undefined}>
            {e.note || e.task?.title || <span className="text-muted-fg">No note</span>}
          </p>
          {e.project || e.task ? (
            <p className="truncate text-xs text-muted-fg">
              {[e.project?.name, e.note ? e.task?.title : null].filter(Boolean).join(' · ')}
            </p>
          ) : null}
        </div>
      ),
    },
    {
      id: 'hours',
      header: 'Hours',
      className: 'text-right tabular-nums',
      cell: (e) => formatMinutes(e.minutes),
    },
    {
      id: 'rate',
      header: 'Rate',
      className: 'text-right tabular-nums',
      cell: (e) =>
        e.rate === null ? <span className="text-muted-fg">No rate</span> : format.moneyMinor(e.rate),
    },
    {
      id: 'value',
      header: 'Value',
      className: 'text-right tabular-nums',
      cell: (e) => format.moneyMinor(e.value),
    },
  ];
}

/** Groups time by its service (or project): "Bookkeeping · 7:30 h · ₹7,500.00". */
function groupTime<T extends TWipTime>(
  rows: T[],
  by: 'service' | 'project',
  money: (n: number) => string,
): TWipGroup<T>[] {
  const groups = new Map<string, { name: string; rows: T[] }>();
  for (const e of rows) {
    const ref = by === 'project' ? e.project : e.service;
    const key = ref?.id ?? '';
    const group = groups.get(key) ?? { name: ref?.name ?? 'Other work', rows: [] };
    group.rows.push(e);
    groups.set(key, group);
  }
  return [...groups.entries()].map(([key, g]) => ({
    key: key || 'none',
    label: `${g.name} · ${hours(g.rows.reduce((s, e) => s + e.minutes, 0))} · ${money(g.rows.reduce((s, e) => s + e.value, 0))}`,
    rows: g.rows,
  }));
}

export function TimeSection({
  time,
  by,
  selection,
}: {
  time: TWipTime[];
  by: 'service' | 'project';
  selection: TSelection | null;
}) {
  const format = useFormat();
  if (!time.length) return null;
  const unrated = time.filter((e) => e.rate === null).length;
  return (
    <Section
      title="Time"
      description={
        unrated
          ? `Approved billable time. ${unrated} ${unrated === 1 ? 'entry has' : 'entries have'} no rate: set rates on the timesheets screen.`
          : 'Approved billable time, valued at the rate frozen when it was approved.'
      }
      total={`${hours(time.reduce((s, e) => s + e.minutes, 0))} · ${format.moneyMinor(time.reduce((s, e) => s + e.value, 0))}`}
    >
      <WipTable
        label="Time"
        columns={timeColumns(format)}
        groups={groupTime(time, by, format.moneyMinor)}
        keyOf={timeKey}
        rowLabel={(e) => `${format.date(e.date)}, ${e.member.name}, ${formatMinutes(e.minutes)} h`}
        selection={selection}
      />
    </Section>
  );
}

export function CoveredSection({ covered, fees }: { covered: TWipCovered[]; fees: TWipFee[] }) {
  const format = useFormat();
  if (!covered.length) return null;
  const feeName = new Map(fees.map((f) => [`${f.engagementId}|${f.periodStart}`, f.description]));
  const groups = new Map<string, TWipCovered[]>();
  for (const c of covered) {
    const key = `${c.engagementId}|${c.periodStart}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return (
    <Section
      title="Covered by fixed fees"
      description="Time on fixed-fee work: not billed by the hour; it is billed with its period's fee and counts in that fee's standard value."
      total={hours(covered.reduce((s, e) => s + e.minutes, 0))}
    >
      <WipTable
        label="Time covered by fixed fees"
        columns={timeColumns(format)}
        groups={[...groups.entries()].map(([key, rows]) => ({
          key,
          label: `${feeName.get(key) ?? `${rows[0]?.service?.name ?? 'Fixed fee'} · ${format.date(rows[0]?.periodStart ?? '')}`} · ${hours(rows.reduce((s, e) => s + e.minutes, 0))}${feeName.has(key) ? '' : ' · fee not due yet'}`,
          rows,
        }))}
        keyOf={timeKey}
        rowLabel={(e) => `${format.date(e.date)}, ${e.member.name}`}
        selection={null}
      />
    </Section>
  );
}

function Receipt({ receipt }: { receipt: NonNullable<TWipDisbursement['receipt']> }) {
  const [open, setOpen] = useState(false);
  const canView = useCan('documents.view');
  if (!canView) return <span className="text-muted-fg">Receipt</span>;
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        onClick={() =>
          isPreviewable(receipt.contentType)
            ? setOpen(true)
            : void saveFile(documentDownloadPath(receipt.id), receipt.name)
        }
      >
        <Paperclip aria-hidden /> Receipt<span className="sr-only">: {receipt.name}</span>
      </Button>
      <PreviewDialog file={open ? receipt : null} onClose={() => setOpen(false)} />
    </>
  );
}

export function DisbursementsSection({
  disbursements,
  selection,
  onEdit,
  onDelete,
  action,
}: {
  disbursements: TWipDisbursement[];
  selection: TSelection | null;
  onEdit: (d: TWipDisbursement) => void;
  onDelete: (d: TWipDisbursement) => void;
  action?: ReactNode;
}) {
  const format = useFormat();
  const canManage = useCan('billing.manage');
  const columns: TWipColumn<TWipDisbursement>[] = [
    { id: 'date', header: 'Date', cell: (d) => format.date(d.spentOn) },
    { id: 'kind', header: 'Kind', cell: (d) => DISBURSEMENT_KIND_LABELS[d.kind] },
    {
      id: 'description',
      header: 'Description',
      className: 'w-full max-w-0 whitespace-normal',
      cell: (d) => (
        <div className="min-w-40">
          <p className="truncate" title={d.description}>
            {d.description}
          </p>
          {d.project ? <p className="truncate text-xs text-muted-fg">{d.project.name}</p> : null}
        </div>
      ),
    },
    {
      id: 'receipt',
      header: 'Receipt',
      cell: (d) =>
        d.receipt ? <Receipt receipt={d.receipt} /> : <span className="text-muted-fg">None</span>,
    },
    {
      id: 'amount',
      header: 'Amount',
      className: 'text-right tabular-nums',
      cell: (d) => format.moneyMinor(d.amount),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'w-12 text-right',
      cell: (d) =>
        canManage ? (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <IconButton aria-label={`Actions for ${d.description}`} size="sm">
                <Ellipsis />
              </IconButton>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => onEdit(d)}>
                <Pencil aria-hidden /> Edit
              </DropdownMenuItem>
              <DropdownMenuItem danger onSelect={() => onDelete(d)}>
                <Trash2 aria-hidden /> Delete
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        ) : null,
    },
  ];
  return (
    <Section
      title="Disbursements"
      description="Paid on the client's behalf: billed at cost, without tax."
      total={
        disbursements.length ? format.moneyMinor(disbursements.reduce((s, d) => s + d.amount, 0)) : undefined
      }
      actions={action}
    >
      {disbursements.length ? (
        <WipTable
          label="Disbursements"
          columns={columns}
          groups={[{ key: 'disbursements', rows: disbursements }]}
          keyOf={disbursementKey}
          rowLabel={(d) => d.description}
          selection={selection}
        />
      ) : (
        <p className="px-4 py-3 text-sm text-muted-fg">No unbilled disbursements.</p>
      )}
    </Section>
  );
}
