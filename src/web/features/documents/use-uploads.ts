import { DOCUMENT_UPLOAD_PATH } from '@domain/document-paths';
import { useFormat } from '@web/ui';
import { useCallback, useEffect, useRef, useState } from 'react';
import { staffAuthHeaders } from '../../lib/auth';

export type TUpload = {
  id: string;
  name: string;
  size: number;
  loaded: number;
  status: 'queued' | 'uploading' | 'reconnecting' | 'done' | 'failed' | 'cancelled';
  message?: string;
  /** A failure of the connection, not of the file: "Retry" sends it again. */
  retryable?: boolean;
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
 * Tries of one file before it waits for a "Retry": a phone that loses its signal mid-upload starts
 * the file again by itself when the connection is back (the upload routes take a file in one
 * request, so a file starts over; what had arrived of it was removed by the server).
 */
const ATTEMPTS = 4;
/** The wait before the next try when the browser still says it is online (the connection dropped). */
const BACKOFF_MS = [1_000, 4_000, 10_000];
/** Answers that say the way to the server failed, not the file: worth the same file again. */
const TRANSIENT = new Set([0, 502, 503, 504]);
export const CONNECTION_LOST = 'The connection was lost: the upload starts again when it is back.';
export const CONNECTION_FAILED = 'The connection was lost. Retry when you are back online.';

type TJob = { id: string; file: File; target: TUploadTarget; attempts: number };
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
  const queue = useRef<TJob[]>([]);
  // Files waiting for the connection to come back (or for "Retry"), with their pending timers.
  const parked = useRef(new Map<string, { job: TJob; timer?: ReturnType<typeof setTimeout> }>());
  const running = useRef(0);
  // The pump parks a file that `resume` (defined after it) sends again.
  const resumeRef = useRef<(id: string) => void>(() => {});
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
      job.attempts += 1;
      const finish = () => {
        running.current -= 1;
        requests.current.delete(job.id);
        pump();
      };
      const lost = () => {
        if (job.attempts >= ATTEMPTS) {
          parked.current.set(job.id, { job });
          patch(job.id, { status: 'failed', message: CONNECTION_FAILED, retryable: true });
          return;
        }
        patch(job.id, { status: 'reconnecting', loaded: 0, message: CONNECTION_LOST });
        // Offline: the "online" listener below sends it; online: after a pause that grows.
        const timer = navigator.onLine
          ? setTimeout(() => resumeRef.current(job.id), BACKOFF_MS[job.attempts - 1] ?? 10_000)
          : undefined;
        parked.current.set(job.id, { job, timer });
      };
      void (async () => {
        const xhr = new XMLHttpRequest();
        requests.current.set(job.id, xhr);
        xhr.open('POST', urlOf(job.target));
        for (const [key, value] of Object.entries(await headersOf())) xhr.setRequestHeader(key, value);
        xhr.upload.onprogress = (event) => patch(job.id, { loaded: event.loaded });
        xhr.onload = () => {
          if (xhr.status >= 200 && xhr.status < 300) {
            patch(job.id, { status: 'done', loaded: job.file.size, message: undefined });
            onUploaded();
          } else if (TRANSIENT.has(xhr.status)) {
            lost();
          } else {
            let message = 'The upload failed. Please try again.';
            try {
              message = (JSON.parse(xhr.responseText) as { message?: string }).message ?? message;
            } catch {
              // not JSON: keep the general message
            }
            patch(job.id, { status: 'failed', message, retryable: false });
          }
          finish();
        };
        xhr.onerror = () => {
          lost();
          finish();
        };
        xhr.onabort = () => {
          patch(job.id, { status: 'cancelled', message: undefined });
          finish();
        };
        const form = new FormData();
        form.append('file', job.file, job.file.name);
        patch(job.id, { status: 'uploading', loaded: 0 });
        xhr.send(form);
      })();
    }
  }, [patch, onUploaded, urlOf, headersOf]);

  /** A parked file goes back to the front of the queue (a "Retry", a timer, the connection back). */
  const resume = useCallback(
    (id: string, again = false) => {
      const entry = parked.current.get(id);
      if (!entry) return;
      clearTimeout(entry.timer);
      parked.current.delete(id);
      if (again) entry.job.attempts = 0;
      patch(id, { status: 'queued', message: undefined, retryable: undefined });
      queue.current.unshift(entry.job);
      pump();
    },
    [patch, pump],
  );
  resumeRef.current = resume;

  useEffect(() => {
    const online = () => {
      for (const [id, entry] of parked.current) if (entry.job.attempts < ATTEMPTS) resume(id);
    };
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [resume]);

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
        if (!tooBig) queue.current.push({ id, file, target, attempts: 0 });
      }
      setUploads((list) => [...list, ...added]);
      pump();
    },
    [options.maxBytes, pump, bytes],
  );

  const cancel = useCallback(
    (id: string) => {
      const entry = parked.current.get(id);
      if (entry) {
        clearTimeout(entry.timer);
        parked.current.delete(id);
        patch(id, { status: 'cancelled', message: undefined, retryable: undefined });
        return;
      }
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
    setUploads((list) => {
      const kept = list.filter((u) => isActive(u.status));
      for (const id of parked.current.keys()) if (!kept.some((u) => u.id === id)) parked.current.delete(id);
      return kept;
    });
  }, []);

  const retry = useCallback((id: string) => resume(id, true), [resume]);

  return { uploads, add, cancel, retry, clearFinished };
}

/** Still on its way: shows a cancel, and is kept by "Clear finished". */
export function isActive(status: TUpload['status']): boolean {
  return status === 'queued' || status === 'uploading' || status === 'reconnecting';
}
