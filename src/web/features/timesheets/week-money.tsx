import { formatMinutes } from '@domain/timesheets';
import { useFormat } from '@web/ui';

type TMoney = { billable: number; cost: number; estimate: boolean; unratedMinutes: number };

/** A week's value and cost; "estimate" while it is not approved, and billable time no rate covers. */
export function MoneyCells({ money }: { money: TMoney | undefined }) {
  const format = useFormat();
  if (!money) return null;
  const empty = !money.billable && !money.cost && !money.unratedMinutes;
  return (
    <>
      <td className="whitespace-nowrap p-2 text-right tabular-nums">
        {empty ? (
          <span className="text-muted-fg">-</span>
        ) : (
          <span className="flex flex-col items-end">
            <span>{format.moneyMinor(money.billable)}</span>
            {money.estimate ? <span className="text-xs text-muted-fg">estimate</span> : null}
            {money.unratedMinutes ? (
              <span className="text-xs text-warning">
                {formatMinutes(money.unratedMinutes)} without a rate
              </span>
            ) : null}
          </span>
        )}
      </td>
      <td className="whitespace-nowrap p-2 text-right tabular-nums">
        {empty ? <span className="text-muted-fg">-</span> : format.moneyMinor(money.cost)}
      </td>
    </>
  );
}

/** The team's totals under the table: all weeks, approved or estimated. */
export function MoneyTotals({
  members,
  columnsBefore,
}: {
  members: { money?: TMoney }[];
  columnsBefore: number;
}) {
  const format = useFormat();
  const sum = (key: 'billable' | 'cost') => members.reduce((s, m) => s + (m.money?.[key] ?? 0), 0);
  return (
    <tfoot>
      <tr className="border-t border-border font-medium">
        <th scope="row" colSpan={columnsBefore} className="p-2 text-right">
          Team total
        </th>
        <td className="whitespace-nowrap p-2 text-right tabular-nums">
          {format.moneyMinor(sum('billable'))}
        </td>
        <td className="whitespace-nowrap p-2 text-right tabular-nums">{format.moneyMinor(sum('cost'))}</td>
        <td colSpan={2} />
      </tr>
    </tfoot>
  );
}
