import {
  type CLIENT_STATUSES,
  CLIENT_TYPE_LABELS,
  CLIENT_TYPES,
  type TClientCreate,
  ZClientCreate,
} from '@domain/clients';
import { taxIdKinds } from '@domain/settings';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  Button,
  Checkbox,
  DrawerClose,
  DrawerContent,
  Drawer as DrawerRoot,
  Field,
  IconButton,
  Input,
  Select,
  Textarea,
  toast,
} from '@web/ui';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Controller, type FieldErrors, type Resolver, useFieldArray, useForm } from 'react-hook-form';
import { trpc } from '../../lib/trpc';
import { useCan } from '../shell/access';
import { type TClientDetail, useClientsRefresh } from './use-clients';

/** What the form edits: text boxes for the numbers and the tags, turned into the schema's input on submit. */
type TClientForm = {
  code: string;
  name: string;
  type: (typeof CLIENT_TYPES)[number];
  groupId: string;
  email: string;
  phone: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  lat: string;
  lng: string;
  taxIds: { kind: string; value: string }[];
  tags: string;
  status: (typeof CLIENT_STATUSES)[number];
  notes: string;
  /** New client only: not yet engaged (proposals turn a prospect into a client). */
  prospect: boolean;
  /** New client only: the members put on its team. */
  teamMemberIds: string[];
};

const NO_GROUP = 'none';

function formOf(client?: TClientDetail): TClientForm {
  return {
    code: client?.code ?? '',
    name: client?.name ?? '',
    type: client?.type ?? 'individual',
    groupId: client?.groupId ?? NO_GROUP,
    email: client?.email ?? '',
    phone: client?.phone ?? '',
    addressLine1: client?.addressLine1 ?? '',
    addressLine2: client?.addressLine2 ?? '',
    city: client?.city ?? '',
    region: client?.region ?? '',
    postalCode: client?.postalCode ?? '',
    country: client?.country ?? '',
    lat: client?.location ? String(client.location.lat) : '',
    lng: client?.location ? String(client.location.lng) : '',
    taxIds: client?.taxIds ?? [],
    tags: client?.tags.join(', ') ?? '',
    status: client?.status ?? 'active',
    notes: client?.notes ?? '',
    prospect: false,
    teamMemberIds: [],
  };
}

function setPath(target: Record<string, unknown>, path: (string | number)[], message: string) {
  let node = target;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      if (!node[key]) node[key] = { type: 'validate', message };
      return;
    }
    node[key] ??= typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string, unknown>;
  });
}

/** Validates with the server's own schema (ZClientCreate), placing each message beside its box. */
const clientResolver: Resolver<TClientForm, unknown, TClientCreate> = async (values) => {
  const errors: Record<string, unknown> = {};
  const lat = values.lat.trim();
  const lng = values.lng.trim();
  let location: { lat: number; lng: number } | null = null;
  if (lat || lng) {
    if (!lat) setPath(errors, ['lat'], 'Enter the latitude too');
    if (!lng) setPath(errors, ['lng'], 'Enter the longitude too');
    if (lat && !Number.isFinite(Number(lat)))
      setPath(errors, ['lat'], 'Enter the latitude as a number, e.g. 19.076');
    if (lng && !Number.isFinite(Number(lng)))
      setPath(errors, ['lng'], 'Enter the longitude as a number, e.g. 72.8777');
    location = { lat: Number(lat), lng: Number(lng) };
  }
  const parsed = ZClientCreate.safeParse({
    ...values,
    groupId: values.groupId === NO_GROUP ? null : values.groupId,
    location: Object.keys(errors).length ? null : location,
    tags: values.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      const head = path[0];
      if (head === 'location') setPath(errors, [path[1] ?? 'lat'], issue.message);
      else if (head === 'tags') setPath(errors, ['tags'], issue.message);
      else if (head === 'teamMemberIds') setPath(errors, ['teamMemberIds'], issue.message);
      else setPath(errors, path.length ? path : ['name'], issue.message);
    }
  }
  if (Object.keys(errors).length || !parsed.success) {
    return { values: {}, errors: errors as FieldErrors<TClientForm> };
  }
  return { values: parsed.data, errors: {} };
};

/** "New client" and "Edit client": one drawer, the server's schema checks both. */
export function ClientFormDrawer({
  open,
  onOpenChange,
  client,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  client?: TClientDetail;
}) {
  const refresh = useClientsRefresh();
  const navigate = useNavigate();
  const options = useQuery({ ...trpc.clients.options.queryOptions(), enabled: open });
  // Choosing the team is an edit of the client, as on its Team tab.
  const canChooseTeam = useCan('clients.edit') && !client;
  const form = useForm<TClientForm, unknown, TClientCreate>({
    resolver: clientResolver,
    defaultValues: formOf(client),
  });
  // A new client's code: the server proposes the next one (as an import would number it), the box
  // stays editable and the server checks uniqueness on create. A proposal the person has not changed
  // is replaced by a fresher one (the drawer opened again after another client took it).
  const nextCode = useQuery({ ...trpc.clients.nextCode.queryOptions(), enabled: open && !client });
  const proposed = nextCode.data?.code;
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (!open || client || !proposed) return;
    const current = form.getValues('code');
    if (current && current !== applied.current) return;
    applied.current = proposed;
    form.setValue('code', proposed);
  }, [open, client, proposed, form]);
  const taxIds = useFieldArray({ control: form.control, name: 'taxIds' });
  const done = async () => {
    onOpenChange(false);
    await refresh();
  };
  const create = useMutation(
    trpc.clients.create.mutationOptions({
      onSuccess: async (created) => {
        toast.success(`Client ${created.name} created`);
        form.reset(formOf());
        await done();
        await navigate({ to: '/clients/$id', params: { id: created.id } });
      },
    }),
  );
  const update = useMutation(
    trpc.clients.update.mutationOptions({
      onSuccess: async () => {
        toast.success('Client saved');
        await done();
      },
    }),
  );
  const errors = form.formState.errors;
  const country = form.watch('country').trim().toUpperCase();
  const kinds = taxIdKinds(country);
  // An edit never sends the prospect flag: the server keeps what the client is.
  const submit = form.handleSubmit(({ teamMemberIds, prospect, ...data }) =>
    client
      ? update.mutate({ clientId: client.id, data })
      : create.mutate({ ...data, prospect: prospect ?? false, teamMemberIds }),
  );
  const text = (
    name: keyof TClientForm,
    label: string,
    props: { required?: boolean; hint?: string; type?: string } = {},
  ) => (
    <Field
      label={label}
      error={(errors[name] as { message?: string } | undefined)?.message}
      required={props.required}
      hint={props.hint}
    >
      <Input type={props.type ?? 'text'} autoComplete="off" {...form.register(name)} />
    </Field>
  );
  return (
    <DrawerRoot
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset(formOf(client));
        onOpenChange(next);
      }}
    >
      <DrawerContent
        size="lg"
        title={client ? `Edit ${client.name}` : 'New client'}
        description={client ? undefined : 'The code is how the firm refers to the client; it must be unique.'}
        footer={
          <>
            <DrawerClose asChild>
              <Button variant="outline">Cancel</Button>
            </DrawerClose>
            <Button type="submit" form="client-form" loading={create.isPending || update.isPending}>
              {client ? 'Save' : 'Create client'}
            </Button>
          </>
        }
      >
        <form id="client-form" noValidate onSubmit={submit} className="flex flex-col gap-5">
          <section className="grid gap-4 sm:grid-cols-2">
            {text('code', 'Code', {
              required: true,
              hint: client
                ? 'Letters, digits, - and _; up to 20'
                : 'The next code after the firm’s highest is proposed; letters, digits, - and _; up to 20',
            })}
            {text('name', 'Name', { required: true })}
            <Field label="Type" error={errors.type?.message} required>
              <Controller
                control={form.control}
                name="type"
                render={({ field }) => (
                  <Select
                    {...field}
                    onValueChange={field.onChange}
                    options={CLIENT_TYPES.map((t) => ({ value: t, label: CLIENT_TYPE_LABELS[t] }))}
                  />
                )}
              />
            </Field>
            <Field label="Group" error={errors.groupId?.message}>
              <Controller
                control={form.control}
                name="groupId"
                render={({ field }) => (
                  <Select
                    {...field}
                    onValueChange={field.onChange}
                    options={[
                      { value: NO_GROUP, label: 'No group' },
                      ...(options.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name })),
                    ]}
                  />
                )}
              />
            </Field>
            {text('email', 'Email', { type: 'email' })}
            {text('phone', 'Phone', { type: 'tel' })}
            <Field label="Status" error={errors.status?.message}>
              <Controller
                control={form.control}
                name="status"
                render={({ field }) => (
                  <Select
                    {...field}
                    onValueChange={field.onChange}
                    options={[
                      { value: 'active', label: 'Active' },
                      { value: 'inactive', label: 'Inactive' },
                    ]}
                  />
                )}
              />
            </Field>
            {text('tags', 'Tags', { hint: 'Separate tags with commas' })}
            {!client ? (
              <Controller
                control={form.control}
                name="prospect"
                render={({ field }) => (
                  <Checkbox
                    checked={field.value}
                    onCheckedChange={(c) => field.onChange(c === true)}
                    label="Prospect: not yet engaged (kept out of the client list until a proposal is accepted)"
                  />
                )}
              />
            ) : null}
          </section>
          {canChooseTeam ? (
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-semibold">Team</legend>
              <p className="text-sm text-muted-fg">
                Who works for this client; their responsibilities are set on the client’s Team tab.
              </p>
              <Controller
                control={form.control}
                name="teamMemberIds"
                render={({ field }) => (
                  <ul aria-label="Team" className="grid max-h-48 gap-2 overflow-y-auto py-1 sm:grid-cols-2">
                    {(options.data?.members ?? []).map((m) => (
                      <li key={m.id}>
                        <Checkbox
                          label={m.name}
                          checked={field.value.includes(m.id)}
                          onCheckedChange={(on) =>
                            field.onChange(
                              on === true ? [...field.value, m.id] : field.value.filter((id) => id !== m.id),
                            )
                          }
                        />
                      </li>
                    ))}
                  </ul>
                )}
              />
              {errors.teamMemberIds?.message ? (
                <p className="text-xs text-danger">{errors.teamMemberIds.message}</p>
              ) : null}
            </fieldset>
          ) : null}
          <section className="grid gap-4 sm:grid-cols-2">
            <h3 className="text-sm font-semibold sm:col-span-2">Address</h3>
            {text('addressLine1', 'Address line 1')}
            {text('addressLine2', 'Address line 2')}
            {text('city', 'City')}
            {text('region', 'Region or state')}
            {text('postalCode', 'Postal code')}
            {text('country', 'Country', { hint: 'Two-letter code, e.g. IN' })}
            {text('lat', 'Latitude', { hint: 'For the “Open in maps” link' })}
            {text('lng', 'Longitude')}
          </section>
          <section className="flex flex-col gap-3">
            <div className="flex items-center justify-between">
              <h3 className="text-sm font-semibold">Tax identifiers</h3>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => taxIds.append({ kind: kinds?.[0] ?? '', value: '' })}
              >
                <Plus aria-hidden />
                Add identifier
              </Button>
            </div>
            {taxIds.fields.length === 0 ? <p className="text-sm text-muted-fg">None yet.</p> : null}
            {taxIds.fields.map((row, index) => (
              <div key={row.id} className="flex items-start gap-2">
                <Field label="Kind" error={errors.taxIds?.[index]?.kind?.message} className="w-40">
                  {kinds ? (
                    <Controller
                      control={form.control}
                      name={`taxIds.${index}.kind`}
                      render={({ field }) => (
                        <Select
                          {...field}
                          onValueChange={field.onChange}
                          options={kinds.map((k) => ({ value: k, label: k }))}
                        />
                      )}
                    />
                  ) : (
                    <Input {...form.register(`taxIds.${index}.kind`)} />
                  )}
                </Field>
                <Field label="Identifier" error={errors.taxIds?.[index]?.value?.message} className="flex-1">
                  <Input {...form.register(`taxIds.${index}.value`)} />
                </Field>
                <IconButton
                  type="button"
                  aria-label={`Remove identifier ${index + 1}`}
                  className="mt-6"
                  onClick={() => taxIds.remove(index)}
                >
                  <Trash2 />
                </IconButton>
              </div>
            ))}
          </section>
          <Field label="Notes" error={errors.notes?.message}>
            <Textarea rows={4} {...form.register('notes')} />
          </Field>
        </form>
      </DrawerContent>
    </DrawerRoot>
  );
}
