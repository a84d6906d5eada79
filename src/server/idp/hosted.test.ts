import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import Provider from 'oidc-provider';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, systemLog } from '../db/schema';
import { createIdpTestApp, idpCall } from './test-helpers';

// Hosted sign-in over HTTP as a browser and Amplify use it, and federation against a real OpenID
// Connect server (oidc-provider) started here.

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
let op: Server;
let appUrl = '';
let opUrl = '';
const clientId = 'practiceweb';
let redirectUri = '';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** A browser's cookie jar over fetch, redirects followed by hand. */
function browser() {
  const jar = new Map<string, string>();
  return {
    jar,
    async go(url: string, init: RequestInit = {}) {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie } });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line))
          jar.delete(name);
        else jar.set(name, value);
      }
      return { res, text: await res.text(), location: res.headers.get('location') ?? '' };
    },
  };
}

const pkce = () => {
  const verifier = randomBytes(96).toString('base64url').slice(0, 128);
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

const authorizeUrl = (challenge: string, extra: Record<string, string> = {}) =>
  `${appUrl}/api/idp/oauth2/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'openid email aws.cognito.signin.user.admin',
    state: 'state-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  })}`;

/** The hidden fields (and action) of the first form on a page. */
function formOf(html: string) {
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
    fields[m[1] ?? ''] = (m[2] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  return { action, fields };
}

const post = (b: ReturnType<typeof browser>, url: string, fields: Record<string, string>) =>
  b.go(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

const token = (fields: Record<string, string>) =>
  fetch(`${appUrl}/api/idp/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, string> }));

async function confirmedUser(email: string, password = 'Valid-Pass-1') {
  await idpCall(t.endpoint, 'SignUp', {
    ClientId: clientId,
    Username: email,
    Password: password,
    UserAttributes: [{ Name: 'email', Value: email }],
  });
  await idpCall(t.endpoint, 'ConfirmSignUp', {
    ClientId: clientId,
    Username: email,
    ConfirmationCode: await t.lastCode(email),
  });
}

/** Signs in on the hosted page; answers the redirect to the app (code and state). */
async function hostedSignIn(
  b: ReturnType<typeof browser>,
  email: string,
  challenge: string,
  password = 'Valid-Pass-1',
) {
  const page = await b.go(authorizeUrl(challenge));
  expect(page.res.status).toBe(200);
  const { action, fields } = formOf(page.text);
  return post(b, `${appUrl}${action}`, { ...fields, email, password });
}

beforeAll(async () => {
  const [appPort, opPort] = [await freePort(), await freePort()];
  appUrl = `http://127.0.0.1:${appPort}`;
  opUrl = `http://127.0.0.1:${opPort}`;
  redirectUri = `${appUrl}/auth/login`;
  const provider = new Provider(opUrl, {
    clients: [
      {
        client_id: 'practice',
        client_secret: 'a-long-enough-client-secret',
        redirect_uris: [`${appUrl}/api/idp/oauth2/idpresponse`],
      },
    ],
    // The dev login form takes any name: it becomes the account, the email and (unless it says
    // otherwise) a verified one.
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: id, email_verified: !id.startsWith('unverified') }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['hosted-test-cookie-key'] },
  });
  op = provider.listen(opPort, '127.0.0.1');
  t = await createIdpTestApp(
    {
      PUBLIC_URL: appUrl,
      IDP_OIDC_PROVIDERS: JSON.stringify([
        {
          name: 'Workspace',
          issuer: opUrl,
          clientId: 'practice',
          clientSecret: 'a-long-enough-client-secret',
        },
      ]),
    },
    { port: appPort },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => op?.close(resolve));
});

describe('hosted sign-in', () => {
  it('names its endpoints in the discovery document', async () => {
    const res = await fetch(`${appUrl}/api/idp/${t.config.idp.userPoolId}/.well-known/openid-configuration`);
    expect(await res.json()).toMatchObject({
      authorization_endpoint: `${appUrl}/api/idp/oauth2/authorize`,
      token_endpoint: `${appUrl}/api/idp/oauth2/token`,
      end_session_endpoint: `${appUrl}/api/idp/logout`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('refuses an unregistered redirect_uri with a page, and a request without PKCE back to the app', async () => {
    const b = browser();
    const { challenge } = pkce();
    const foreign = await b.go(authorizeUrl(challenge, { redirect_uri: 'https://evil.example/cb' }));
    expect(foreign.res.status).toBe(400);
    expect(foreign.location).toBe('');
    expect(foreign.text).toContain('not registered');
    const noPkce = await b.go(authorizeUrl(challenge, { code_challenge: '' }));
    expect(noPkce.res.status).toBe(302);
    const back = new URL(noPkce.location);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('state-123');
  });

  it('signs in with a password; the code is single-use and bound to verifier and redirect_uri', async () => {
    await confirmedUser('hosted@example.test');
    const b = browser();
    const { verifier, challenge } = pkce();
    const page = await b.go(authorizeUrl(challenge));
    expect(page.text).toContain('<label for="email">Email</label>');
    const { action, fields } = formOf(page.text);
    const wrong = await post(b, `${appUrl}${action}`, {
      ...fields,
      email: 'hosted@example.test',
      password: 'Wrong-Pass-1',
    });
    expect(wrong.res.status).toBe(400);
    expect(wrong.text).toContain('Incorrect email or password.');
    const forged = await post(b, `${appUrl}${action}`, {
      ...fields,
      _csrf: 'x'.repeat(43),
      email: 'hosted@example.test',
      password: 'Valid-Pass-1',
    });
    expect(forged.res.status).toBe(400);
    expect(forged.location).toBe('');

    const done = await post(b, `${appUrl}${action}`, {
      ...fields,
      email: 'hosted@example.test',
      password: 'Valid-Pass-1',
    });
    expect(done.res.status).toBe(302);
    const back = new URL(done.location);
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('state-123');
    const code = back.searchParams.get('code') ?? '';
    const base = { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: redirectUri };
    expect(await token({ ...base, code_verifier: pkce().verifier })).toEqual({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    // The failed attempt used the code up: the right verifier is too late.
    expect((await token({ ...base, code_verifier: verifier })).body).toEqual({ error: 'invalid_grant' });

    // The browser's hosted session signs straight in; a code for another redirect_uri is refused.
    const second = pkce();
    const sso = await b.go(authorizeUrl(second.challenge));
    expect(sso.res.status).toBe(302);
    const code2 = new URL(sso.location).searchParams.get('code') ?? '';
    expect(
      (await token({ ...base, code: code2, redirect_uri: `${appUrl}/other`, code_verifier: second.verifier }))
        .body,
    ).toEqual({ error: 'invalid_grant' });

    const third = pkce();
    const code3 =
      new URL((await b.go(authorizeUrl(third.challenge))).location).searchParams.get('code') ?? '';
    const good = await token({ ...base, code: code3, code_verifier: third.verifier });
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const user = await idpCall(t.endpoint, 'GetUser', { AccessToken: good.body.access_token });
    expect(user.body.Username).toBe('hosted@example.test');
    expect((await token({ ...base, code: code3, code_verifier: third.verifier })).body.error).toBe(
      'invalid_grant',
    );

    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: good.body.refresh_token ?? '',
    });
    expect(refreshed.status).toBe(200);
    // As Cognito: the refreshed access token keeps the scopes granted at authorization.
    const scopeOf = (jwt = '') =>
      JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()).scope as string;
    expect(scopeOf(good.body.access_token)).toBe('openid email aws.cognito.signin.user.admin');
    expect(scopeOf(refreshed.body.access_token)).toBe('openid email aws.cognito.signin.user.admin');
    expect(
      (await token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: 'nope' })).body.error,
    ).toBe('invalid_grant');
    expect(await token({ grant_type: 'password', client_id: clientId })).toEqual({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    });
    expect((await token({ ...base, client_id: 'someone-else' })).status).toBe(401);

    const info = await fetch(`${appUrl}/api/idp/oauth2/userInfo`, {
      headers: { authorization: `Bearer ${good.body.access_token}` },
    });
    expect(await info.json()).toMatchObject({
      email: 'hosted@example.test',
      username: 'hosted@example.test',
    });

    // Logout: only to a registered address; it ends the hosted session.
    const refused = await b.go(
      `${appUrl}/api/idp/logout?client_id=${clientId}&logout_uri=https://evil.example/`,
    );
    expect(refused.res.status).toBe(400);
    const out = await b.go(
      `${appUrl}/api/idp/logout?${new URLSearchParams({ client_id: clientId, logout_uri: `${appUrl}/auth/login` })}`,
    );
    expect(out.res.status).toBe(302);
    expect(out.location).toBe(`${appUrl}/auth/login`);
    const again = await b.go(authorizeUrl(pkce().challenge));
    expect(again.res.status).toBe(200);
    expect(again.text).toContain('Sign in with Workspace');
  });

  it('asks a person with TOTP for the code', async () => {
    await confirmedUser('totp@example.test');
    const signIn = await idpCall(t.endpoint, 'InitiateAuth', {
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: 'totp@example.test', PASSWORD: 'Valid-Pass-1' },
    });
    const AccessToken = (signIn.body.AuthenticationResult as { AccessToken: string }).AccessToken;
    const { body } = await idpCall(t.endpoint, 'AssociateSoftwareToken', { AccessToken });
    const secret = Secret.fromBase32(String(body.SecretCode));
    const now = (offset = 0) => new TOTP({ secret }).generate({ timestamp: Date.now() + offset });
    await idpCall(t.endpoint, 'VerifySoftwareToken', { AccessToken, UserCode: now(-30_000) });
    await idpCall(t.endpoint, 'SetUserMFAPreference', {
      AccessToken,
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    const b = browser();
    const mfa = await hostedSignIn(b, 'totp@example.test', pkce().challenge);
    expect(mfa.res.status).toBe(200);
    expect(mfa.text).toContain('Code from your authenticator app');
    const { action, fields } = formOf(mfa.text);
    const wrong = await post(b, `${appUrl}${action}`, {
      ...fields,
      code: '000000' === now() ? '111111' : '000000',
    });
    expect(wrong.res.status).toBe(400);
    const { fields: again } = formOf(wrong.text);
    const done = await post(b, `${appUrl}${action}`, { ...again, code: now() });
    expect(done.res.status).toBe(302);
    expect(new URL(done.location).searchParams.get('code')).toBeTruthy();
  });

  it('mails the code to a person with email MFA only', async () => {
    const email = 'mailed@example.test';
    await confirmedUser(email);
    const signIn = await idpCall(t.endpoint, 'InitiateAuth', {
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: 'Valid-Pass-1' },
    });
    const AccessToken = (signIn.body.AuthenticationResult as { AccessToken: string }).AccessToken;
    expect(
      (
        await idpCall(t.endpoint, 'SetUserMFAPreference', {
          AccessToken,
          EmailMfaSettings: { Enabled: true },
        })
      ).status,
    ).toBe(200);
    const b = browser();
    const mfa = await hostedSignIn(b, email, pkce().challenge);
    expect(mfa.text).toContain('Code from the email we sent you');
    const done = await post(b, `${appUrl}${formOf(mfa.text).action}`, {
      ...formOf(mfa.text).fields,
      code: await t.lastCode(email),
    });
    expect(done.res.status).toBe(302);
    expect(new URL(done.location).searchParams.get('code')).toBeTruthy();
  });

  it('sets up a firm-required authenticator on the page, shows recovery codes, and takes one later', async () => {
    const email = 'required@example.test';
    await confirmedUser(email);
    const user = await idpCall(t.endpoint, 'InitiateAuth', {
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: 'Valid-Pass-1' },
    });
    const access = (user.body.AuthenticationResult as { AccessToken: string }).AccessToken;
    const firm = await t.seedFirm();
    const sub = JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()).sub;
    await t.db.update(members).set({ sub }).where(eq(members.id, firm.staff.id));
    await t
      .client(firm.owner.token)
      .settings.updateMfaPolicy.mutate({ policy: 'all', roleIds: [], graceDays: 0 });

    const b = browser();
    const setup = await hostedSignIn(b, email, pkce().challenge);
    expect(setup.res.status).toBe(200);
    expect(setup.text).toContain('Set up two-step sign-in');
    expect(setup.text).toContain('<svg');
    const secret = /<code id="secret"[^>]*>([A-Z2-7]+)<\/code>/.exec(setup.text)?.[1] ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const now = (offset = 0) =>
      new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset });
    const { action, fields } = formOf(setup.text);
    const wrong = await post(b, `${appUrl}${action}`, {
      ...fields,
      code: now() === '000000' ? '111111' : '000000',
    });
    expect(wrong.res.status).toBe(400);
    expect(wrong.text).toContain('That code is not right');
    expect(/<code id="secret"[^>]*>([A-Z2-7]+)<\/code>/.exec(wrong.text)?.[1]).toBe(secret);
    const saved = await post(b, `${appUrl}${action}`, { ...formOf(wrong.text).fields, code: now(-30_000) });
    expect(saved.res.status).toBe(200);
    const codes = [...saved.text.matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g)].map((m) => m[1] ?? '');
    expect(codes).toHaveLength(10);
    const done = await post(b, `${appUrl}${action}`, formOf(saved.text).fields);
    expect(done.res.status).toBe(302);
    expect(new URL(done.location).searchParams.get('code')).toBeTruthy();
    expect((await idpCall(t.endpoint, 'GetUser', { AccessToken: access })).body).toMatchObject({
      UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
      PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
    });
    const logged = await t.db
      .select({ action: systemLog.action })
      .from(systemLog)
      .where(eq(systemLog.orgId, firm.org.id));
    expect(logged.map((r) => r.action)).toEqual(
      expect.arrayContaining(['member.mfa_changed', 'member.recovery_codes']),
    );

    // A later hosted sign-in asks for the code and takes a recovery code instead.
    const b2 = browser();
    const next = await hostedSignIn(b2, email, pkce().challenge);
    expect(next.text).toContain('recovery codes');
    const viaCode = await post(b2, `${appUrl}${action}`, {
      ...formOf(next.text).fields,
      code: codes[0] ?? '',
    });
    expect(viaCode.res.status).toBe(302);
    expect(new URL(viaCode.location).searchParams.get('code')).toBeTruthy();
  });
});

describe('federation with an external OpenID Connect provider', () => {
  /** From our authorize to the provider, through its dev login and consent, back to us. */
  async function viaProvider(login: string) {
    const b = browser();
    const { verifier, challenge } = pkce();
    let step = await b.go(authorizeUrl(challenge, { identity_provider: 'Workspace' }));
    expect(step.location.startsWith(opUrl)).toBe(true);
    for (let i = 0; i < 12 && step.location && !step.location.startsWith(appUrl); i++) {
      const next = new URL(step.location, opUrl).toString();
      step = await b.go(next);
      if (step.res.status === 200 && step.text.includes('<form')) {
        const { action, fields } = formOf(step.text);
        const filled = step.text.includes('name="login"')
          ? { ...fields, login, password: 'anything' }
          : fields;
        step = await post(b, new URL(action, next).toString(), filled);
      }
    }
    expect(step.location.startsWith(`${appUrl}/api/idp/oauth2/idpresponse`)).toBe(true);
    return { back: await b.go(step.location), verifier };
  }

  it('signs a known member in by their verified email', async () => {
    await confirmedUser('fed@example.test');
    const { back, verifier } = await viaProvider('fed@example.test');
    expect(back.res.status).toBe(302);
    const code = new URL(back.location).searchParams.get('code') ?? '';
    const res = await token({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    const user = await idpCall(t.endpoint, 'GetUser', { AccessToken: res.body.access_token });
    expect(user.body.Username).toBe('fed@example.test');
  });

  it('refuses an unknown email and an unverified one with a page', async () => {
    const unknown = await viaProvider('stranger@example.test');
    expect(unknown.back.res.status).toBe(400);
    expect(unknown.back.text).toContain('No member signs in with stranger@example.test');
    const unverified = await viaProvider('unverified@example.test');
    expect(unverified.back.res.status).toBe(400);
    expect(unverified.back.text).toContain('did not confirm an email address');
  });
});
