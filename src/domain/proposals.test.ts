import { describe, expect, it } from 'vitest';
import {
  displayStatus,
  fillProposalPlaceholders,
  unknownProposalPlaceholders,
  ZProposalCreate,
  ZProposalService,
  ZSignerSign,
} from './proposals';

const esc = (s: string) => s.replace(/</g, '&lt;');
const uuid = '0190f2a4-0000-7000-8000-000000000001';

describe('proposal rules', () => {
  it('a sent proposal past its expiry day is Expired; others keep their status', () => {
    expect(displayStatus('sent', '2026-01-01', '2026-01-02')).toBe('expired');
    expect(displayStatus('sent', '2026-01-02', '2026-01-02')).toBe('sent');
    expect(displayStatus('accepted', '2020-01-01', '2026-01-02')).toBe('accepted');
  });

  it('fills placeholders with escaped values, fallbacks and ready-made lists; names unknown ones', () => {
    const out = fillProposalPlaceholders(
      '<p>{{contact_name}} / {{client_name|our client}}</p>{{services}}',
      { contact_name: '<b>Asha</b>', client_name: '' },
      esc,
      { services: '<ul><li>Payroll</li></ul>' },
    );
    expect(out).toBe('<p>&lt;b>Asha&lt;/b> / our client</p><ul><li>Payroll</li></ul>');
    expect(unknownProposalPlaceholders('{{firm_name}} {{due_date}} {{ nope }}')).toEqual([
      'due_date',
      'nope',
    ]);
  });

  it('a fixed fee needs its fee; hourly and not billed do not', () => {
    expect(ZProposalService.safeParse({ serviceId: uuid, billingMode: 'fixed', fee: '' }).success).toBe(
      false,
    );
    expect(ZProposalService.safeParse({ serviceId: uuid, billingMode: 'hourly', fee: '' }).success).toBe(
      true,
    );
    expect(ZProposalService.parse({ serviceId: uuid, billingMode: 'fixed', fee: '1500' }).fee).toBe(
      '1500.00',
    );
  });

  it('at most three packages, distinct signers, at most four', () => {
    const base = {
      clientId: uuid,
      title: 'Letter',
      letterHtml: '<p>Hi</p>',
      expiresOn: '2030-01-01',
      packages: [{ name: 'A', services: [{ serviceId: uuid, billingMode: 'none' as const }] }],
      signers: [{ name: 'Asha Rao', email: 'a@x.test' }],
    };
    expect(ZProposalCreate.safeParse(base).success).toBe(true);
    expect(ZProposalCreate.safeParse({ ...base, packages: Array(4).fill(base.packages[0]) }).success).toBe(
      false,
    );
    expect(
      ZProposalCreate.safeParse({ ...base, signers: [base.signers[0], { name: 'Other', email: 'A@x.test' }] })
        .success,
    ).toBe(false);
    expect(
      ZProposalCreate.safeParse({
        ...base,
        signers: ['a', 'b', 'c', 'd', 'e'].map((n) => ({ name: `Person ${n}`, email: `${n}@x.test` })),
      }).success,
    ).toBe(false);
  });

  it('signing needs the consent and a signature, typed or a PNG drawing', () => {
    const link = {
      proposalId: uuid,
      signerId: uuid,
      token: 'a'.repeat(32),
      session: 'b'.repeat(32),
      packageIndex: 0,
    };
    expect(
      ZSignerSign.safeParse({ ...link, signature: { kind: 'typed', text: 'Asha' }, consent: true }).success,
    ).toBe(true);
    expect(
      ZSignerSign.safeParse({ ...link, signature: { kind: 'typed', text: 'Asha' }, consent: false }).success,
    ).toBe(false);
    expect(
      ZSignerSign.safeParse({
        ...link,
        signature: { kind: 'drawn', image: 'data:image/svg+xml;base64,AAAA' },
        consent: true,
      }).success,
    ).toBe(false);
  });
});
