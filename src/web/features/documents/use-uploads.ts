import { DOCUMENT_UPLOAD_PATH } from '@domain/documents';
import { useFormat } from '@web/ui';
import { useCallback, useRef, useState } from 'react';
import { staffAuthHeaders } from '../../lib/auth';

export type TUpload = {
  id: string;
  name: string;
  size: number;
  loaded: number;
  status: 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';
  message?: string;
};

/**
 * A folder's id; a folder with the uploader's portal choice (shared, with the folders above it, or
 * internal); or a task whose attachments folder the server picks (and links the file to it).
 */
export type TUploadTarget = string | { folderId: string; share: boolean } | { taskId: string };

const staffUploadUrl = (target: TUploadTarget) => {
  if (typeof target === 'string') return `${DOCUMENT_UPLOAD_PATH}?folderId=${encodeURIComponent(target)}`;
  if ('taskId' in target) return `${DOCUMENT_UPLOAD_PATH}?taskId=${encodeURIComponent(target.taskId)}`;
  return `${DOCUMENT_UPLOAD_PATH}?folderId=${encodeURIComponent(target.folderId)}&share=${target.share}`;
};

/** Uploads in flight at once; the rest wait their turn (each file keeps its own bar and cancel). */
const PARALLEL = 3;

/**
 * Uploads files one request each with XMLHttpRequest, whose upload progress events fetch() does
 * not offer. Each can be cancelled (the server removes what it had received).
 */
export function useUploads(options: {
  maxBytes: number | undefined;
  onUploaded: () => void;
  /** Where a file goes; the staff route by default. The client portal passes its own route. */
  url?: (target: TUploadTarget) => string;
  /** Auth headers; the staff token by default (the portal's cookie travels by itself). */
  headers?: () => Promise<Record<string, string>>;
}) {
  const { bytes } = useFormat();
  const [uploads, setUploads] = useState<TUpload[]>([]);
  const requests = useRef(new Map<string, XMLHttpRequest>());
  const queue = useRef<{ id: string; file: File; target: TUploadTarget }[]>([]);
  const running = useRef(0);
  const { onUploaded } = options;
  const urlOf = options.url ?? staffUploadUrl;
  const headersOf = options.headers ?? staffAuthHeaders;

  const patch = useCallback((id: string, next: Partial<TUpload>) => {
    setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...next } : u)));
  }, []);

  const pump = useCallback(() => {
    while (running.current < PARALLEL && queue.current.length > 0) {
      const job = queue.current.shift();
      if (!job) break;
      running.current += 1;
      const finish = () => {
        running.current -= 1;
        requests.current.delete(job.id);
        pump();
      };
      void (async () => {
        const xhr = new XMLHttpRequest();
        requests.current.set(job.id, xhr);
        xhr.open('POST', urlOf(job.target));
        for (const [key, value] of Object.entries(await headersOf())) xhr.setRequestHeader(key, value);
        xhr.upload.onprogress = (event) => patch(job.id, { loaded: event.loaded });
        xhr.onload = () => {
          if (xhr.status >= 200 && xhr.status < 300) {
            patch(job.id, { status: 'done', loaded: job.file.size });
            onUploaded();
          } else {
            let message = 'The upload failed. Please try again.';
            try {
              message = (JSON.parse(xhr.responseText) as { message?: string }).message ?? message;
            } catch {
              // not JSON: keep the general message
            }
            patch(job.id, { status: 'failed', message });
          }
          finish();
        };
        xhr.onerror = () => {
          patch(job.id, { status: 'failed', message: 'Network Error' });
          finish();
        };
        xhr.onabort = () => {
          patch(job.id, { status: 'cancelled' });
          finish();
        };
        const form = new FormData();
        form.append('file', job.file, job.file.name);
        patch(job.id, { status: 'uploading' });
        xhr.send(form);
      })();
    }
  }, [patch, onUploaded, urlOf, headersOf]);

  const add = useCallback(
    (files: File[], target: TUploadTarget) => {
      const added: TUpload[] = [];
      for (const file of files) {
        const id = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
        const tooBig = options.maxBytes !== undefined && file.size > options.maxBytes;
        added.push({
          id,
          name: file.name,
          size: file.size,
          loaded: 0,
          status: tooBig ? 'failed' : 'queued',
          message: tooBig
            ? `The file is larger than the limit of ${bytes(options.maxBytes ?? 0)}`
            : undefined,
        });
        if (!tooBig) queue.current.push({ id, file, target });
      }
      setUploads((list) => [...list, ...added]);
      pump();
    },
    [options.maxBytes, pump, bytes],
  );

  const cancel = useCallback(
    (id: string) => {
      const waiting = queue.current.findIndex((j) => j.id === id);
      if (waiting >= 0) {
        queue.current.splice(waiting, 1);
        patch(id, { status: 'cancelled' });
        return;
      }
      requests.current.get(id)?.abort();
    },
    [patch],
  );

  const clearFinished = useCallback(() => {
    setUploads((list) => list.filter((u) => u.status === 'queued' || u.status === 'uploading'));
  }, []);

  return { uploads, add, cancel, clearFinished };
}
