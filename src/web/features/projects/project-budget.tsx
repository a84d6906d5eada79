import { formatMinutes } from '@domain/timesheets';
import { Card, CardContent, CardHeader, CardTitle } from '@web/ui';
import { BudgetMeter } from './budget-meter';
import type { TProjectDetail } from './project-page';

const hours = (minutes: number | null) => (minutes ? formatMinutes(minutes) : '-');

/** The project page's budget card: the project's hours against its budget, then each task's. */
export function ProjectBudget({ budget }: { budget: TProjectDetail['budget'] }) {
  const nothing = budget.budgetMinutes === null && budget.actualMinutes === 0 && budget.tasks.length === 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Budget</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {nothing ? (
          <p className="text-sm text-muted-fg">
            No hours budget and no time logged yet. Edit the project to give it a budget.
          </p>
        ) : (
          <BudgetMeter
            label="Project hours against budget"
            budgetMinutes={budget.budgetMinutes}
            actualMinutes={budget.actualMinutes}
          />
        )}
        {budget.tasks.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Budget against actual by task</caption>
              <thead>
                <tr className="border-b border-border text-left text-xs text-muted-fg">
                  <th className="px-2 py-2 font-medium">Task</th>
                  <th className="px-2 py-2 text-right font-medium">Budget (h)</th>
                  <th className="px-2 py-2 text-right font-medium">Logged (h)</th>
                  <th className="px-2 py-2 font-medium">Used</th>
                </tr>
              </thead>
              <tbody>
                {budget.tasks.map((t) => (
                  <tr key={t.id} className="border-b border-border last:border-0">
                    <td className="px-2 py-2">{t.title}</td>
                    <td className="px-2 py-2 text-right tabular-nums">{hours(t.budgetMinutes)}</td>
                    <td className="px-2 py-2 text-right tabular-nums">
                      {formatMinutes(t.actualMinutes) || '0:00'}
                    </td>
                    <td className="px-2 py-2">
                      {t.budgetMinutes ? (
                        <BudgetMeter
                          label={`${t.title}: hours against budget`}
                          budgetMinutes={t.budgetMinutes}
                          actualMinutes={t.actualMinutes}
                        />
                      ) : (
                        <span className="text-muted-fg">no budget</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
