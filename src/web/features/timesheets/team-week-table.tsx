import type { TDayFlag } from '@domain/timesheet-approval';
import { formatMinutes, type TWeekStatus } from '@domain/timesheets';
import { Badge, Checkbox, IconButton, Tooltip, useFormat } from '@web/ui';
import { Info, Undo2 } from 'lucide-react';
import { DayFlagMark } from './day-flags';
import { MoneyCells, MoneyTotals } from './week-money';
import { WEEK_STATUS_TEXT } from './week-status';

export type TTeamRow = {
  id: string;
  name: string;
  status: TWeekStatus;
  comment: string | null;
  refusal: string | null;
  days: { date: string; minutes: number; expected: number; flags: TDayFlag[] }[];
  money?: { billable: number; cost: number; estimate: boolean; unratedMinutes: number };
};

type TProps = {
  days: string[];
  members: TTeamRow[];
  canRates: boolean;
  selected: Set<string>;
  onSelect: (ids: Set<string>) => void;
  onOpen: (memberId: string) => void;
  onSendBack: (member: { id: string; name: string }) => void;
};

/** A week the caller may approve now: submitted, and not theirs nor kept for another approver. */
export const approvable = (m: TTeamRow) => m.status === 'submitted' && !m.refusal;

/** The team's week: a row per member, each day's time with its flags; the name opens the week. */
export function TeamWeekTable({ days, members, canRates, selected, onSelect, onOpen, onSendBack }: TProps) {
  const format = useFormat();
  const ready = members.filter(approvable);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  };
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-surface">
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-border text-left text-xs text-muted-fg">
            <th scope="col" className="w-9 px-1.5 py-2">
              <Checkbox
                aria-label="Select every week you may approve"
                disabled={ready.length === 0}
                checked={ready.length > 0 && ready.every((m) => selected.has(m.id))}
                onCheckedChange={(on) => onSelect(on === true ? new Set(ready.map((m) => m.id)) : new Set())}
              />
            </th>
            <th scope="col" className="p-2 font-medium">
              Member
            </th>
            {days.map((d) => {
              // "Mon, 2 Mar" on two lines: seven day columns then fit beside the names and money.
              const [, weekday, date] = /^(\S+?),?\s+(.*)$/.exec(format.date(d, 'weekday')) ?? [];
              return (
                <th key={d} scope="col" className="whitespace-nowrap px-1.5 py-2 text-right font-medium">
                  {weekday ?? format.date(d, 'weekday')}
                  {date ? <span className="block font-normal">{date}</span> : null}
                </th>
              );
            })}
            <th scope="col" className="px-1.5 py-2 text-right font-medium">
              Week
            </th>
            {canRates ? (
              <>
                <th scope="col" className="p-2 text-right font-medium">
                  Billable value
                </th>
                <th scope="col" className="p-2 text-right font-medium">
                  Cost
                </th>
              </>
            ) : null}
            <th scope="col" className="px-1.5 py-2 font-medium">
              Status
            </th>
            <th scope="col" className="px-1.5 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const total = m.days.reduce((s, d) => s + d.minutes, 0);
            const expected = m.days.reduce((s, d) => s + d.expected, 0);
            const decided = m.status === 'submitted' || m.status === 'approved';
            return (
              <tr key={m.id} className="border-b border-border last:border-0">
                <td className="px-1.5 py-2">
                  <Checkbox
                    aria-label={`Select ${m.name}`}
                    disabled={!approvable(m)}
                    checked={selected.has(m.id)}
                    onCheckedChange={(on) => toggle(m.id, on === true)}
                  />
                </td>
                <th scope="row" className="p-2 text-left font-normal">
                  <button
                    type="button"
                    className="whitespace-nowrap text-left text-primary underline-offset-2 hover:underline"
                    aria-label={`Open ${m.name}'s week`}
                    onClick={() => onOpen(m.id)}
                  >
                    {m.name}
                  </button>
                </th>
                {m.days.map((d) => (
                  <td
                    key={d.date}
                    className={`whitespace-nowrap px-1.5 py-2 text-right tabular-nums ${d.minutes < d.expected ? 'text-warning' : ''}`}
                  >
                    <span className="inline-flex items-center gap-1">
                      <DayFlagMark flags={d.flags} />
                      {formatMinutes(d.minutes) || (d.expected ? '0:00' : '')}
                    </span>
                  </td>
                ))}
                <td className="whitespace-nowrap px-1.5 py-2 text-right tabular-nums">
                  {formatMinutes(total) || '0:00'} / {formatMinutes(expected) || '0:00'}
                </td>
                {canRates ? <MoneyCells money={m.money} /> : null}
                <td className="whitespace-nowrap px-1.5 py-2">
                  <span className="inline-flex items-center gap-1">
                    <Badge title={m.comment ?? undefined}>{WEEK_STATUS_TEXT[m.status]}</Badge>
                    {m.refusal && decided ? (
                      <Tooltip content={m.refusal}>
                        <button type="button" className="text-muted-fg" aria-label={m.refusal}>
                          <Info className="size-3.5" aria-hidden />
                        </button>
                      </Tooltip>
                    ) : null}
                  </span>
                </td>
                <td className="px-1.5 py-2 text-right">
                  {decided && !m.refusal ? (
                    <IconButton
                      size="sm"
                      aria-label={`Send back ${m.name}'s week`}
                      title="Send back"
                      onClick={() => onSendBack({ id: m.id, name: m.name })}
                    >
                      <Undo2 aria-hidden />
                    </IconButton>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
        {canRates && members.length ? (
          <MoneyTotals members={members} columnsBefore={3 + days.length} />
        ) : null}
      </table>
    </div>
  );
}
