import { JwtRsaVerifier } from 'aws-jwt-verify';
import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { idpAttempts, idpCodes, idpSessions, idpUsers } from '../db/schema';
import { IdpKeys } from './keys';
import { createIdpTestApp, idpCall } from './test-helpers';
import { clientProof } from './test-srp-client';
import { signTokens } from './tokens';
import { disableUser } from './users';

// The wire protocol with raw requests: bad input answers Cognito's errors (never a 500) and creates
// nothing; codes and passwords lock out after repeated failures; tokens verify against the JWKS.

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
let clientId = '';
const call = (op: string, body: unknown, headers?: Record<string, string>) =>
  idpCall(t.endpoint, op, body, headers);

async function signUp(username: string, password = 'Valid-Pass-1') {
  const res = await call('SignUp', { ClientId: clientId, Username: username, Password: password });
  expect(res.status).toBe(200);
  return res.body as { UserSub: string };
}

async function confirmed(username: string, password = 'Valid-Pass-1') {
  const { UserSub } = await signUp(username, password);
  const res = await call('ConfirmSignUp', {
    ClientId: clientId,
    Username: username,
    ConfirmationCode: await t.lastCode(username),
  });
  expect(res.status).toBe(200);
  return UserSub;
}

/** The failures counted against a user's own lock (not their trusted sources'). */
async function failuresOf(username: string) {
  const [user] = await t.db.select().from(idpUsers).where(eq(idpUsers.usernameKey, username));
  const [row] = await t.db
    .select()
    .from(idpAttempts)
    .where(eq(idpAttempts.key, `pw:${user?.id}`));
  return row?.count ?? 0;
}

async function passwordAuth(username: string, password = 'Valid-Pass-1') {
  return call('InitiateAuth', {
    ClientId: clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: username, PASSWORD: password },
  });
}

beforeAll(async () => {
  t = await createIdpTestApp();
  clientId = t.config.idp.clientId;
});
afterAll(() => t?.close());

describe('the wire', () => {
  it('answers errors as HTTP 400 {__type, message} with x-amzn-errortype', async () => {
    const res = await call('GetUser', { AccessToken: 'x' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-amz-json-1\.1/);
    expect(res.headers.get('x-amzn-errortype')).toBe('NotAuthorizedException:');
    expect(res.body).toEqual({ __type: 'NotAuthorizedException', message: 'Invalid Access Token' });
  });

  it('refuses unknown operations, malformed JSON and non-objects', async () => {
    expect((await call('AdminDeleteUser', {})).body.__type).toBe('UnknownOperationException');
    const noTarget = await fetch(t.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1' },
      body: '{}',
    });
    expect(noTarget.status).toBe(400);
    expect((await call('SignUp', '{not json')).body.__type).toBe('SerializationException');
    expect((await call('SignUp', '[1,2]')).body.__type).toBe('SerializationException');
    expect((await call('SignUp', 'null')).body.__type).toBe('SerializationException');
  });

  it('answers every operation with missing, malformed or oversized fields without a 500', async () => {
    const ops = [
      'SignUp',
      'ConfirmSignUp',
      'ResendConfirmationCode',
      'InitiateAuth',
      'RespondToAuthChallenge',
      'GetTokensFromRefreshToken',
      'GetUser',
      'UpdateUserAttributes',
      'DeleteUserAttributes',
      'GetUserAttributeVerificationCode',
      'VerifyUserAttribute',
      'ChangePassword',
      'ForgotPassword',
      'ConfirmForgotPassword',
      'GlobalSignOut',
      'RevokeToken',
      'DeleteUser',
      'ConfirmDevice',
      'GetDevice',
      'ListDevices',
      'UpdateDeviceStatus',
      'ForgetDevice',
    ];
    const huge = 'x'.repeat(100_000);
    const bodies: unknown[] = [
      {},
      { ClientId: clientId },
      { ClientId: 42, Username: ['a'], AccessToken: {}, Password: null },
      {
        ClientId: clientId,
        Username: huge,
        Password: huge,
        AccessToken: huge,
        ConfirmationCode: huge,
        Code: huge,
        Token: huge,
        RefreshToken: huge,
        DeviceKey: huge,
        AuthFlow: huge,
        ChallengeName: huge,
        Session: huge,
        AttributeName: huge,
        PreviousPassword: huge,
        ProposedPassword: huge,
        PaginationToken: huge,
      },
      {
        ClientId: clientId,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: 'nobody', SRP_A: 'zz' },
        ChallengeName: 'PASSWORD_VERIFIER',
        ChallengeResponses: {
          PASSWORD_CLAIM_SECRET_BLOCK: '!!',
          TIMESTAMP: 't',
          PASSWORD_CLAIM_SIGNATURE: 's',
        },
        UserAttributes: [{ Name: 'nonsense', Value: 'x' }],
        UserAttributeNames: 'email',
        Limit: 1000,
        DeviceSecretVerifierConfig: 'x',
      },
      {
        ClientId: clientId,
        AuthParameters: [1],
        ChallengeResponses: 'x',
        UserAttributes: {},
        Limit: 'ten',
        Username: 'a b',
      },
    ];
    for (const op of ops) {
      for (const body of bodies) {
        const res = await call(op, body);
        expect(res.status, `${op} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
        expect(typeof res.body.__type).toBe('string');
        expect(typeof res.body.message).toBe('string');
      }
    }
    expect(await t.db.select().from(idpUsers)).toHaveLength(0);
    expect(await t.db.select().from(idpSessions)).toHaveLength(0);
  });

  it('checks the password policy and the email on sign-up, creating nothing', async () => {
    const weak = await call('SignUp', {
      ClientId: clientId,
      Username: 'weak@example.test',
      Password: 'password',
    });
    expect(weak.body).toMatchObject({ __type: 'InvalidPasswordException' });
    expect(String(weak.body.message)).toMatch(/^Password did not conform with policy: /);
    const noEmail = await call('SignUp', {
      ClientId: clientId,
      Username: 'plainname',
      Password: 'Valid-Pass-1',
    });
    expect(noEmail.body.__type).toBe('InvalidParameterException');
    const badEmail = await call('SignUp', {
      ClientId: clientId,
      Username: 'plainname',
      Password: 'Valid-Pass-1',
      UserAttributes: [{ Name: 'email', Value: 'not-an-email' }],
    });
    expect(badEmail.body.__type).toBe('InvalidParameterException');
    // The pre sign-up trigger's inputs are checked like any other field.
    for (const extra of [
      { ValidationData: 'inviteKey' },
      { ValidationData: [{ Value: 'x' }] },
      { ClientMetadata: ['x'] },
      { ClientMetadata: { invite: 7 } },
    ]) {
      const res = await call('SignUp', {
        ClientId: clientId,
        Username: 'shape@example.test',
        Password: 'Valid-Pass-1',
        ...extra,
      });
      expect(res.body.__type).toBe('InvalidParameterException');
    }
    expect(await t.db.select().from(idpUsers)).toHaveLength(0);
  });
});

describe('sign-up states and codes', () => {
  it('refuses sign-in before confirmation, resends the code, and confirms once', async () => {
    await signUp('una@example.test');
    expect((await passwordAuth('una@example.test')).body).toEqual({
      __type: 'UserNotConfirmedException',
      message: 'User is not confirmed.',
    });
    const first = await t.lastCode('una@example.test');
    const resent = await call('ResendConfirmationCode', { ClientId: clientId, Username: 'una@example.test' });
    expect(resent.body).toEqual({
      CodeDeliveryDetails: { Destination: 'u***@e***', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
    });
    const second = await t.lastCode('una@example.test');
    if (first !== second) {
      const old = await call('ConfirmSignUp', {
        ClientId: clientId,
        Username: 'una@example.test',
        ConfirmationCode: first,
      });
      expect(old.body.__type).toBe('CodeMismatchException');
    }
    const ok = await call('ConfirmSignUp', {
      ClientId: clientId,
      Username: 'UNA@example.test',
      ConfirmationCode: second,
    });
    expect(ok.status).toBe(200);
    const again = await call('ConfirmSignUp', {
      ClientId: clientId,
      Username: 'una@example.test',
      ConfirmationCode: second,
    });
    expect(again.body.__type).toBe('NotAuthorizedException');
    expect((await passwordAuth('una@example.test')).status).toBe(200);
    expect(
      (await call('ResendConfirmationCode', { ClientId: clientId, Username: 'una@example.test' })).body
        .__type,
    ).toBe('InvalidParameterException');
  });

  it('locks a code after five wrong tries, and expired codes answer ExpiredCodeException', async () => {
    const { UserSub } = await signUp('vic@example.test');
    const code = await t.lastCode('vic@example.test');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await call('ConfirmSignUp', {
        ClientId: clientId,
        Username: 'vic@example.test',
        ConfirmationCode: wrong,
      });
      expect(res.body.__type).toBe('CodeMismatchException');
    }
    const locked = await call('ConfirmSignUp', {
      ClientId: clientId,
      Username: 'vic@example.test',
      ConfirmationCode: code,
    });
    expect(locked.body).toEqual({
      __type: 'LimitExceededException',
      message: 'Attempt limit exceeded, please try after some time.',
    });

    await call('ResendConfirmationCode', { ClientId: clientId, Username: 'vic@example.test' });
    const fresh = await t.lastCode('vic@example.test');
    await t.db
      .update(idpCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(idpCodes.userId, UserSub));
    const expired = await call('ConfirmSignUp', {
      ClientId: clientId,
      Username: 'vic@example.test',
      ConfirmationCode: fresh,
    });
    expect(expired.body).toEqual({
      __type: 'ExpiredCodeException',
      message: 'Invalid code provided, please request a code again.',
    });
  });

  it('limits how many codes are mailed', async () => {
    await signUp('wes@example.test');
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push(
        (await call('ResendConfirmationCode', { ClientId: clientId, Username: 'wes@example.test' })).body
          .__type,
      );
    // The sign-up mailed one: four resends go, then the limit.
    expect(answers.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(answers.slice(4)).toEqual(['LimitExceededException', 'LimitExceededException']);
  });
});

describe('passwords and tokens', () => {
  it('locks sign-in after five wrong passwords, for the right password too', async () => {
    await confirmed('xia@example.test');
    for (let i = 0; i < 4; i++)
      expect((await passwordAuth('xia@example.test', 'Wrong-Pass-1')).body.message).toBe(
        'Incorrect username or password.',
      );
    // Cognito's answer: NotAuthorized (never throttling, which clients retry).
    expect((await passwordAuth('xia@example.test', 'Wrong-Pass-1')).body).toEqual({
      __type: 'NotAuthorizedException',
      message: 'Password attempts exceeded',
    });
    // The fifth failure locks for about a second; each further one doubles it.
    const lockSeconds = async () => {
      const [row] = await t.db.select().from(idpAttempts).where(like(idpAttempts.key, 'pw:%'));
      return ((row?.lockedUntil?.getTime() ?? 0) - (row?.windowStartedAt.getTime() ?? 0)) / 1000;
    };
    expect(await lockSeconds()).toBe(1);
    // As when that second has passed: the next wrong password locks for two.
    const runOut = () =>
      t.db
        .update(idpAttempts)
        .set({ lockedUntil: new Date(Date.now() - 1000) })
        .where(like(idpAttempts.key, 'pw:%'));
    await runOut();
    expect((await passwordAuth('xia@example.test', 'Wrong-Pass-1')).body.message).toBe(
      'Password attempts exceeded',
    );
    expect(await lockSeconds()).toBe(2);
    // While locked, even the right password is refused, and the lock does not grow.
    expect((await passwordAuth('xia@example.test')).body.message).toBe('Password attempts exceeded');
    expect(await lockSeconds()).toBe(2);
    // Once the lock runs out, the right password signs in and forgets the failures.
    await runOut();
    expect((await passwordAuth('xia@example.test')).status).toBe(200);
    expect(await t.db.select().from(idpAttempts).where(like(idpAttempts.key, 'pw:%'))).toHaveLength(0);
  });

  it('a burst of 40 wrong passwords at once: four answer incorrect, the rest that the attempts are exceeded', async () => {
    await confirmed('burst-pw@example.test');
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => passwordAuth('burst-pw@example.test', 'Wrong-Pass-1')),
    );
    const incorrect = answers.filter((r) => r.body.message === 'Incorrect username or password.');
    // Four answer "incorrect", the fifth checked one says the lock began, the rest are never checked.
    expect(incorrect).toHaveLength(4);
    expect(answers.filter((r) => r.body.message === 'Password attempts exceeded')).toHaveLength(36);
    // The lock (a second at first) may run out while the burst is still arriving; each later
    // failure then locks again, for longer.
    expect(await failuresOf('burst-pw@example.test')).toBeGreaterThanOrEqual(5);
  });

  it('a burst of 30 whose last is the right password checks at most five, the right one included', async () => {
    await confirmed('burst-right@example.test');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        passwordAuth('burst-right@example.test', i === 29 ? 'Valid-Pass-1' : 'Wrong-Pass-1'),
      ),
    );
    const incorrect = answers.filter((r) => r.body.message === 'Incorrect username or password.').length;
    const signedIn = answers.filter((r) => r.status === 200).length;
    expect(incorrect).toBeLessThanOrEqual(4);
    expect(incorrect + signedIn).toBeLessThanOrEqual(5);
  });

  it('a burst of 30 resend requests mails at most five codes', async () => {
    await signUp('burst-code@example.test');
    const before = (await t.readOutbox()).filter((m) => m.to === 'burst-code@example.test').length;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        call('ResendConfirmationCode', { ClientId: clientId, Username: 'burst-code@example.test' }),
      ),
    );
    // The sign-up took one of the five.
    expect(answers.filter((r) => r.status === 200)).toHaveLength(4);
    expect(answers.filter((r) => r.body.__type === 'LimitExceededException')).toHaveLength(26);
    const after = (await t.readOutbox()).filter((m) => m.to === 'burst-code@example.test').length;
    expect(after - before).toBe(4);
  });

  it('signs tokens that verify against the published JWKS with Cognito’s claims', async () => {
    const sub = await confirmed('yan@example.test');
    const auth = (await passwordAuth('yan@example.test')).body.AuthenticationResult as Record<string, string>;
    const poolId = t.config.idp.userPoolId;
    const issuer = `${t.config.publicUrl}/api/idp/${poolId}`;
    const discovery = await (
      await fetch(`${t.url}/api/idp/${poolId}/.well-known/openid-configuration`)
    ).json();
    expect(discovery).toMatchObject({ issuer, jwks_uri: `${issuer}/.well-known/jwks.json` });
    const jwks = await (await fetch(`${t.url}/api/idp/${poolId}/.well-known/jwks.json`)).json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined();

    const verifier = (tokenUse: 'id' | 'access') =>
      JwtRsaVerifier.create({
        issuer,
        audience: null,
        customJwtCheck: ({ payload }) => validateCognitoJwtFields(payload, { tokenUse, clientId }),
      });
    const access = verifier('access');
    access.cacheJwks(jwks);
    const a = await access.verify(auth.AccessToken ?? '');
    expect(a).toMatchObject({
      sub,
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      username: 'yan@example.test',
      client_id: clientId,
    });
    expect(a.aud).toBeUndefined();
    const id = verifier('id');
    id.cacheJwks(jwks);
    const i = await id.verify(auth.IdToken ?? '');
    expect(i).toMatchObject({
      sub,
      aud: clientId,
      'cognito:username': 'yan@example.test',
      email: 'yan@example.test',
      email_verified: true,
    });
    expect(i.origin_jti).toBe(a.origin_jti);
  });

  it('tells an expired access token from an invalid one', async () => {
    const sub = await confirmed('old@example.test');
    const keys = new IdpKeys(t.db);
    await keys.load();
    const { accessToken } = await signTokens(keys, {
      issuer: `${t.config.publicUrl}/api/idp/${t.config.idp.userPoolId}`,
      clientId,
      now: Math.floor(Date.now() / 1000) - 7200,
      subject: {
        sub,
        username: 'old@example.test',
        email: 'old@example.test',
        emailVerified: true,
        authTime: 0,
        originJti: 'x',
      },
    });
    expect((await call('GetUser', { AccessToken: accessToken })).body).toEqual({
      __type: 'NotAuthorizedException',
      message: 'Access Token has expired',
    });
    const foreign = await signTokens(keys, {
      issuer: 'https://elsewhere.example/pool',
      clientId,
      subject: {
        sub,
        username: 'old@example.test',
        email: 'old@example.test',
        emailVerified: true,
        authTime: 0,
        originJti: 'x',
      },
    });
    expect((await call('GetUser', { AccessToken: foreign.accessToken })).body.message).toBe(
      'Invalid Access Token',
    );
    expect((await call('GetUser', { AccessToken: foreign.idToken })).body.message).toBe(
      'Invalid Access Token',
    );
  });

  it('refuses a disabled user: sign-in, refresh, and the staff procedures', async () => {
    const sub = await confirmed('zed@example.test');
    const auth = (await passwordAuth('zed@example.test')).body.AuthenticationResult as Record<string, string>;
    await t.ownerWithSub(sub);
    expect(await t.client(auth.AccessToken).profile.me.query()).toBeTruthy();
    await disableUser(t.db, sub);
    await expect(t.client(auth.AccessToken).profile.me.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
    expect((await passwordAuth('zed@example.test')).body).toEqual({
      __type: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
    const refresh = await call('GetTokensFromRefreshToken', {
      ClientId: clientId,
      RefreshToken: auth.RefreshToken,
    });
    expect(refresh.body.message).toBe('Refresh Token has been revoked');
  });
});

describe('SRP over the wire', () => {
  const poolName = () => t.config.idp.userPoolId.split('_')[1] ?? '';

  async function srpStart(username: string, A = '02') {
    const res = await call('InitiateAuth', {
      ClientId: clientId,
      AuthFlow: 'USER_SRP_AUTH',
      AuthParameters: { USERNAME: username, SRP_A: A },
    });
    return res;
  }

  it('verifies a proof once: a replayed secret block is refused', async () => {
    await confirmed('srp@example.test', 'Srp-Pass-123');
    const a = BigInt(`0x${'5'.repeat(64)}`);
    const { modPow, g, N } = await import('./srp');
    const A = modPow(g, a, N).toString(16);
    const start = await srpStart('SRP@example.test', A);
    expect(start.body.ChallengeName).toBe('PASSWORD_VERIFIER');
    const p = start.body.ChallengeParameters as Record<string, string>;
    expect(p.USER_ID_FOR_SRP).toBe('srp@example.test');
    const timestamp = 'Sun Nov 22 5:09:15 UTC 2026';
    const proof = clientProof({
      poolName: poolName(),
      userId: p.USER_ID_FOR_SRP ?? '',
      password: 'Srp-Pass-123',
      salt: p.SALT ?? '',
      B: p.SRP_B ?? '',
      secretBlock: p.SECRET_BLOCK ?? '',
      timestamp,
      a,
    });
    expect(proof.A).toBe(A);
    const answer = {
      ClientId: clientId,
      ChallengeName: 'PASSWORD_VERIFIER',
      ChallengeResponses: {
        USERNAME: p.USER_ID_FOR_SRP,
        PASSWORD_CLAIM_SECRET_BLOCK: p.SECRET_BLOCK,
        TIMESTAMP: timestamp,
        PASSWORD_CLAIM_SIGNATURE: proof.signature,
      },
    };
    const ok = await call('RespondToAuthChallenge', answer);
    expect(ok.status).toBe(200);
    expect((ok.body.AuthenticationResult as Record<string, unknown>).AccessToken).toBeTruthy();
    expect((await call('RespondToAuthChallenge', answer)).body).toEqual({
      __type: 'NotAuthorizedException',
      message: 'Invalid session for the user, session is expired.',
    });
  });

  it('a burst of 20 wrong SRP proofs at once checks at most five', async () => {
    await confirmed('srp-burst@example.test', 'Srp-Pass-123');
    const { modPow, g, N } = await import('./srp');
    const a = BigInt(`0x${'7'.repeat(64)}`);
    const A = modPow(g, a, N).toString(16);
    const timestamp = 'Sun Nov 22 5:09:15 UTC 2026';
    const answers = [];
    for (let i = 0; i < 20; i++) {
      const p = (await srpStart('srp-burst@example.test', A)).body.ChallengeParameters as Record<
        string,
        string
      >;
      const proof = clientProof({
        poolName: poolName(),
        userId: p.USER_ID_FOR_SRP ?? '',
        password: 'Wrong-Pass-123',
        salt: p.SALT ?? '',
        B: p.SRP_B ?? '',
        secretBlock: p.SECRET_BLOCK ?? '',
        timestamp,
        a,
      });
      answers.push({
        ClientId: clientId,
        ChallengeName: 'PASSWORD_VERIFIER',
        ChallengeResponses: {
          USERNAME: p.USER_ID_FOR_SRP,
          PASSWORD_CLAIM_SECRET_BLOCK: p.SECRET_BLOCK,
          TIMESTAMP: timestamp,
          PASSWORD_CLAIM_SIGNATURE: proof.signature,
        },
      });
    }
    const results = await Promise.all(answers.map((answer) => call('RespondToAuthChallenge', answer)));
    expect(results.filter((r) => r.body.message === 'Incorrect username or password.')).toHaveLength(4);
    expect(results.filter((r) => r.body.message === 'Password attempts exceeded')).toHaveLength(16);
  });

  it('refuses A ≡ 0 and answers an unknown device with ResourceNotFoundException', async () => {
    await confirmed('dev@example.test');
    const { N } = await import('./srp');
    expect((await srpStart('dev@example.test', N.toString(16))).body.__type).toBe(
      'InvalidParameterException',
    );
    expect((await srpStart('dev@example.test', '0')).body.__type).toBe('InvalidParameterException');
    const res = await call('InitiateAuth', {
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: {
        USERNAME: 'dev@example.test',
        PASSWORD: 'Valid-Pass-1',
        DEVICE_KEY: 'local-1_00000000-0000-0000-0000-000000000000',
      },
    });
    expect(res.body).toEqual({ __type: 'ResourceNotFoundException', message: 'Device does not exist.' });
  });
});

describe('email aliases', () => {
  it('refuses a second verified owner of an email unless the alias is forced', async () => {
    const first = await confirmed('alias@example.test');
    const res = await call('SignUp', {
      ClientId: clientId,
      Username: 'bob',
      Password: 'Valid-Pass-1',
      UserAttributes: [{ Name: 'email', Value: 'alias@example.test' }],
    });
    expect(res.status).toBe(200);
    const code = await t.lastCode('alias@example.test');
    const clash = await call('ConfirmSignUp', {
      ClientId: clientId,
      Username: 'bob',
      ConfirmationCode: code,
    });
    expect(clash.body).toEqual({
      __type: 'AliasExistsException',
      message: 'An account with the given email already exists.',
    });
    const forced = await call('ConfirmSignUp', {
      ClientId: clientId,
      Username: 'bob',
      ConfirmationCode: code,
      ForceAliasCreation: true,
    });
    expect(forced.status).toBe(200);
    const [old] = await t.db.select().from(idpUsers).where(eq(idpUsers.id, first));
    expect(old?.emailVerified).toBe(false);
    // A user name wins over an email alias.
    const auth = await passwordAuth('alias@example.test');
    expect(auth.status).toBe(200);
    const access = (auth.body.AuthenticationResult as Record<string, string>).AccessToken;
    expect((await call('GetUser', { AccessToken: access })).body.Username).toBe('alias@example.test');
    expect((await passwordAuth('bob')).status).toBe(200);
  });
});

describe('several server instances', () => {
  it('answers an SRP challenge on another instance than the one that issued it', async () => {
    await confirmed('multi@example.test', 'Multi-Pass-1');
    const second = await buildApp({ config: t.config, database: t.database, logger: false });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = second.app.server.address();
      const otherEndpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/idp`;
      const { modPow, g, N } = await import('./srp');
      const a = BigInt(`0x${'7'.repeat(64)}`);
      const start = await call('InitiateAuth', {
        ClientId: clientId,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: 'multi@example.test', SRP_A: modPow(g, a, N).toString(16) },
      });
      const p = start.body.ChallengeParameters as Record<string, string>;
      const timestamp = 'Sun Nov 22 5:20:00 UTC 2026';
      const proof = clientProof({
        poolName: t.config.idp.userPoolId.split('_')[1] ?? '',
        userId: p.USER_ID_FOR_SRP ?? '',
        password: 'Multi-Pass-1',
        salt: p.SALT ?? '',
        B: p.SRP_B ?? '',
        secretBlock: p.SECRET_BLOCK ?? '',
        timestamp,
        a,
      });
      const done = await idpCall(otherEndpoint, 'RespondToAuthChallenge', {
        ClientId: clientId,
        ChallengeName: 'PASSWORD_VERIFIER',
        ChallengeResponses: {
          USERNAME: p.USER_ID_FOR_SRP,
          PASSWORD_CLAIM_SECRET_BLOCK: p.SECRET_BLOCK,
          TIMESTAMP: timestamp,
          PASSWORD_CLAIM_SIGNATURE: proof.signature,
        },
      });
      expect(done.status).toBe(200);
      const tokens = done.body.AuthenticationResult as Record<string, string>;
      // The token from the second instance works on the first, and a revocation on one holds on both.
      expect((await call('GetUser', { AccessToken: tokens.AccessToken })).status).toBe(200);
      await idpCall(otherEndpoint, 'RevokeToken', { ClientId: clientId, Token: tokens.RefreshToken });
      expect((await call('GetUser', { AccessToken: tokens.AccessToken })).body.message).toBe(
        'Access Token has been revoked',
      );
    } finally {
      await second.app.close();
    }
  });
});
