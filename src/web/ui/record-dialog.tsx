import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { Button } from './button';
import { confirm } from './confirm-dialog';
import { Dialog, DialogClose, DialogContent } from './dialog';
import { Drawer, DrawerClose, DrawerContent } from './drawer';

// One record's create and edit, as one dialog (or drawer) bound to the zod schema the server checks.
// It owns what every record form repeated: starting from the record's values each time it opens,
// the Cancel and submit buttons, the server's refusals on their fields, and asking before closing
// over changes that were not saved.

export type TRecordForm<TIn extends FieldValues, TOut> = UseFormReturn<TIn, unknown, TOut>;

export type RecordDialogProps<TIn extends FieldValues, TOut, TResult> = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  schema: z.ZodType<TOut, TIn>;
  /** What the form starts from each time it opens: the record's values, or a new record's. */
  values: TIn;
  /** Sends the values (a mutation's `mutateAsync`). A refusal keeps the dialog open with its field errors. */
  submit: (values: TOut) => Promise<TResult>;
  /** After a save, the dialog closed: the toast, the refresh, the next page. */
  onSaved?: (result: TResult, values: TOut) => unknown;
  title: ReactNode;
  description?: ReactNode;
  submitLabel: string;
  /** A drawer keeps the list behind in view (a long form); a dialog otherwise. */
  as?: 'dialog' | 'drawer';
  size?: 'sm' | 'md' | 'lg';
  /** The fields, given the form: `form.register`, `form.control`, `form.formState.errors`. */
  children: (form: TRecordForm<TIn, TOut>) => ReactNode;
};

export const DISCARD_CHANGES = {
  title: 'Discard changes?',
  message: 'What you changed in this form has not been saved.',
  confirmLabel: 'Discard',
  cancelLabel: 'Keep editing',
  danger: true,
} as const;

/**
 * The server's refusals by field (`data.fieldErrors`, keyed by the input's path: see
 * src/server/trpc/field-errors.ts), first message each; none for any other error.
 */
export function serverFieldErrors(error: unknown): Record<string, string> {
  const data = (error as { data?: { fieldErrors?: unknown } } | null)?.data;
  const fields = data?.fieldErrors;
  if (!fields || typeof fields !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [field, messages] of Object.entries(fields)) {
    const first = Array.isArray(messages) ? messages[0] : undefined;
    if (typeof first === 'string') out[field] = first;
  }
  return out;
}

/**
 * Closing by Cancel, the close button, Escape or a click outside asks first when the form has
 * changes; a save closes it at once. The form mounts on opening, so each opening starts afresh.
 */
export function RecordDialog<TIn extends FieldValues, TOut, TResult>(
  props: RecordDialogProps<TIn, TOut, TResult>,
) {
  const dirty = useRef(false);
  const { open, onOpenChange } = props;
  const Root = props.as === 'drawer' ? Drawer : Dialog;
  const requestClose = async () => {
    if (dirty.current && !(await confirm(DISCARD_CHANGES))) return;
    onOpenChange(false);
  };
  return (
    <Root open={open} onOpenChange={(next) => (next ? onOpenChange(true) : void requestClose())}>
      {open ? <RecordForm {...props} dirty={dirty} /> : null}
    </Root>
  );
}

function RecordForm<TIn extends FieldValues, TOut, TResult>({
  dirty,
  ...props
}: RecordDialogProps<TIn, TOut, TResult> & { dirty: { current: boolean } }) {
  const id = useId();
  const form = useForm<TIn, unknown, TOut>({
    resolver: zodResolver(props.schema),
    defaultValues: props.values as DefaultValues<TIn>,
  });
  const { isDirty, isSubmitting } = form.formState;
  useEffect(() => {
    dirty.current = isDirty;
    return () => {
      dirty.current = false;
    };
  }, [dirty, isDirty]);

  const save = async (values: TOut) => {
    let result: TResult;
    try {
      result = await props.submit(values);
    } catch (error) {
      // The toast has said it (lib/trpc.ts); the field it concerns says it too, and takes focus.
      Object.entries(serverFieldErrors(error)).forEach(([field, message], i) => {
        form.setError(field as Path<TIn>, { type: 'server', message }, { shouldFocus: i === 0 });
      });
      return;
    }
    dirty.current = false;
    props.onOpenChange(false);
    await props.onSaved?.(result, values);
  };

  const Content = props.as === 'drawer' ? DrawerContent : DialogContent;
  const Close = props.as === 'drawer' ? DrawerClose : DialogClose;
  return (
    <Content
      title={props.title}
      description={props.description}
      size={props.size}
      footer={
        <>
          <Close asChild>
            <Button variant="outline">Cancel</Button>
          </Close>
          <Button type="submit" form={id} loading={isSubmitting}>
            {props.submitLabel}
          </Button>
        </>
      }
    >
      <form id={id} noValidate className="flex flex-col gap-4" onSubmit={form.handleSubmit(save)}>
        {props.children(form)}
      </form>
    </Content>
  );
}
