import { clientCodeSequence, type TClientType } from '../../src/domain/clients';
import { gstinCheckCharacter } from '../../src/domain/statutory/identifiers';
import { FIRM_WORDS, FIRST, LAST } from '../generate-clients';
import { rng } from '../generate-util';
import type { TDemoPerson } from './people';
import type { TPersonSession } from './session';

// The firm's book, entered as the firm enters it: client groups, then each client on the New client
// form with the code it proposes (the product's sequence, C00001 on) and the team chosen there.

export type TDemoClient = {
  id: string;
  code: string;
  name: string;
  type: TClientType;
  email: string | null;
  groupId: string | null;
  /** The staff member preparing its work and the manager reviewing it (its team). */
  preparer: TDemoPerson;
  reviewer: TDemoPerson;
};

type TPlan = { name: string; type: TClientType; group: number | null };

const TYPES: Array<[TClientType, number]> = [
  ['individual', 34],
  ['proprietor', 15],
  ['partnership', 10],
  ['llp', 8],
  ['company', 21],
  ['trust', 4],
  ['huf', 8],
];
const SUFFIX: Partial<Record<TClientType, string[]>> = {
  company: ['Pvt Ltd', 'Private Limited', 'Ltd'],
  llp: ['LLP'],
  partnership: ['& Co', 'and Associates', 'Brothers'],
  proprietor: ['Enterprises', 'Traders', 'Agencies'],
  trust: ['Charitable Trust', 'Education Trust'],
};
const CITIES = ['Mumbai', 'Mumbai', 'Mumbai', 'Thane', 'Navi Mumbai', 'Pune', 'Nashik'];
const TAGS = ['gst', 'nri', 'priority', 'startup', 'retainer'];
// The fourth letter of a PAN says who holds it.
const PAN_HOLDER: Record<TClientType, string> = {
  individual: 'P',
  proprietor: 'P',
  partnership: 'F',
  llp: 'F',
  company: 'C',
  trust: 'T',
  huf: 'H',
  other: 'A',
};

const pick = <T>(list: readonly T[], random: () => number): T =>
  list[Math.floor(random() * list.length)] as T;

function typeOf(random: () => number): TClientType {
  let n = random() * 100;
  for (const [type, weight] of TYPES) {
    n -= weight;
    if (n < 0) return type;
  }
  return 'individual';
}

function nameFor(type: TClientType, surname: string, random: () => number) {
  if (type === 'individual') return `${pick(FIRST, random)} ${surname}`;
  if (type === 'huf') return `${pick(FIRST, random)} ${surname} HUF`;
  return `${surname} ${pick(FIRM_WORDS, random)} ${pick(SUFFIX[type] ?? [''], random)}`.trim();
}

/**
 * Who the firm's clients are: business groups (two or three companies of one promoter) and families
 * (members and their HUF), the rest on their own, in an order that mixes them.
 */
function planBook(count: number, groups: number, random: () => number) {
  const plans: TPlan[] = [];
  const groupNames: string[] = [];
  for (let g = 0; g < groups && plans.length < count; g++) {
    const surname = LAST[g % LAST.length] as string;
    const business = g % 2 === 0;
    groupNames.push(
      `${surname} ${business ? 'Group' : 'Family'}${g >= LAST.length ? ` ${Math.floor(g / LAST.length) + 1}` : ''}`,
    );
    const types: TClientType[] = business
      ? ['company', g % 4 === 0 ? 'company' : 'llp', ...(random() < 0.4 ? ['partnership' as const] : [])]
      : ['individual', 'individual', ...(random() < 0.6 ? ['huf' as const] : [])];
    const taken = new Set<string>();
    for (const type of types) {
      let name = nameFor(type, surname, random);
      while (taken.has(name)) name = nameFor(type, surname, random);
      taken.add(name);
      plans.push({ name, type, group: g });
    }
  }
  while (plans.length < count) {
    const type = typeOf(random);
    plans.push({ name: nameFor(type, pick(LAST, random), random), type, group: null });
  }
  // A deterministic shuffle, so a group's clients do not sit together in the code order.
  for (let i = plans.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [plans[i], plans[j]] = [plans[j] as TPlan, plans[i] as TPlan];
  }
  return { plans: plans.slice(0, count), groupNames };
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.|\.$/g, '');

/** Groups and clients through clientGroups.create and clients.create, as the owner. */
export async function createDemoClients(
  owner: TPersonSession,
  people: TDemoPerson[],
  size: { clients: number; groups: number },
  seed: number,
): Promise<TDemoClient[]> {
  const random = rng(seed * 7919);
  const { plans, groupNames } = planBook(size.clients, size.groups, random);
  const groupIds: string[] = [];
  for (const name of groupNames) {
    groupIds.push((await owner.api.clientGroups.create({ name, description: null })).id);
  }
  const preparers = people.filter((p) => p.role === 'Staff');
  const reviewers = people.filter((p) => p.role === 'Manager');
  const made: TDemoClient[] = [];
  // What clients.nextCode proposes for each new client in turn, without asking it each time.
  const first = (await owner.api.clients.nextCode()).code;
  const following = clientCodeSequence([first]);
  for (const [i, plan] of plans.entries()) {
    const code = i === 0 ? first : following();
    const groupId = plan.group === null ? null : (groupIds[plan.group] ?? null);
    // A group's clients share their team; everyone else's is spread over the firm.
    const k = plan.group ?? i;
    const preparer = preparers[k % preparers.length] as TDemoPerson;
    const reviewer = reviewers[k % reviewers.length] as TDemoPerson;
    const email = random() < 0.93 ? `${slug(plan.name)}@example.test` : null;
    const digits = String(1000 + Math.floor(random() * 9000));
    const letters = Array.from({ length: 3 }, () => String.fromCharCode(65 + Math.floor(random() * 26))).join(
      '',
    );
    const initial = /^[A-Za-z]/.test(plan.name) ? plan.name.charAt(0).toUpperCase() : 'X';
    const pan = `${letters}${PAN_HOLDER[plan.type]}${initial}${digits}${String.fromCharCode(65 + (i % 26))}`;
    const created = await owner.api.clients.create({
      code,
      name: plan.name,
      type: plan.type,
      groupId,
      email,
      phone: `+91 ${90000 + Math.floor(random() * 9999)} ${10000 + Math.floor(random() * 89999)}`,
      city: pick(CITIES, random),
      region: 'Maharashtra',
      country: 'IN',
      taxIds: [{ kind: 'PAN', value: pan }],
      tags: random() < 0.35 ? [pick(TAGS, random)] : [],
      teamMemberIds: [preparer.memberId, reviewer.memberId],
    });
    await owner.api.statutory.setRegistrations({
      clientId: created.id,
      data: demoRegistrations(plan.type, pan, i, random),
    });
    made.push({
      id: created.id,
      code: created.code,
      name: plan.name,
      type: plan.type,
      email,
      groupId,
      preparer,
      reviewer,
    });
  }
  return made;
}

/**
 * A Mumbai practice's book (issue 39): businesses registered for GST in Maharashtra (27), most filing
 * monthly, some under QRMP, a few small proprietors under composition; TANs for those with staff;
 * CINs and LLPINs; tax audit for the larger firms. Individuals and HUFs have their PAN only.
 */
function demoRegistrations(type: TClientType, pan: string, i: number, random: () => number) {
  const business = type === 'proprietor' || type === 'partnership' || type === 'llp' || type === 'company';
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  const letter = () => String.fromCharCode(65 + Math.floor(random() * 26));
  const gst = business && (type === 'company' || random() < 0.8);
  const gstin = gst ? `27${pan}1Z` : null;
  const scheme = !gst
    ? null
    : type === 'proprietor' && random() < 0.15
      ? ('composition' as const)
      : type !== 'company' && random() < 0.35
        ? ('qrmp' as const)
        : ('regular' as const);
  const band = !gst ? null : random() < 0.6 ? 'up_to_2cr' : random() < 0.6 ? '2cr_to_5cr' : 'over_5cr';
  return {
    gstin: gstin ? `${gstin}${gstinCheckCharacter(gstin)}` : null,
    gstScheme: scheme,
    turnoverBand: band as 'up_to_2cr' | '2cr_to_5cr' | 'over_5cr' | null,
    pan,
    tan:
      type === 'company' || type === 'llp' || (type === 'partnership' && random() < 0.5)
        ? `MUM${letter()}${digits(5)}${letter()}`
        : null,
    cin: type === 'company' ? `U${digits(5)}MH${2005 + (i % 18)}PTC${digits(6)}` : null,
    llpin: type === 'llp' ? `AA${letter()}-${digits(4)}` : null,
    taxAudit: type === 'company' || (business && random() < 0.3),
    transferPricing: type === 'company' && random() < 0.1,
    collectsTcs: type === 'company' && random() < 0.15,
  };
}
