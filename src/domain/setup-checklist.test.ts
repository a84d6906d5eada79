import { describe, expect, it } from 'vitest';
import { SETUP_STEPS, setupSteps, showSetupChecklist, type TSetupFacts } from './setup-checklist';

const none: TSetupFacts = {
  otherMembers: 0,
  openInvites: 0,
  services: 0,
  projectTemplates: 0,
  clients: 0,
  rates: 0,
  portalUsers: 0,
};

describe('the set-up checklist', () => {
  it('lists every step in order, none done for an empty firm', () => {
    const steps = setupSteps(none);
    expect(steps.map((s) => s.key)).toEqual([...SETUP_STEPS]);
    expect(steps.every((s) => !s.done && s.href.startsWith('/'))).toBe(true);
    expect(showSetupChecklist(steps, false)).toBe(true);
  });
  it('counts an open invitation as inviting the team', () => {
    const team = (facts: Partial<TSetupFacts>) => setupSteps({ ...none, ...facts })[0]?.done;
    expect(team({ openInvites: 1 })).toBe(true);
    expect(team({ otherMembers: 2 })).toBe(true);
    expect(team({})).toBe(false);
  });
  it('hides once dismissed or once everything is done', () => {
    const all = setupSteps({
      otherMembers: 1,
      openInvites: 0,
      services: 3,
      projectTemplates: 1,
      clients: 40,
      rates: 2,
      portalUsers: 1,
    });
    expect(all.every((s) => s.done)).toBe(true);
    expect(showSetupChecklist(all, false)).toBe(false);
    expect(showSetupChecklist(setupSteps(none), true)).toBe(false);
  });
});
