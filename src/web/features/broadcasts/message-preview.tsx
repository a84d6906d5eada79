import { useQuery } from '@tanstack/react-query';
import { Field, Spinner, useDebounced } from '@web/ui';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { ClientPicker } from '../projects/client-picker';

/**
 * The message as one client's recipient reads it, rendered by the server with the same code that
 * sends it. Shown in a sandboxed frame: the HTML is sanitised, and the frame keeps it apart anyway.
 */
export function MessagePreview({
  subject,
  bodyHtml,
  clientId: chosen,
  via = 'templates',
}: {
  subject: string;
  bodyHtml: string;
  clientId?: string | null;
  via?: 'templates' | 'broadcasts';
}) {
  const [picked, setPicked] = useState<string | null>(null);
  const clientId = chosen ?? picked;
  // Asked once typing pauses, and sent in the request's body however long the message is
  // (src/web/lib/trpc.ts): never a call per keystroke, never a body in the address.
  const input = useDebounced({ subject, bodyHtml, clientId: clientId ?? '' });
  const ready = !!input.clientId && !!input.subject.trim() && !!input.bodyHtml.trim();
  const templates = useQuery({
    ...trpc.broadcastTemplates.preview.queryOptions(input),
    enabled: ready && via === 'templates',
    placeholderData: (previous) => previous,
  });
  const broadcasts = useQuery({
    ...trpc.broadcasts.preview.queryOptions(input),
    enabled: ready && via === 'broadcasts',
    placeholderData: (previous) => previous,
  });
  const preview = via === 'templates' ? templates : broadcasts;
  return (
    <div className="flex flex-col gap-2">
      {chosen === undefined ? (
        <Field label="Preview for client">
          <ClientPicker value={picked} onChange={setPicked} />
        </Field>
      ) : null}
      {!clientId ? (
        <p className="text-sm text-muted-fg">Choose a client to see the message as they will read it.</p>
      ) : preview.isFetching && !preview.data ? (
        <Spinner />
      ) : preview.error ? (
        <p className="text-sm text-danger">{preview.error.message}</p>
      ) : preview.data ? (
        <div className="rounded-md border border-border">
          <p className="border-b border-border px-3 py-2 text-sm">
            <span className="text-muted-fg">Subject: </span>
            <span className="font-medium" data-testid="preview-subject">
              {preview.data.subject}
            </span>
          </p>
          <iframe
            title="Message preview"
            sandbox=""
            className="h-64 w-full bg-white"
            srcDoc={`<!doctype html><meta charset="utf-8"><body style="font-family:system-ui,sans-serif;font-size:14px;color:#111">${preview.data.html}</body>`}
          />
        </div>
      ) : null}
    </div>
  );
}
