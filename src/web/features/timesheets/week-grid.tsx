import { dayFlags } from '@domain/timesheet-approval';
import {
  DURATION_HELP,
  ENTRY_TOO_LONG,
  formatMinutes,
  MAX_ENTRY_MINUTES,
  parseDuration,
} from '@domain/timesheets';
import { CellText, useFormat } from '@web/ui';
import { type KeyboardEvent, useId, useState } from 'react';
import { DayFlagMark } from './day-flags';

export type TGridRow = {
  key: string;
  label: string;
  links: {
    clientId: string | null;
    projectId: string | null;
    taskId: string | null;
    serviceId: string | null;
  };
  note: string;
  cells: Record<string, number>;
};

type TProps = {
  days: {
    date: string;
    expected: number;
    locked: boolean;
    working?: boolean;
    absence?: { kind: 'holiday' | 'leave'; name: string } | null;
  }[];
  /** With it, a day's total is flagged as the approver will see it. */
  dailyLimitMinutes?: number;
  rows: TGridRow[];
  editable: boolean;
  /** Saves a cell; a refusal rejects, and the cell keeps what was typed. */
  onCell: (row: TGridRow, date: string, minutes: number) => Promise<unknown>;
};

/** Moves focus between the grid's inputs with the arrow keys and Enter, as in a spreadsheet. */
function move(event: KeyboardEvent<HTMLInputElement>, dRow: number, dCol: number) {
  const cell = event.currentTarget;
  const r = Number(cell.dataset.row) + dRow;
  const c = Number(cell.dataset.col) + dCol;
  const next = cell
    .closest('table')
    ?.querySelector<HTMLInputElement>(`input[data-row="${r}"][data-col="${c}"]`);
  if (next) {
    event.preventDefault();
    next.focus();
    next.select();
  }
}

/** The reason a typed cell cannot be saved as it is, or null when it can. */
function refusalOf(text: string): string | null {
  const parsed = parseDuration(text);
  if (parsed === null) return DURATION_HELP;
  return parsed > MAX_ENTRY_MINUTES ? ENTRY_TOO_LONG : null;
}

function Cell(props: {
  row: TGridRow;
  rowIndex: number;
  col: number;
  date: string;
  label: string;
  disabled: boolean;
  onCell: TProps['onCell'];
}) {
  const minutes = props.row.cells[props.date] ?? 0;
  // What the person typed stays in the cell until the server has taken it: a refused entry keeps
  // its text and says why, rather than going back to the old value.
  const [text, setText] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const messageId = useId();
  const problem = text === null ? null : (refusalOf(text) ?? refused);
  const commit = () => {
    if (text === null || refusalOf(text)) return;
    const parsed = parseDuration(text) ?? 0;
    if (parsed === minutes) {
      setText(null);
      return;
    }
    setRefused(null);
    props.onCell(props.row, props.date, parsed).then(
      () => setText((now) => (now === text ? null : now)),
      (error: unknown) => setRefused(error instanceof Error && error.message ? error.message : DURATION_HELP),
    );
  };
  return (
    <td className="p-1">
      <input
        aria-label={props.label}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? messageId : undefined}
        title={problem ?? undefined}
        data-row={props.rowIndex}
        data-col={props.col}
        disabled={props.disabled}
        inputMode="decimal"
        className="h-8 w-16 rounded-md border border-border bg-surface px-2 text-right text-sm tabular-nums aria-invalid:border-danger disabled:bg-muted disabled:text-muted-fg"
        value={text ?? formatMinutes(minutes)}
        onChange={(e) => {
          setText(e.target.value);
          setRefused(null);
        }}
        onFocus={(e) => e.target.select()}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            commit();
            move(e, 1, 0);
          } else if (e.key === 'Escape') {
            setText(null);
            setRefused(null);
          } else if (e.key === 'ArrowDown') move(e, 1, 0);
          else if (e.key === 'ArrowUp') move(e, -1, 0);
          else if (e.key === 'ArrowRight' && e.currentTarget.selectionStart === e.currentTarget.value.length)
            move(e, 0, 1);
          else if (e.key === 'ArrowLeft' && e.currentTarget.selectionStart === 0) move(e, 0, -1);
        }}
      />
      {problem ? (
        <span id={messageId} role="alert" className="sr-only">
          {problem}
        </span>
      ) : null}
    </td>
  );
}

/** Rows are client / project / task, columns the week's days; hours typed as 1:30 or 1.5. */
export function WeekGrid({ days, rows, editable, onCell, dailyLimitMinutes }: TProps) {
  const format = useFormat();
  const dayTotal = (date: string) => rows.reduce((sum, r) => sum + (r.cells[date] ?? 0), 0);
  const weekTotal = days.reduce((sum, d) => sum + dayTotal(d.date), 0);
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-surface">
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-border text-left text-xs text-muted-fg">
            <th scope="col" className="p-2 font-medium">
              Client / project / task
            </th>
            {days.map((d) => (
              <th key={d.date} scope="col" className="p-2 text-right font-medium">
                {format.date(d.date, 'weekday')}
              </th>
            ))}
            <th scope="col" className="p-2 text-right font-medium">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={row.key} className="border-b border-border last:border-0">
              <th scope="row" className="min-w-40 max-w-64 p-2 text-left font-normal" title={row.label}>
                <CellText>{row.label}</CellText>
              </th>
              {days.map((d, c) => (
                <Cell
                  key={d.date}
                  row={row}
                  rowIndex={r}
                  col={c}
                  date={d.date}
                  label={`${row.label}, ${format.date(d.date)}`}
                  disabled={!editable || d.locked}
                  onCell={onCell}
                />
              ))}
              <td className="p-2 text-right tabular-nums">
                {formatMinutes(days.reduce((s, d) => s + (row.cells[d.date] ?? 0), 0))}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="border-t border-border text-xs text-muted-fg">
            <th scope="row" className="p-2 text-left font-medium">
              Recorded / expected
            </th>
            {days.map((d) => (
              <td key={d.date} className="whitespace-nowrap p-2 text-right tabular-nums">
                {dailyLimitMinutes ? (
                  <DayFlagMark
                    flags={dayFlags(
                      {
                        date: d.date,
                        minutes: dayTotal(d.date),
                        expected: d.expected,
                        working: d.working ?? true,
                        absence: d.absence ?? null,
                      },
                      dailyLimitMinutes,
                    )}
                  />
                ) : null}{' '}
                {formatMinutes(dayTotal(d.date)) || '0:00'} / {formatMinutes(d.expected) || '0:00'}
              </td>
            ))}
            <td className="p-2 text-right font-medium tabular-nums" data-testid="week-total">
              {formatMinutes(weekTotal) || '0:00'}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
