import { Button, useFormat } from '@web/ui';
import { Paperclip, X } from 'lucide-react';
import { useRef } from 'react';
import type { TPendingFile } from './use-attachments';

/** The composer's "Attach" button (a phone offers its camera and files) and the files on their way. */
export function PendingFiles({
  files,
  onAdd,
  onRemove,
}: {
  files: TPendingFile[];
  onAdd: (files: File[]) => void;
  onRemove: (key: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const { bytes } = useFormat();
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <input
        ref={input}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label="Attach files"
        onChange={(e) => {
          const picked = [...(e.target.files ?? [])];
          if (picked.length) onAdd(picked);
          e.target.value = '';
        }}
      />
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => input.current?.click()}>
          <Paperclip aria-hidden />
          Attach
        </Button>
      </div>
      {files.length ? (
        <ul aria-label="Files to send" className="flex flex-wrap gap-2">
          {files.map((f) => (
            <li
              key={f.key}
              className="flex max-w-full items-center gap-2 rounded-md border border-border bg-muted px-2 py-1 text-xs"
            >
              <span className="truncate">{f.name}</span>
              <span className="shrink-0 text-muted-fg">
                {f.status === 'uploading'
                  ? `${Math.round((f.loaded / Math.max(f.size, 1)) * 100)}%`
                  : f.status === 'failed'
                    ? f.message
                    : bytes(f.size)}
              </span>
              <button
                type="button"
                aria-label={`Remove ${f.name}`}
                className="shrink-0 rounded p-0.5 hover:bg-surface"
                onClick={() => onRemove(f.key)}
              >
                <X aria-hidden className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
