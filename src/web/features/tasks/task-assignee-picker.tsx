import { useQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Button,
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuTrigger,
  useFieldControl,
  useFormat,
} from '@web/ui';
import { ChevronDown, TriangleAlert } from 'lucide-react';
import type { AppRouter } from '../../lib/trpc';
import { trpc } from '../../lib/trpc';

type TAvailability = inferRouterOutputs<AppRouter>['leave']['availability'][number];

/** What the picker says beside a name for the due day. */
export function availabilityText(a: TAvailability): string {
  if (a.away)
    return a.absence?.kind === 'holiday' ? `Holiday – ${a.absence.name}` : `Away – ${a.absence?.name}`;
  if (a.minutes === 0) return 'Day off';
  const hours = `${Math.round((a.minutes / 60) * 10) / 10} h free`;
  return a.absence ? `${hours} (${a.absence.name})` : hours;
}

/**
 * The assignees of a task: with a due date, each member shows how much of that day they have, and
 * choosing someone away that day warns and offers, one click each, who is free instead. A warning,
 * never a refusal: the work may be handed over before the leave.
 */
export function AssigneePicker({
  members,
  value,
  onChange,
  dueDate,
  disabled = false,
  names,
}: {
  members: readonly { id: string; name: string }[];
  value: readonly string[];
  onChange: (ids: string[]) => void;
  dueDate: string | null;
  disabled?: boolean;
  /** Names of chosen people the list may not hold (a member since disabled). */
  names?: readonly { id: string; name: string }[];
}) {
  const format = useFormat();
  // The field's label names the trigger, and its hint and error describe it.
  const control = useFieldControl({});
  const availability = useQuery({
    ...trpc.leave.availability.queryOptions({ day: dueDate ?? '' }),
    enabled: Boolean(dueDate),
  });
  const on = new Map((dueDate ? (availability.data ?? []) : []).map((a) => [a.memberId, a]));
  const chosen = value.map(
    (id) => members.find((m) => m.id === id) ?? names?.find((m) => m.id === id) ?? { id, name: 'Someone' },
  );
  const away = chosen.flatMap((m) => {
    const a = on.get(m.id);
    return a?.away ? [a] : [];
  });
  const free = [...on.values()]
    .filter((a) => !a.away && a.minutes > 0 && !value.includes(a.memberId))
    .sort((x, y) => y.minutes - x.minutes)
    .slice(0, 5);
  const swap = (id: string) => onChange([...value.filter((v) => !away.some((a) => a.memberId === v)), id]);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button {...control} variant="outline" className="w-full justify-between" disabled={disabled}>
            <span className="truncate">
              {chosen.length ? chosen.map((m) => m.name).join(', ') : 'Nobody'}
            </span>
            <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="max-h-72 overflow-y-auto">
          {members.map((m) => {
            const a = on.get(m.id);
            return (
              <DropdownMenuCheckboxItem
                key={m.id}
                checked={value.includes(m.id)}
                onSelect={(e) => e.preventDefault()}
                onCheckedChange={(checked) =>
                  onChange(checked ? [...value, m.id] : value.filter((id) => id !== m.id))
                }
              >
                <span className="flex w-full items-center justify-between gap-3">
                  <span>{m.name}</span>
                  {a ? (
                    <span className={`text-xs ${a.away ? 'text-warning' : 'text-muted-fg'}`}>
                      {availabilityText(a)}
                    </span>
                  ) : null}
                </span>
              </DropdownMenuCheckboxItem>
            );
          })}
        </DropdownMenuContent>
      </DropdownMenu>
      {dueDate && away.length ? (
        <div role="status" className="flex flex-col gap-1.5 text-xs text-warning">
          <p className="flex items-start gap-1">
            <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            <span>
              {away.map((a) => a.name).join(', ')} {away.length === 1 ? 'is' : 'are'} away on{' '}
              {format.date(dueDate)} ({[...new Set(away.map((a) => a.absence?.name))].join(', ')}).{' '}
              {free.length ? 'Free that day:' : 'No one else is free that day.'}
            </span>
          </p>
          {free.length && !disabled ? (
            <div className="flex flex-wrap gap-1.5">
              {free.map((a) => (
                <Button
                  key={a.memberId}
                  type="button"
                  size="sm"
                  variant="outline"
                  aria-label={`Assign ${a.name} instead`}
                  onClick={() => swap(a.memberId)}
                >
                  {a.name} · {availabilityText(a)}
                </Button>
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
