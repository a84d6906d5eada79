import { and, eq, inArray } from 'drizzle-orm';
import { BILLING_MODE_LABELS } from '../../../domain/billing/constants';
import { escapeHtml } from '../../../domain/broadcasts';
import type { TFormatter } from '../../../domain/format';
import {
  fillProposalPlaceholders,
  type TProposalContent,
  type TProposalService,
} from '../../../domain/proposals';
import type { TExecutor } from '../../db/client';
import { services } from '../../db/schema';
import { sanitizeBody } from '../broadcasts';

// What the signer sees, made once on the server from the proposal's own copy: the staff preview,
// the signing page and the sealed PDF all show this, so "preview" is exactly what is sent.

export type TRenderedService = TProposalService & { name: string; feeText: string };
export type TRenderedProposal = {
  letterHtml: string;
  packages: { name: string; services: TRenderedService[] }[];
  addOns: TRenderedService[];
  terms: string;
};

export { sanitizeBody as sanitizeLetter };

/** The catalogue's names for the services a proposal names (only this firm's). */
export async function serviceNames(
  db: TExecutor,
  orgId: string,
  content: Pick<TProposalContent, 'packages' | 'addOns'>,
) {
  const ids = [
    ...new Set([...content.packages.flatMap((p) => p.services), ...content.addOns].map((s) => s.serviceId)),
  ];
  if (!ids.length) return new Map<string, string>();
  const rows = await db
    .select({ id: services.id, name: services.name })
    .from(services)
    .where(and(eq(services.orgId, orgId), inArray(services.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export function feeText(s: TProposalService, format: TFormatter): string {
  if (s.billingMode === 'fixed') return `${format.money(s.fee)} (${BILLING_MODE_LABELS.fixed.toLowerCase()})`;
  if (s.billingMode === 'hourly') return BILLING_MODE_LABELS.hourly;
  return 'Included, not billed';
}

export function renderProposal(
  content: TProposalContent,
  names: Map<string, string>,
  format: TFormatter,
  values: { clientName: string; signerName: string; firmName: string; today: string; expiresOn: string },
  /** Once chosen (the sealed PDF), the letter's lists name only what was agreed. */
  chosen?: { packageIndex: number; addOnIndexes: number[] },
): TRenderedProposal {
  const withNames = (s: TProposalService): TRenderedService => ({
    ...s,
    name: names.get(s.serviceId) ?? 'Service',
    feeText: feeText(s, format),
  });
  const packages = content.packages.map((p) => ({ name: p.name, services: p.services.map(withNames) }));
  const addOns = content.addOns.map(withNames);
  const list = (items: string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
  // Before a choice, each package's services under its name (when there are several to choose from).
  const offered = chosen
    ? [
        ...(packages[chosen.packageIndex]?.services ?? []).map((s) => ({ s, label: '' })),
        ...chosen.addOnIndexes.flatMap((i) => (addOns[i] ? [{ s: addOns[i], label: '' }] : [])),
      ]
    : packages.flatMap((p) =>
        p.services.map((s) => ({ s, label: packages.length > 1 ? `${p.name}: ` : '' })),
      );
  const servicesHtml = list(offered.map(({ s, label }) => escapeHtml(`${label}${s.name}`)));
  const feesHtml = list(offered.map(({ s, label }) => escapeHtml(`${label}${s.name}: ${s.feeText}`)));
  const letterHtml = fillProposalPlaceholders(
    content.letterHtml,
    {
      client_name: values.clientName,
      contact_name: values.signerName,
      firm_name: values.firmName,
      date: format.date(values.today),
      expiry_date: format.date(values.expiresOn),
    },
    escapeHtml,
    { services: servicesHtml, fees: feesHtml },
  );
  return { letterHtml, packages, addOns, terms: content.terms };
}
