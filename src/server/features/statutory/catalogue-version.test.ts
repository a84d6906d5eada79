import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiling } from '../../../domain/statutory/catalogue';
import { filingYear } from '../../../domain/statutory/rules';
import { filingExtensions, services, systemLog } from '../../db/schema';
import { createTestApp, type TTestApp } from '../../test/app';
import { seedClient } from '../../test/fixtures';
import { codeAndMessageOf } from '../../test/outcome';

// A firm works by the version of the catalogue it accepted (issue 39): a filing only a newer
// release has is neither offered nor accepted until the firm reviews and accepts that release.

let t: TTestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const DEPOSIT = 'IN.TDS.DEPOSIT';
const refused =
  /^BAD_REQUEST: TDS\/TCS deposit.* is not in your firm’s version of the statutory catalogue \(2026\.1\)/;

/** The field a refusal names for the form, as the browser's form reads it. */
const fieldErrorsOf = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (e: { data?: { fieldErrors?: Record<string, string[]> } }) => Object.keys(e.data?.fieldErrors ?? {}),
  );

describe('the firm’s version of the catalogue', () => {
  it('refuses to link, extend or engage a filing only 2026.2 has until the firm accepts 2026.2', async () => {
    const f = await t.seedFirm('Version 2026.1');
    const api = t.client(f.owner.token);
    const deposit = findFiling(DEPOSIT);
    if (!deposit) throw new Error('no deposit filing');
    expect(deposit.name).toMatch(/^TDS\/TCS deposit/);
    const [first] = filingYear(deposit, 2026);
    if (!first) throw new Error('no period');
    const extension = {
      filingCode: DEPOSIT,
      periodKey: first.period.key,
      dueDate: '2026-12-31',
      stateCode: null,
    };

    // The catalogue the screens read has no deposit.
    const catalogue = await api.statutory.catalogue.query();
    expect(catalogue.version).toBe('2026.1');
    expect(catalogue.filings.map((x) => x.code)).not.toContain(DEPOSIT);

    const service = { name: 'TDS deposit', code: 'TDSD', frequency: 'monthly' as const };
    expect(
      await codeAndMessageOf(api.services.create.mutate({ ...service, statutoryFilingCode: DEPOSIT })),
    ).toMatch(refused);
    expect(
      await fieldErrorsOf(api.services.create.mutate({ ...service, statutoryFilingCode: DEPOSIT })),
    ).toEqual(['statutoryFilingCode']);
    const plain = await api.services.create.mutate(service);
    expect(
      await codeAndMessageOf(
        api.services.update.mutate({ serviceId: plain.id, ...service, statutoryFilingCode: DEPOSIT }),
      ),
    ).toMatch(refused);
    expect(await codeAndMessageOf(api.statutory.createExtension.mutate(extension))).toMatch(refused);
    expect(await fieldErrorsOf(api.statutory.createExtension.mutate(extension))).toEqual(['filingCode']);
    const client = await seedClient(t, f.org.id, { name: 'Deductor Pvt Ltd' });
    expect(
      await codeAndMessageOf(
        api.statutory.engage.mutate({
          items: [{ clientId: client.id, filingCode: DEPOSIT }],
          startDate: '2026-04-01',
        }),
      ),
    ).toMatch(refused);
    // Nothing was written or logged by the refusals.
    expect(await t.db.select().from(filingExtensions).where(eq(filingExtensions.orgId, f.org.id))).toEqual(
      [],
    );
    const [stored] = await t.db.select().from(services).where(eq(services.id, plain.id));
    expect(stored?.statutoryFilingCode).toBeNull();

    // A filing both versions have is extended as before, and its period is checked by the firm's version.
    const gstr1 = findFiling('IN.GSTR1.M');
    const [april] = gstr1 ? filingYear(gstr1, 2026) : [];
    expect(
      await codeAndMessageOf(
        api.statutory.createExtension.mutate({
          ...extension,
          filingCode: 'IN.GSTR1.M',
          periodKey: '2026-Q1',
        }),
      ),
    ).toMatch(/^BAD_REQUEST: This is not a period of GSTR-1/);
    expect(
      await api.statutory.createExtension.mutate({
        ...extension,
        filingCode: 'IN.GSTR1.M',
        periodKey: april?.period.key ?? '',
      }),
    ).toMatchObject({ id: expect.any(String) });

    // Once the firm accepts 2026.2, the deposit is offered and accepted.
    await api.statutory.acceptCatalogueUpdate.mutate({ version: '2026.2' });
    expect((await api.statutory.catalogue.query()).filings.map((x) => x.code)).toContain(DEPOSIT);
    await api.services.update.mutate({ serviceId: plain.id, ...service, statutoryFilingCode: DEPOSIT });
    const [linked] = await t.db.select().from(services).where(eq(services.id, plain.id));
    expect(linked?.statutoryFilingCode).toBe(DEPOSIT);
    const ext = await api.statutory.createExtension.mutate(extension);
    const listed = await api.statutory.extensions.query();
    expect(listed.find((x) => x.id === ext.id)).toMatchObject({
      filingCode: DEPOSIT,
      filingName: deposit.name,
      periodLabel: first.period.label,
    });
    const logs = await t.db
      .select({ summary: systemLog.summary })
      .from(systemLog)
      .where(and(eq(systemLog.orgId, f.org.id), eq(systemLog.action, 'filing_extension.create')));
    expect(logs).toHaveLength(2);
  });
});
