import { parseRate, rateText } from '@domain/rate-text';
import type { TAnswerValue } from '@domain/requests/answers';
import { YES_NO } from '@domain/requests/constants';
import { useMutation } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { Button, Input, Skeleton, Textarea, useFormat } from '@web/ui';
import { FileText, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { type AppRouter, trpc } from '../../lib/trpc';
import { clearAnswerDraft, readAnswerDraft, writeAnswerDraft } from './portal-answer-drafts';
import { RequestUploader } from './request-uploader';

// A date or an acknowledgement item's field comes with the first such item (the date picker and
// its popover are 30 KB): a request of files and typed answers opens without them.
const DatePicker = lazy(() => import('@web/ui/date-picker').then((m) => ({ default: m.DatePicker })));
const Checkbox = lazy(() => import('@web/ui/checkbox').then((m) => ({ default: m.Checkbox })));

export type TPortalItem = inferRouterOutputs<AppRouter>['clientPortalRequests']['get']['items'][number];

const SAVE_AFTER_MS = 600;

type TProps = {
  clientId: string;
  requestId: string;
  item: TPortalItem;
  value: TAnswerValue;
  editable: boolean;
  /** The answer as typed, for the screen's conditions and "7 of 12" before the save lands. */
  onValue: (value: TAnswerValue) => void;
  onChanged: () => void;
};

/**
 * One item of a request as the client answers it: the answer is saved as typed (a pause, leaving
 * the field or choosing saves it), files go up with their progress, "not applicable" takes a reason.
 */
export function PortalItem({ clientId, requestId, item, value, editable, onValue, onChanged }: TProps) {
  const format = useFormat();
  const ids = { clientId, requestId, itemId: item.id };
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle');
  const accepted = item.review === 'accepted';
  const canEdit = editable && !accepted && item.notApplicableReason === null;
  // An answer typed here earlier and never saved (the tab closed first): shown and saved now.
  const [restored] = useState(() => {
    if (!canEdit || item.kind === 'file') return undefined;
    const draft = readAnswerDraft(requestId, item.id);
    return draft !== undefined && JSON.stringify(draft) !== JSON.stringify(item.value) ? draft : undefined;
  });
  const [applied, setApplied] = useState(restored === undefined);
  const save = useMutation(
    trpc.clientPortalRequests.answer.mutationOptions({
      onMutate: () => setState('saving'),
      onSuccess: (_, sent) => {
        clearAnswerDraft(requestId, item.id, sent.value);
        setState('saved');
        onChanged();
      },
      onError: () => setState('idle'),
    }),
  );
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<{ value: TAnswerValue } | null>(null);
  const saveNow = (next: TAnswerValue) => {
    clearTimeout(timer.current);
    pending.current = null;
    save.mutate({ ...ids, value: next });
  };
  const saveSoon = (next: TAnswerValue) => {
    clearTimeout(timer.current);
    pending.current = { value: next };
    timer.current = setTimeout(() => saveNow(next), SAVE_AFTER_MS);
  };
  const change = (next: TAnswerValue, now: boolean) => {
    writeAnswerDraft(requestId, item.id, next);
    onValue(next);
    if (now) saveNow(next);
    else saveSoon(next);
  };
  // Leaving the page (or the app going to the background) saves what waits for the pause.
  const flush = useRef(() => {});
  flush.current = () => {
    if (pending.current) saveNow(pending.current.value);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount, with the draft read then
  useEffect(() => {
    if (restored !== undefined) {
      onValue(restored);
      saveNow(restored);
      setApplied(true);
    }
    const onHide = () => flush.current();
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      // Moving to another item ("one at a time") saves the answer in hand too.
      flush.current();
      clearTimeout(timer.current);
    };
  }, []);
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const described = item.hint ? hintId : undefined;

  return (
    <section
      aria-labelledby={`${inputId}-label`}
      className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-4"
      data-testid={`item-${item.key}`}
    >
      <div className="flex flex-col gap-1">
        <h3 id={`${inputId}-label`} className="font-medium">
          <label
            htmlFor={
              item.kind === 'file' || item.kind === 'yes_no' || item.kind === 'choice' ? undefined : inputId
            }
          >
            {item.label}
          </label>
          {item.required ? (
            <span className="ml-1 text-xs font-normal text-muted-fg">(required)</span>
          ) : (
            <span className="ml-1 text-xs font-normal text-muted-fg">(optional)</span>
          )}
        </h3>
        {item.hint ? (
          <p id={hintId} className="text-sm text-muted-fg">
            {item.hint}
          </p>
        ) : null}
        {item.review === 'returned' ? (
          <p role="alert" className="rounded-md bg-danger/10 px-2 py-1 text-sm text-danger">
            To fix: {item.returnReason}
          </p>
        ) : null}
        {accepted ? (
          <p className="text-sm text-emerald-700 dark:text-emerald-300">Accepted by the firm</p>
        ) : null}
      </div>

      {item.notApplicableReason !== null ? (
        <p className="text-sm">
          Not applicable: <span className="text-muted-fg">{item.notApplicableReason}</span>
        </p>
      ) : (
        <Answer
          id={inputId}
          described={described}
          item={item}
          value={applied ? value : (restored ?? value)}
          disabled={!canEdit}
          digits={format.currencyDigits}
          onChange={change}
        />
      )}

      {item.kind === 'file' ? (
        <FileList
          ids={ids}
          files={item.files}
          removable={canEdit}
          onChanged={onChanged}
          bytes={format.bytes}
        />
      ) : null}
      {item.kind === 'file' && canEdit ? (
        <RequestUploader
          target={ids}
          label={item.files.length ? 'Add more files' : 'Upload files'}
          onUploaded={onChanged}
        />
      ) : null}

      <div className="flex flex-wrap items-center justify-between gap-2">
        {editable && !accepted ? (
          <NotApplicable ids={ids} reason={item.notApplicableReason} onChanged={onChanged} />
        ) : (
          <span />
        )}
        <span aria-live="polite" className="text-xs text-muted-fg">
          {state === 'saving' ? 'Saving…' : state === 'saved' ? 'Saved' : ''}
        </span>
      </div>
    </section>
  );
}

function Answer({
  id,
  described,
  item,
  value,
  disabled,
  digits,
  onChange,
}: {
  id: string;
  described: string | undefined;
  item: TPortalItem;
  value: TAnswerValue;
  disabled: boolean;
  digits: number;
  onChange: (value: TAnswerValue, now: boolean) => void;
}) {
  const [amountText, setAmountText] = useState(() =>
    typeof value === 'number' ? rateText(value, digits) : '',
  );
  const [amountError, setAmountError] = useState<string | null>(null);
  const common = { id, disabled, 'aria-describedby': described };
  switch (item.kind) {
    case 'file':
      return null;
    case 'short_text':
    case 'number':
      return (
        <Input
          {...common}
          inputMode={item.kind === 'number' ? 'decimal' : undefined}
          defaultValue={value === null ? '' : String(value)}
          onChange={(e) => {
            const text = e.target.value;
            if (item.kind === 'short_text') return onChange(text, false);
            const n = text.trim() === '' ? null : Number(text.replace(',', '.'));
            if (n === null || Number.isFinite(n)) onChange(n, false);
          }}
          onBlur={(e) => {
            if (item.kind === 'short_text') onChange(e.target.value, true);
          }}
        />
      );
    case 'long_text':
      return (
        <Textarea
          {...common}
          rows={4}
          defaultValue={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value, false)}
          onBlur={(e) => onChange(e.target.value, true)}
        />
      );
    case 'amount':
      return (
        <div className="flex flex-col gap-1">
          <Input
            {...common}
            inputMode="decimal"
            value={amountText}
            aria-invalid={amountError ? true : undefined}
            onChange={(e) => {
              setAmountText(e.target.value);
              const parsed = parseRate(e.target.value, digits);
              if ('error' in parsed) return setAmountError(parsed.error);
              setAmountError(null);
              onChange(parsed.rate, false);
            }}
          />
          {amountError ? <p className="text-sm text-danger">{amountError}</p> : null}
        </div>
      );
    case 'date':
      return (
        <Suspense fallback={<Skeleton className="h-10 w-full" />}>
          <DatePicker
            {...common}
            value={typeof value === 'string' ? (value as never) : null}
            onChange={(next) => onChange(next, true)}
          />
        </Suspense>
      );
    case 'acknowledgement':
      return (
        <Suspense fallback={<Skeleton className="h-6 w-32" />}>
          <Checkbox
            id={id}
            disabled={disabled}
            checked={value === true}
            onCheckedChange={(checked) => onChange(checked === true ? true : null, true)}
            label="I confirm"
          />
        </Suspense>
      );
    case 'yes_no':
    case 'choice': {
      const options =
        item.kind === 'yes_no'
          ? YES_NO.map((v) => ({ value: v, label: v === 'yes' ? 'Yes' : 'No' }))
          : item.options.map((o) => ({ value: o, label: o }));
      return (
        <fieldset className="flex flex-wrap gap-2" disabled={disabled} aria-describedby={described}>
          <legend className="sr-only">{item.label}</legend>
          {options.map((o) => (
            <label
              key={o.value}
              className="flex min-h-10 cursor-pointer items-center gap-2 rounded-md border border-border px-3 has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
            >
              <input
                type="radio"
                name={id}
                value={o.value}
                checked={value === o.value}
                onChange={() => onChange(o.value, true)}
                className="accent-[var(--color-primary)]"
              />
              {o.label}
            </label>
          ))}
        </fieldset>
      );
    }
  }
}

function FileList({
  ids,
  files,
  removable,
  onChanged,
  bytes,
}: {
  ids: { clientId: string; requestId: string; itemId: string };
  files: TPortalItem['files'];
  removable: boolean;
  onChanged: () => void;
  bytes: (n: number) => string;
}) {
  const remove = useMutation(trpc.clientPortalRequests.removeFile.mutationOptions({ onSuccess: onChanged }));
  if (!files.length) return null;
  return (
    <ul className="flex flex-col gap-1" aria-label="Files uploaded">
      {files.map((f) => (
        <li key={f.id} className="flex items-center gap-2 text-sm">
          <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-fg" />
          <span className="min-w-0 flex-1 break-all">{f.name}</span>
          <span className="shrink-0 text-xs text-muted-fg">{bytes(f.size)}</span>
          {removable ? (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              aria-label={`Remove ${f.name}`}
              loading={remove.isPending && remove.variables?.fileId === f.id}
              onClick={() => remove.mutate({ ...ids, fileId: f.id })}
            >
              <X aria-hidden="true" />
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function NotApplicable({
  ids,
  reason,
  onChanged,
}: {
  ids: { clientId: string; requestId: string; itemId: string };
  reason: string | null;
  onChanged: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const reasonId = useId();
  const set = useMutation(
    trpc.clientPortalRequests.notApplicable.mutationOptions({
      onSuccess: () => {
        setOpen(false);
        onChanged();
      },
    }),
  );
  if (reason !== null)
    return (
      <Button type="button" variant="ghost" size="sm" onClick={() => set.mutate({ ...ids, reason: null })}>
        Answer it after all
      </Button>
    );
  if (!open)
    return (
      <Button type="button" variant="ghost" size="sm" onClick={() => setOpen(true)}>
        Not applicable
      </Button>
    );
  return (
    <form
      className="flex w-full flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) set.mutate({ ...ids, reason: text.trim() });
      }}
    >
      <label htmlFor={reasonId} className="text-sm font-medium">
        Why does this not apply?
      </label>
      <Textarea id={reasonId} rows={2} value={text} onChange={(e) => setText(e.target.value)} autoFocus />
      <div className="flex gap-2">
        <Button type="submit" size="sm" loading={set.isPending} disabled={!text.trim()}>
          Mark not applicable
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
