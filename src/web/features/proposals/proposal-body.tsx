import { Checkbox } from '@web/ui';

type TService = { name: string; feeText: string; description: string };
export type TRendered = {
  letterHtml: string;
  packages: { name: string; services: TService[] }[];
  addOns: TService[];
  terms: string;
};

/**
 * What the signer sees, and the staff preview shows the same: the letter (HTML sanitised on the
 * server when saved, placeholders escaped when filled), the packages, the add-ons, the terms.
 */
export function ProposalBody({
  rendered,
  chosen,
  locked,
  onPackage,
  onAddOns,
}: {
  rendered: TRendered;
  chosen?: { packageIndex: number; addOnIndexes: number[] };
  locked?: boolean;
  onPackage?: (i: number) => void;
  onAddOns?: (i: number[]) => void;
}) {
  const picked = chosen ?? { packageIndex: 0, addOnIndexes: [] };
  return (
    <div className="flex flex-col gap-4">
      <article
        className="prose-sm max-w-none rounded-md border border-border p-3 text-sm [&_li]:ml-5 [&_li]:list-disc [&_p]:mb-2"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (sanitize-html) and filled with escaped values.
        dangerouslySetInnerHTML={{ __html: rendered.letterHtml }}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-semibold">
          {rendered.packages.length > 1 ? 'Choose a package' : 'Services'}
        </legend>
        {rendered.packages.map((p, i) => (
          <label
            key={p.name}
            className={`flex cursor-pointer gap-3 rounded-md border p-3 text-sm ${picked.packageIndex === i ? 'border-primary bg-primary/5' : 'border-border'}`}
          >
            <input
              type="radio"
              name="package"
              className="mt-1"
              checked={picked.packageIndex === i}
              disabled={locked}
              onChange={() => onPackage?.(i)}
            />
            <span className="flex flex-col gap-1">
              <span className="font-medium">{p.name}</span>
              {p.services.map((s) => (
                <span key={`${s.name}-${s.feeText}`} className="text-muted-fg">
                  {s.name}: {s.feeText}
                  {s.description ? ` — ${s.description}` : ''}
                </span>
              ))}
            </span>
          </label>
        ))}
      </fieldset>
      {rendered.addOns.length > 0 && (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 font-semibold">Optional add-ons</legend>
          {rendered.addOns.map((s, i) => (
            <Checkbox
              key={`${s.name}-${s.feeText}`}
              disabled={locked}
              checked={picked.addOnIndexes.includes(i)}
              onCheckedChange={(c) =>
                onAddOns?.(
                  c === true
                    ? [...picked.addOnIndexes, i].sort()
                    : picked.addOnIndexes.filter((x) => x !== i),
                )
              }
              label={
                <span className="text-sm">
                  {s.name}: {s.feeText}
                  {s.description ? ` — ${s.description}` : ''}
                </span>
              }
            />
          ))}
        </fieldset>
      )}
      {rendered.terms.trim() && (
        <section className="text-sm">
          <h2 className="mb-1 font-semibold">Terms</h2>
          <p className="whitespace-pre-wrap text-muted-fg">{rendered.terms}</p>
        </section>
      )}
    </div>
  );
}
