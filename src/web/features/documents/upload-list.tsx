import { Button, IconButton, useFormat } from '@web/ui';
import { RotateCw, X } from 'lucide-react';
import { isActive, type TUpload } from './use-uploads';

const STATUS_LABEL: Record<TUpload['status'], string> = {
  queued: 'Waiting',
  uploading: 'Uploading',
  reconnecting: 'Reconnecting',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * One row per file being uploaded: its progress bar, a cancel while it is not finished, and a retry
 * when the connection failed it.
 */
export function UploadList({
  uploads,
  onCancel,
  onRetry,
  onClear,
}: {
  uploads: TUpload[];
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onClear: () => void;
}) {
  const format = useFormat();
  if (uploads.length === 0) return null;
  const finished = uploads.some((u) => !isActive(u.status));
  return (
    <section aria-label="Uploads" className="rounded-md border border-border bg-surface p-3">
      <div className="mb-2 flex items-center justify-between">
        <h2 className="text-sm font-semibold">Uploads</h2>
        {finished ? (
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear finished
          </Button>
        ) : null}
      </div>
      <ul className="flex flex-col gap-2">
        {uploads.map((u) => {
          const percent =
            u.size > 0 ? Math.min(100, Math.round((u.loaded / u.size) * 100)) : u.status === 'done' ? 100 : 0;
          const active = isActive(u.status);
          return (
            <li key={u.id} className="flex items-center gap-3 text-sm" data-upload-status={u.status}>
              <div className="min-w-0 flex-1">
                <div className="flex items-center justify-between gap-2">
                  <span className="truncate font-medium">{u.name}</span>
                  <span className="shrink-0 text-xs text-muted-fg">
                    {STATUS_LABEL[u.status]} · {format.bytes(u.size)}
                  </span>
                </div>
                <div
                  role="progressbar"
                  aria-label={`Upload of ${u.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  className="mt-1 h-1.5 overflow-hidden rounded-full bg-muted"
                >
                  <div
                    className={
                      u.status === 'failed'
                        ? 'h-full bg-danger'
                        : u.status === 'cancelled'
                          ? 'h-full bg-muted-fg'
                          : 'h-full bg-primary'
                    }
                    style={{ width: `${u.status === 'failed' ? 100 : percent}%` }}
                  />
                </div>
                {u.message ? (
                  <p
                    className={`mt-1 text-xs ${u.status === 'reconnecting' ? 'text-muted-fg' : 'text-danger'}`}
                    role={u.status === 'reconnecting' ? 'status' : undefined}
                  >
                    {u.message}
                  </p>
                ) : null}
              </div>
              {u.status === 'failed' && u.retryable ? (
                <IconButton
                  aria-label={`Retry the upload of ${u.name}`}
                  size="sm"
                  onClick={() => onRetry(u.id)}
                >
                  <RotateCw aria-hidden="true" />
                </IconButton>
              ) : null}
              {active ? (
                <IconButton
                  aria-label={`Cancel the upload of ${u.name}`}
                  size="sm"
                  onClick={() => onCancel(u.id)}
                >
                  <X aria-hidden="true" />
                </IconButton>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
