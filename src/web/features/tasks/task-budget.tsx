import { BUDGET_HELP, budgetText, parseBudget } from '@domain/budgets';
import { Field, Input } from '@web/ui';
import { useEffect, useState } from 'react';
import { BudgetMeter } from '../projects/budget-meter';
import type { TTaskDetail } from './use-tasks';

/** The drawer's hours budget: typed like a timesheet cell, saved on leaving it, with time logged so far. */
export function TaskBudget({
  task,
  canEdit,
  onSave,
}: {
  task: TTaskDetail;
  canEdit: boolean;
  onSave: (budgetMinutes: number | null) => void;
}) {
  const saved = budgetText(task.budget.budgetMinutes);
  const [text, setText] = useState(saved);
  useEffect(() => setText(saved), [saved]);
  const parsed = parseBudget(text);
  return (
    <div className="flex flex-col gap-2">
      <Field label="Hours budget" hint={BUDGET_HELP} error={parsed === undefined ? BUDGET_HELP : undefined}>
        <Input
          value={text}
          inputMode="decimal"
          disabled={!canEdit}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => {
            if (parsed !== undefined && (parsed ?? null) !== task.budget.budgetMinutes)
              onSave(parsed || null);
          }}
        />
      </Field>
      <BudgetMeter
        label="Task hours against budget"
        budgetMinutes={task.budget.budgetMinutes}
        actualMinutes={task.budget.actualMinutes}
      />
    </div>
  );
}
