import { describe, expect, it } from 'vitest';
import {
  hostedSignInPending,
  onRedirectSignIn,
  type TRedirectOutcome,
  tellRedirectSignIn,
} from './hosted-sign-in';

const config = {
  idp: { userPoolId: 'local-1_Practice', clientId: 'practiceweb', endpointPath: '/api/idp' },
  oauth: { domain: 'practice.test/api/idp', providers: ['Workspace'] },
};
const at = (path: string) => {
  const url = new URL(path, 'https://practice.test');
  return { pathname: url.pathname, search: url.search };
};
const noMark = { getItem: () => null };

describe('hostedSignInPending', () => {
  it('sees the provider sending the browser back to the login page', () => {
    expect(hostedSignInPending({ location: at('/auth/login?code=c&state=s'), storage: noMark, config })).toBe(
      true,
    );
    expect(
      hostedSignInPending({ location: at('/auth/login?error=access_denied'), storage: noMark, config }),
    ).toBe(true);
    expect(hostedSignInPending({ location: at('/auth/login'), storage: noMark, config })).toBe(false);
    expect(hostedSignInPending({ location: at('/tasks?state=x'), storage: noMark, config })).toBe(false);
  });

  it('sees a hosted sign-in Amplify started and has not finished (Back from the provider)', () => {
    const marked = {
      getItem: (key: string) =>
        key === 'CognitoIdentityServiceProvider.practiceweb.inflightOAuth' ? 'true' : null,
    };
    expect(hostedSignInPending({ location: at('/auth/login'), storage: marked, config })).toBe(true);
    expect(hostedSignInPending({ location: at('/'), storage: marked, config })).toBe(true);
    expect(hostedSignInPending({ location: at('/auth/login'), storage: null, config })).toBe(false);
  });

  it('is never pending where the deployment has no hosted sign-in', () => {
    const location = at('/auth/login?code=c&state=s');
    expect(hostedSignInPending({ location, storage: noMark, config: { ...config, oauth: null } })).toBe(
      false,
    );
  });
});

describe('the redirect outcome', () => {
  it('reaches a listener that came after it, once', () => {
    tellRedirectSignIn({ ok: true });
    const heard: TRedirectOutcome[] = [];
    const stop = onRedirectSignIn((outcome) => heard.push(outcome));
    expect(heard).toEqual([{ ok: true }]);
    stop();
    const again: TRedirectOutcome[] = [];
    onRedirectSignIn((outcome) => again.push(outcome))();
    expect(again).toEqual([]);
  });

  it('reaches the listener in place, and is kept again once it has gone', () => {
    const heard: TRedirectOutcome[] = [];
    const stop = onRedirectSignIn((outcome) => heard.push(outcome));
    const error = new Error('Invalid state in OAuth flow');
    tellRedirectSignIn({ ok: false, error });
    expect(heard).toEqual([{ ok: false, error }]);
    stop();
    tellRedirectSignIn({ ok: true });
    const later: TRedirectOutcome[] = [];
    onRedirectSignIn((outcome) => later.push(outcome))();
    expect(later).toEqual([{ ok: true }]);
  });
});
