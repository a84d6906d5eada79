import { useMutation } from '@tanstack/react-query';
import { Button, Checkbox, IconButton, Input } from '@web/ui';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { type TTaskDetail, useTasksRefresh } from './use-tasks';

export function TaskChecklist({ task, canEdit }: { task: TTaskDetail; canEdit: boolean }) {
  const refresh = useTasksRefresh();
  const [text, setText] = useState('');
  const options = { onSuccess: () => refresh() };
  const add = useMutation(
    trpc.tasks.checklist.add.mutationOptions({
      onSuccess: async () => {
        setText('');
        await refresh();
      },
    }),
  );
  const toggle = useMutation(trpc.tasks.checklist.toggle.mutationOptions(options));
  const remove = useMutation(trpc.tasks.checklist.remove.mutationOptions(options));
  const done = task.checklist.filter((i) => i.done).length;
  const submit = () => {
    const value = text.trim();
    if (value) add.mutate({ taskId: task.id, text: value });
  };
  return (
    <section aria-labelledby="task-checklist-title" className="flex flex-col gap-2">
      <h3 id="task-checklist-title" className="flex items-center gap-2 text-sm font-semibold">
        Checklist
        {task.checklist.length ? (
          <span className="text-xs font-normal text-muted-fg tabular-nums">
            {done}/{task.checklist.length} done
          </span>
        ) : null}
      </h3>
      {task.settings.requireChecklistToComplete && task.checklist.length > done ? (
        <p className="text-xs text-muted-fg">The firm asks for every item to be done before completing.</p>
      ) : null}
      <ul className="flex flex-col gap-1">
        {task.checklist.map((item) => (
          <li key={item.id} className="group flex items-center gap-2">
            <Checkbox
              label={<span className={item.done ? 'text-muted-fg line-through' : ''}>{item.text}</span>}
              checked={item.done}
              disabled={!canEdit || toggle.isPending}
              onCheckedChange={(on) => toggle.mutate({ taskId: task.id, itemId: item.id, done: on === true })}
            />
            {canEdit ? (
              <IconButton
                aria-label={`Remove ${item.text}`}
                size="sm"
                className="ml-auto text-muted-fg"
                onClick={() => remove.mutate({ taskId: task.id, itemId: item.id })}
              >
                <X />
              </IconButton>
            ) : null}
          </li>
        ))}
      </ul>
      {canEdit ? (
        <div className="flex gap-2">
          <Input
            aria-label="New checklist item"
            placeholder="Add an item and press Enter"
            value={text}
            maxLength={500}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                submit();
              }
            }}
          />
          <Button variant="outline" onClick={submit} disabled={!text.trim() || add.isPending}>
            <Plus aria-hidden />
            Add
          </Button>
        </div>
      ) : null}
    </section>
  );
}
