import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';

// A small form for the portal's login page without react-hook-form and zod on the page's first load
// (about 38 KB on the wire): the shared schema is fetched with the first key or tap in the form (or
// the submit) and checks the values as react-hook-form's zodResolver did: on submit, then on every
// change once a submit has failed; the first field in error takes the focus; the handler gets the
// schema's output.

type TIssue = { path: PropertyKey[]; message: string };
type TSchema<T> = {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: TIssue[] } };
};

export function useLazySchemaForm<V extends Record<string, string>, T>(
  initial: V,
  loadSchema: () => Promise<TSchema<T>>,
) {
  type TKey = keyof V & string;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<TKey, string>>>({});
  const schema = useRef<TSchema<T> | null>(null);
  const submitted = useRef(false);
  const inputs = useRef<Partial<Record<TKey, HTMLInputElement | null>>>({});

  const load = async () => {
    schema.current ??= await loadSchema();
    return schema.current;
  };
  const check = (next: V, s: TSchema<T>) => {
    const result = s.safeParse(next);
    if (result.success) {
      setErrors({});
      return { data: result.data, first: undefined };
    }
    const found: Partial<Record<TKey, string>> = {};
    for (const issue of result.error.issues) {
      const key = issue.path[0] as TKey;
      if (typeof key === 'string' && key in next && !(key in found)) found[key] = issue.message;
    }
    setErrors(found);
    return { data: undefined, first: Object.keys(next).find((key) => key in found) as TKey | undefined };
  };

  return {
    values,
    errors,
    /** For the form's onPointerDownCapture / onKeyDownCapture: the schema is on its way before submit. */
    prefetch: () => void load().catch(() => undefined),
    register: (name: TKey) => ({
      name,
      value: values[name],
      ref: (element: HTMLInputElement | null) => {
        inputs.current[name] = element;
      },
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const next = { ...values, [name]: event.target.value };
        setValues(next);
        if (submitted.current && schema.current) check(next, schema.current);
      },
    }),
    handleSubmit: (onValid: (data: T) => void) => async (event: FormEvent) => {
      event.preventDefault();
      submitted.current = true;
      const { data, first } = check(values, await load());
      if (data !== undefined) onValid(data);
      else if (first) inputs.current[first]?.focus();
    },
    setError: (name: TKey, message: string) => setErrors((current) => ({ ...current, [name]: message })),
    clearErrors: () => setErrors({}),
    setValue: (name: TKey, value: string) => setValues((current) => ({ ...current, [name]: value })),
    setFocus: (name: TKey) => inputs.current[name]?.focus(),
  };
}
