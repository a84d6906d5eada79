import { MAX_SIGNERS } from '@domain/proposals';
import { useQuery } from '@tanstack/react-query';
import { Button, IconButton, Input, Select } from '@web/ui';
import { Plus, Trash2 } from 'lucide-react';
import { trpc } from '../../lib/trpc';

type TSigner = { name: string; email: string };
const PICK = '__pick__';

/**
 * Who signs, for a proposal's draft and a signature request alike: a row a signer (name and email,
 * or picked from the client's portal users and contact), at least one, at most MAX_SIGNERS.
 */
export function SignersEditor({
  clientId,
  signers,
  onChange,
  enabled = true,
}: {
  clientId: string;
  signers: TSigner[];
  onChange: (signers: TSigner[]) => void;
  /** False while the surrounding dialog is closed: the options are not asked for. */
  enabled?: boolean;
}) {
  const options = useQuery({ ...trpc.proposals.signerOptions.queryOptions({ clientId }), enabled });
  const choices = options.data ?? [];
  const setSigner = (i: number, v: TSigner) => onChange(signers.map((x, j) => (j === i ? v : x)));
  return (
    <section className="flex flex-col gap-2">
      <h3 className="font-medium">Signers</h3>
      {signers.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: unsaved rows have no identity but their place.
        <div key={`signer-${i}`} className="flex flex-col gap-2 rounded-md border border-border p-2">
          {choices.length > 0 && (
            <Select
              aria-label={`Signer ${i + 1}: choose a portal user or contact`}
              value={PICK}
              options={[
                { value: PICK, label: 'Choose a portal user or contact…' },
                ...choices.map((o) => ({
                  value: o.email,
                  label: `${o.name} <${o.email}>${o.portal ? ' (portal)' : ''}`,
                })),
              ]}
              onValueChange={(email) => {
                const o = choices.find((x) => x.email === email);
                if (o) setSigner(i, { name: o.name, email: o.email });
              }}
            />
          )}
          <div className="grid grid-cols-[1fr_1fr_auto] gap-2">
            <Input
              aria-label={`Signer ${i + 1} name`}
              placeholder="Name"
              value={s.name}
              onChange={(e) => setSigner(i, { ...s, name: e.target.value })}
            />
            <Input
              aria-label={`Signer ${i + 1} email`}
              placeholder="Email"
              type="email"
              value={s.email}
              onChange={(e) => setSigner(i, { ...s, email: e.target.value })}
            />
            <IconButton
              aria-label={`Remove signer ${i + 1}`}
              size="sm"
              disabled={signers.length === 1}
              onClick={() => onChange(signers.filter((_, j) => j !== i))}
            >
              <Trash2 />
            </IconButton>
          </div>
        </div>
      ))}
      {signers.length < MAX_SIGNERS && (
        <Button
          variant="ghost"
          size="sm"
          className="self-start"
          onClick={() => onChange([...signers, { name: '', email: '' }])}
        >
          <Plus aria-hidden /> Add a signer
        </Button>
      )}
    </section>
  );
}
