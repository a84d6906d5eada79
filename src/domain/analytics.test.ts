import { describe, expect, it } from 'vitest';
import { analyticsEnabled, eventProperties, personProperties, tagManagerEnabled } from './analytics';

describe('analytics host rule', () => {
  it('runs only on the production host, port included, and only with a key', () => {
    expect(analyticsEnabled('app.example.com', 'app.example.com', 'phc_1')).toBe(true);
    expect(analyticsEnabled('staging.example.com', 'app.example.com', 'phc_1')).toBe(false);
    expect(analyticsEnabled('127.0.0.1:3000', '127.0.0.1:3000', 'phc_1')).toBe(true);
    expect(analyticsEnabled('127.0.0.1:3001', '127.0.0.1:3000', 'phc_1')).toBe(false);
    expect(analyticsEnabled('app.example.com', 'app.example.com', null)).toBe(false);
    expect(analyticsEnabled('app.example.com', null, 'phc_1')).toBe(false);
  });
});

describe('tag manager rule', () => {
  it('runs only when the hostname is the production host and the id is well-formed', () => {
    expect(tagManagerEnabled('app.example.com', 'app.example.com', 'GTM-AB12')).toBe(true);
    expect(tagManagerEnabled('127.0.0.1', '127.0.0.1:3000', 'GTM-AB12')).toBe(true);
    expect(tagManagerEnabled('staging.example.com', 'app.example.com', 'GTM-AB12')).toBe(false);
    expect(tagManagerEnabled('app.example.com', 'app.example.com', 'GTM-ab12')).toBe(false);
    expect(tagManagerEnabled('app.example.com', 'app.example.com', 'UA-1')).toBe(false);
    expect(tagManagerEnabled('app.example.com', null, 'GTM-AB12')).toBe(false);
  });
});

describe('what is sent about the person', () => {
  const user = {
    id: 'm1',
    email: 'asha@rao.test',
    fullName: 'Asha Rao',
    firstName: 'Asha',
    lastName: 'Rao',
    org: { id: 'o1' },
    role: { name: 'Owner' },
    isVerified: true,
    isOwner: true,
  };
  it('identifies with email and full name, and tags events with role and owner flag', () => {
    expect(personProperties(user)).toEqual({ email: 'asha@rao.test', name: 'Asha Rao' });
    expect(eventProperties(user)).toMatchObject({ role: 'Owner', is_owner: true, org_id: 'o1' });
  });
});
