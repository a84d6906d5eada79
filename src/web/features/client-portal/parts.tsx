import { portalDownloadPath } from '@domain/client-portal-constants';
import { Link } from '@tanstack/react-router';
import { StatusBadge, useFormat } from '@web/ui';
import { Download, FileText } from 'lucide-react';

// Pieces the portal's screens share.

export type TPortalTaskRow = {
  id: string;
  title: string;
  status: string;
  dueDate: string | null;
  completedDate: Date | null;
  projectName: string | null;
};

/** A to-do in a list: its title opens it, with the due date and the spec's status badge. */
export function TaskRow({
  clientId,
  task,
  tag,
  view,
}: {
  clientId: string;
  task: TPortalTaskRow;
  /** On a tag's list, the task opens over that list. */
  tag?: string;
  view?: 'open' | 'completed';
}) {
  const format = useFormat();
  const search = { task: task.id, ...(view === 'completed' ? { view } : {}) };
  const link = tag
    ? ({ to: '/clientportal/$clientId/tasks/$tag', params: { clientId, tag }, search } as const)
    : ({ to: '/clientportal/$clientId/tasks', params: { clientId }, search } as const);
  return (
    <li className="flex items-start gap-3 py-3">
      <div className="min-w-0 flex-1">
        <Link
          {...link}
          className="font-medium text-fg hover:underline focus-visible:outline-2 focus-visible:outline-ring"
        >
          {task.title}
        </Link>
        <p className="mt-0.5 text-xs text-muted-fg">
          {task.completedDate
            ? `Done ${format.date(task.completedDate)}`
            : task.dueDate
              ? `Due ${format.date(task.dueDate)}`
              : 'No due date'}
          {task.projectName ? ` · ${task.projectName}` : ''}
        </p>
      </div>
      <StatusBadge item={task} className="shrink-0" />
    </li>
  );
}

export type TPortalFileRow = { id: string; name: string; size: number; updatedAt: Date; byYou: boolean };

/** A file with its download (a plain link: the portal's cookie authenticates it). */
export function FileRow({ clientId, file }: { clientId: string; file: TPortalFileRow }) {
  const format = useFormat();
  return (
    <li className="flex items-center gap-3 py-2.5">
      <FileText aria-hidden="true" className="size-5 shrink-0 text-muted-fg" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">{file.name}</p>
        <p className="text-xs text-muted-fg">
          {format.bytes(file.size)} · {format.date(file.updatedAt)}
          {file.byYou ? ' · uploaded by you' : ''}
        </p>
      </div>
      <a
        href={portalDownloadPath(clientId, file.id)}
        download
        aria-label={`Download ${file.name}`}
        className="grid size-9 shrink-0 place-items-center rounded-md text-muted-fg hover:bg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
      >
        <Download aria-hidden="true" className="size-4" />
      </a>
    </li>
  );
}

/** Tasks done out of all, as a bar with its words for screen readers. */
export function Progress({ done, total }: { done: number; total: number }) {
  const { number } = useFormat();
  const percent = total ? Math.round((done / total) * 100) : 0;
  return (
    <div className="flex items-center gap-2 text-xs text-muted-fg">
      <div
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${done} of ${total} tasks done`}
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
      <span className="shrink-0">
        {number(done)}/{number(total)}
      </span>
    </div>
  );
}
