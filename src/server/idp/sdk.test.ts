import { randomBytes } from 'node:crypto';
import {
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  ConfirmDeviceCommand,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  ForgetDeviceCommand,
  ForgotPasswordCommand,
  GetDeviceCommand,
  GetUserCommand,
  InitiateAuthCommand,
  ListDevicesCommand,
  ResendConfirmationCodeCommand,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  SetUserMFAPreferenceCommand,
  SetUserSettingsCommand,
  SignUpCommand,
  UpdateDeviceStatusCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idpUsers } from '../db/schema';
import { createIdpTestApp } from './test-helpers';
import { createUser } from './users';

// The AWS SDK's Cognito client pointed at the endpoint: the operations Amplify never sends
// (GetDevice, ListDevices paging) and the error shapes the SDK parses.

let t: Awaited<ReturnType<typeof createIdpTestApp>>;
let sdk: CognitoIdentityProviderClient;
let clientId = '';
const username = 'grace@example.test';
const password = 'Cobol-Rules-59';

async function passwordSignIn(user = username, pw = password) {
  const res = await sdk.send(
    new InitiateAuthCommand({
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: user, PASSWORD: pw },
    }),
  );
  const result = res.AuthenticationResult;
  if (!result?.AccessToken) throw new Error('no tokens');
  return result;
}

/** Signs in and confirms the new device with some verifier; returns the tokens and the device key. */
async function signInWithDevice(name: string) {
  const result = await passwordSignIn();
  const deviceKey = result.NewDeviceMetadata?.DeviceKey ?? '';
  await sdk.send(
    new ConfirmDeviceCommand({
      AccessToken: result.AccessToken,
      DeviceKey: deviceKey,
      DeviceName: name,
      DeviceSecretVerifierConfig: {
        Salt: randomBytes(16).toString('base64'),
        PasswordVerifier: randomBytes(384).toString('base64'),
      },
    }),
  );
  return { ...result, deviceKey };
}

beforeAll(async () => {
  t = await createIdpTestApp();
  clientId = t.config.idp.clientId;
  sdk = new CognitoIdentityProviderClient({
    region: 'local-1',
    endpoint: t.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  });
  await sdk.send(
    new SignUpCommand({
      ClientId: clientId,
      Username: username,
      Password: password,
      UserAttributes: [{ Name: 'email', Value: username }],
    }),
  );
  await sdk.send(
    new ConfirmSignUpCommand({
      ClientId: clientId,
      Username: username,
      ConfirmationCode: await t.lastCode(username),
    }),
  );
});
afterAll(async () => {
  sdk?.destroy();
  await t?.close();
});

describe('AWS SDK client against the embedded identity provider', () => {
  it('signs in with USER_PASSWORD_AUTH and reads the user', async () => {
    const result = await passwordSignIn();
    expect(result).toMatchObject({ TokenType: 'Bearer', ExpiresIn: 3600 });
    expect(result.NewDeviceMetadata?.DeviceKey).toMatch(/^local-1_[0-9a-f-]{36}$/);
    expect(result.NewDeviceMetadata?.DeviceGroupKey).toBeTruthy();
    const user = await sdk.send(new GetUserCommand({ AccessToken: result.AccessToken }));
    expect(user.Username).toBe(username);
    expect(user.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'email', Value: username },
        { Name: 'email_verified', Value: 'true' },
      ]),
    );
  });

  it('gets a device, pages through ListDevices, updates and forgets one', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await signInWithDevice(`device ${i}`));
    const last = made[made.length - 1];
    if (!last) throw new Error('no device');
    const token = last.AccessToken;

    const got = await sdk.send(new GetDeviceCommand({ AccessToken: token, DeviceKey: made[2]?.deviceKey }));
    expect(got.Device?.DeviceKey).toBe(made[2]?.deviceKey);
    expect(got.Device?.DeviceAttributes).toEqual(
      expect.arrayContaining([{ Name: 'device_name', Value: 'device 2' }]),
    );
    expect(got.Device?.DeviceCreateDate).toBeInstanceOf(Date);

    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await sdk.send(
        new ListDevicesCommand({ AccessToken: token, Limit: 2, PaginationToken: pageToken }),
      );
      expect(page.Devices?.length).toBeLessThanOrEqual(2);
      seen.push(...(page.Devices ?? []).map((d) => d.DeviceKey ?? ''));
      pageToken = page.PaginationToken;
      pages++;
    } while (pageToken && pages < 10);
    // One unconfirmed device from the first test is not listed.
    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(made.map((m) => m.deviceKey)));
    expect(seen[0]).toBe(last.deviceKey);

    await sdk.send(
      new UpdateDeviceStatusCommand({
        AccessToken: token,
        DeviceKey: last.deviceKey,
        DeviceRememberedStatus: 'remembered',
      }),
    );
    const remembered = await sdk.send(
      new GetDeviceCommand({ AccessToken: token, DeviceKey: last.deviceKey }),
    );
    expect(remembered.Device?.DeviceAttributes).toEqual(
      expect.arrayContaining([{ Name: 'dev:device_remembered_status', Value: 'remembered' }]),
    );
    await expect(
      sdk.send(
        new UpdateDeviceStatusCommand({
          AccessToken: token,
          DeviceKey: last.deviceKey,
          DeviceRememberedStatus: 'forever' as never,
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });

    await sdk.send(new ForgetDeviceCommand({ AccessToken: token, DeviceKey: made[0]?.deviceKey }));
    const all = await sdk.send(new ListDevicesCommand({ AccessToken: token, Limit: 60 }));
    expect(all.Devices).toHaveLength(4);
    expect(all.PaginationToken).toBeUndefined();
  });

  it('answers errors the SDK parses into named exceptions', async () => {
    const { AccessToken } = await passwordSignIn();
    const missing = sdk.send(
      new GetDeviceCommand({ AccessToken, DeviceKey: 'local-1_00000000-0000-0000-0000-000000000000' }),
    );
    await expect(missing).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      message: 'Device does not exist.',
      $metadata: { httpStatusCode: 400 },
    });
    await expect(
      sdk.send(
        new InitiateAuthCommand({
          ClientId: clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: username, PASSWORD: 'Nope-Nope-1' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    await expect(sdk.send(new GetUserCommand({ AccessToken: 'not-a-token' }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid Access Token',
    });
    await expect(
      sdk.send(new ListDevicesCommand({ AccessToken, Limit: 10, PaginationToken: 'garbage' })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await expect(
      sdk.send(
        new InitiateAuthCommand({
          ClientId: 'someone-else',
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: username, PASSWORD: password },
        }),
      ),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await expect(
      sdk.send(
        new SignUpCommand({
          ClientId: clientId,
          Username: username,
          Password: password,
          UserAttributes: [{ Name: 'email', Value: username }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'UsernameExistsException' });
  });

  it('revokes a refresh token: refresh refused, access token refused', async () => {
    const result = await passwordSignIn();
    // Only a refresh token this pool issued is revoked.
    await expect(
      sdk.send(new RevokeTokenCommand({ ClientId: clientId, Token: result.AccessToken })),
    ).rejects.toMatchObject({ name: 'UnsupportedTokenTypeException' });
    await expect(
      sdk.send(new RevokeTokenCommand({ ClientId: clientId, Token: 'not-a-token' })),
    ).rejects.toMatchObject({ name: 'UnauthorizedException' });
    await sdk.send(new RevokeTokenCommand({ ClientId: clientId, Token: result.RefreshToken }));
    await expect(
      sdk.send(
        new InitiateAuthCommand({
          ClientId: clientId,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: result.RefreshToken ?? '' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
    await expect(sdk.send(new GetUserCommand({ AccessToken: result.AccessToken }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has been revoked',
    });
    await expect(
      sdk.send(
        new InitiateAuthCommand({
          ClientId: clientId,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: 'made-up' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Invalid Refresh Token' });
  });

  it('refreshes with InitiateAuth REFRESH_TOKEN_AUTH (older clients)', async () => {
    const result = await passwordSignIn();
    const refreshed = await sdk.send(
      new InitiateAuthCommand({
        ClientId: clientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: result.RefreshToken ?? '' },
      }),
    );
    expect(refreshed.AuthenticationResult?.AccessToken).toBeTruthy();
    expect(refreshed.AuthenticationResult?.RefreshToken).toBeUndefined();
  });

  it('asks a user with a temporary password for a new one (NEW_PASSWORD_REQUIRED)', async () => {
    await createUser(t.db, {
      poolName: 'Practice',
      username: 'invitee@example.test',
      password: 'Temporary-Pass-1',
      attributes: { email: 'invitee@example.test' },
      status: 'FORCE_CHANGE_PASSWORD',
    });
    const first = await sdk.send(
      new InitiateAuthCommand({
        ClientId: clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'invitee@example.test', PASSWORD: 'Temporary-Pass-1' },
      }),
    );
    expect(first.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    expect(first.Session).toBeTruthy();
    expect(JSON.parse(first.ChallengeParameters?.userAttributes ?? '{}')).toMatchObject({
      email: 'invitee@example.test',
    });
    const respond = (NEW_PASSWORD: string) =>
      sdk.send(
        new RespondToAuthChallengeCommand({
          ClientId: clientId,
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          Session: first.Session,
          ChallengeResponses: {
            USERNAME: 'invitee@example.test',
            NEW_PASSWORD,
            'userAttributes.given_name': 'Ivy',
          },
        }),
      );
    await expect(respond('weak')).rejects.toMatchObject({ name: 'InvalidPasswordException' });
    const done = await respond('Brand-New-Pass-2');
    expect(done.AuthenticationResult?.AccessToken).toBeTruthy();
    await expect(respond('Brand-New-Pass-2')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Invalid session for the user, session is expired.',
    });
    await passwordSignIn('invitee@example.test', 'Brand-New-Pass-2');
    const users = await t.db.select().from(idpUsers);
    expect(users.find((u) => u.username === 'invitee@example.test')?.attributes).toMatchObject({
      given_name: 'Ivy',
    });
  });
});

describe('MFA and existence hiding over the AWS SDK', () => {
  const code = (secret: string, offsetMs = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetMs });

  it('answers SetUserSettings and SetUserMFAPreference as Cognito does', async () => {
    const { AccessToken } = await passwordSignIn();
    expect(await sdk.send(new SetUserSettingsCommand({ AccessToken, MFAOptions: [] }))).toBeTruthy();
    await expect(
      sdk.send(
        new SetUserSettingsCommand({
          AccessToken,
          MFAOptions: [{ DeliveryMedium: 'SMS', AttributeName: 'phone_number' }],
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await expect(
      sdk.send(new SetUserMFAPreferenceCommand({ AccessToken, SoftwareTokenMfaSettings: { Enabled: true } })),
    ).rejects.toMatchObject({
      name: 'InvalidParameterException',
      message: 'User has not verified software token mfa',
    });
    const { SecretCode = '' } = await sdk.send(new AssociateSoftwareTokenCommand({ AccessToken }));
    await expect(
      sdk.send(new VerifySoftwareTokenCommand({ AccessToken, UserCode: '12345a' })),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    expect(
      (
        await sdk.send(
          new VerifySoftwareTokenCommand({
            AccessToken,
            UserCode: code(SecretCode),
            FriendlyDeviceName: 'phone',
          }),
        )
      ).Status,
    ).toBe('SUCCESS');
    await sdk.send(
      new SetUserMFAPreferenceCommand({
        AccessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    );
    expect(await sdk.send(new GetUserCommand({ AccessToken }))).toMatchObject({
      UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
      PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
    });
    const challenge = await sdk.send(
      new InitiateAuthCommand({
        ClientId: clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: username, PASSWORD: password },
      }),
    );
    expect(challenge.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    const signedIn = await sdk.send(
      new RespondToAuthChallengeCommand({
        ClientId: clientId,
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: challenge.Session,
        ChallengeResponses: { USERNAME: username, SOFTWARE_TOKEN_MFA_CODE: code(SecretCode, 30_000) },
      }),
    );
    expect(signedIn.AuthenticationResult?.AccessToken).toBeTruthy();
    await sdk.send(
      new SetUserMFAPreferenceCommand({ AccessToken, SoftwareTokenMfaSettings: { Enabled: false } }),
    );
    expect((await sdk.send(new GetUserCommand({ AccessToken }))).UserMFASettingList).toBeUndefined();
  });

  it('sets TOTP up during sign-in (MFA_SETUP) when the pool requires MFA', async () => {
    const on = await createIdpTestApp({ IDP_MFA: 'ON' });
    try {
      const client = new CognitoIdentityProviderClient({
        region: 'local-1',
        endpoint: on.endpoint,
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
        maxAttempts: 1,
      });
      await createUser(on.db, {
        poolName: on.config.idp.userPoolId.split('_')[1] ?? '',
        username: 'mia@example.test',
        password: 'Must-Have-Mfa-1',
        attributes: { email: 'mia@example.test' },
        status: 'CONFIRMED',
        emailVerified: true,
      });
      const first = await client.send(
        new InitiateAuthCommand({
          ClientId: clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: 'mia@example.test', PASSWORD: 'Must-Have-Mfa-1' },
        }),
      );
      expect(first.ChallengeName).toBe('MFA_SETUP');
      expect(JSON.parse(first.ChallengeParameters?.MFAS_CAN_SETUP ?? '[]')).toEqual([
        'SOFTWARE_TOKEN_MFA',
        'EMAIL_OTP',
      ]);
      const associated = await client.send(new AssociateSoftwareTokenCommand({ Session: first.Session }));
      const secret = associated.SecretCode ?? '';
      await expect(
        client.send(
          new VerifySoftwareTokenCommand({
            Session: associated.Session,
            UserCode: code(secret) === '000000' ? '111111' : '000000',
          }),
        ),
      ).rejects.toMatchObject({ name: 'EnableSoftwareTokenMFAException' });
      const verified = await client.send(
        new VerifySoftwareTokenCommand({
          Session: associated.Session,
          UserCode: code(secret),
          FriendlyDeviceName: 'phone',
        }),
      );
      expect(verified.Status).toBe('SUCCESS');
      const done = await client.send(
        new RespondToAuthChallengeCommand({
          ClientId: clientId,
          ChallengeName: 'MFA_SETUP',
          Session: verified.Session,
          ChallengeResponses: { USERNAME: 'mia@example.test' },
        }),
      );
      expect(done.AuthenticationResult?.AccessToken).toBeTruthy();
      expect(
        await client.send(new GetUserCommand({ AccessToken: done.AuthenticationResult?.AccessToken })),
      ).toMatchObject({
        UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
        PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
      });
      // Required by the pool: it cannot be turned off.
      await expect(
        client.send(
          new SetUserMFAPreferenceCommand({
            AccessToken: done.AuthenticationResult?.AccessToken,
            SoftwareTokenMfaSettings: { Enabled: false },
          }),
        ),
      ).rejects.toMatchObject({ name: 'InvalidParameterException' });

      // The other choice: email. MFA_SETUP answered with the account's verified address mails a
      // code (EMAIL_OTP), whose answer turns email MFA on and signs in.
      await createUser(on.db, {
        poolName: on.config.idp.userPoolId.split('_')[1] ?? '',
        username: 'noah@example.test',
        password: 'Must-Have-Mfa-1',
        attributes: { email: 'noah@example.test' },
        status: 'CONFIRMED',
        emailVerified: true,
      });
      const setup = await client.send(
        new InitiateAuthCommand({
          ClientId: clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: 'noah@example.test', PASSWORD: 'Must-Have-Mfa-1' },
        }),
      );
      const respond = (ChallengeName: string, Session: string | undefined, r: Record<string, string>) =>
        client.send(
          new RespondToAuthChallengeCommand({
            ClientId: clientId,
            ChallengeName: ChallengeName as 'MFA_SETUP',
            Session,
            ChallengeResponses: { USERNAME: 'noah@example.test', ...r },
          }),
        );
      await expect(respond('MFA_SETUP', setup.Session, { EMAIL: 'someone@else.test' })).rejects.toMatchObject(
        {
          name: 'InvalidParameterException',
        },
      );
      const emailStep = await respond('MFA_SETUP', setup.Session, { EMAIL: 'Noah@example.test' });
      expect(emailStep.ChallengeName).toBe('EMAIL_OTP');
      expect(emailStep.ChallengeParameters).toMatchObject({
        CODE_DELIVERY_DELIVERY_MEDIUM: 'EMAIL',
        CODE_DELIVERY_DESTINATION: expect.stringMatching(/^n\*+@/),
      });
      const mailed = await on.lastCode('noah@example.test');
      await expect(
        respond('EMAIL_OTP', emailStep.Session, {
          EMAIL_OTP_CODE: mailed === '000000' ? '111111' : '000000',
        }),
      ).rejects.toMatchObject({ name: 'CodeMismatchException' });
      const emailDone = await respond('EMAIL_OTP', emailStep.Session, { EMAIL_OTP_CODE: mailed });
      expect(
        await client.send(new GetUserCommand({ AccessToken: emailDone.AuthenticationResult?.AccessToken })),
      ).toMatchObject({ UserMFASettingList: ['EMAIL_OTP'], PreferredMfaSetting: 'EMAIL_OTP' });
    } finally {
      await on.close();
    }
  });

  it('turns email MFA on, asks one with both on and neither preferred to choose (SELECT_MFA_TYPE)', async () => {
    const email = 'ada@example.test';
    await createUser(t.db, {
      poolName: t.config.idp.userPoolId.split('_')[1] ?? '',
      username: email,
      password,
      attributes: { email },
      status: 'CONFIRMED',
      emailVerified: true,
    });
    const { AccessToken } = await passwordSignIn(email);
    const { SecretCode = '' } = await sdk.send(new AssociateSoftwareTokenCommand({ AccessToken }));
    await sdk.send(new VerifySoftwareTokenCommand({ AccessToken, UserCode: code(SecretCode, -30_000) }));
    await expect(
      sdk.send(
        new SetUserMFAPreferenceCommand({
          AccessToken,
          SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
          EmailMfaSettings: { Enabled: true, PreferredMfa: true },
        }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterException' });
    await sdk.send(
      new SetUserMFAPreferenceCommand({
        AccessToken,
        SoftwareTokenMfaSettings: { Enabled: true },
        EmailMfaSettings: { Enabled: true },
      }),
    );
    const user = await sdk.send(new GetUserCommand({ AccessToken }));
    expect(user.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA', 'EMAIL_OTP']);
    expect(user.PreferredMfaSetting).toBeUndefined();

    const start = () =>
      sdk.send(
        new InitiateAuthCommand({
          ClientId: clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      );
    const respond = (ChallengeName: string, Session: string | undefined, r: Record<string, string>) =>
      sdk.send(
        new RespondToAuthChallengeCommand({
          ClientId: clientId,
          ChallengeName: ChallengeName as 'SELECT_MFA_TYPE',
          Session,
          ChallengeResponses: { USERNAME: email, ...r },
        }),
      );
    const select = await start();
    expect(select.ChallengeName).toBe('SELECT_MFA_TYPE');
    expect(JSON.parse(select.ChallengeParameters?.MFAS_CAN_CHOOSE ?? '[]')).toEqual([
      'SOFTWARE_TOKEN_MFA',
      'EMAIL_OTP',
    ]);
    await expect(respond('SELECT_MFA_TYPE', select.Session, { ANSWER: 'SMS_MFA' })).rejects.toMatchObject({
      name: 'InvalidParameterException',
    });
    const byEmail = await respond('SELECT_MFA_TYPE', select.Session, { ANSWER: 'EMAIL_OTP' });
    expect(byEmail.ChallengeName).toBe('EMAIL_OTP');
    const mailed = await t.lastCode(email);
    const signedIn = await respond('EMAIL_OTP', byEmail.Session, { EMAIL_OTP_CODE: mailed });
    expect(signedIn.AuthenticationResult?.AccessToken).toBeTruthy();
    // Each code once.
    const again = await respond('SELECT_MFA_TYPE', (await start()).Session, { ANSWER: 'EMAIL_OTP' });
    await expect(respond('EMAIL_OTP', again.Session, { EMAIL_OTP_CODE: mailed })).rejects.toMatchObject({
      name: 'CodeMismatchException',
    });

    const byApp = await respond('SELECT_MFA_TYPE', (await start()).Session, { ANSWER: 'SOFTWARE_TOKEN_MFA' });
    expect(byApp.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(
      (
        await respond('SOFTWARE_TOKEN_MFA', byApp.Session, {
          SOFTWARE_TOKEN_MFA_CODE: code(SecretCode, 30_000),
        })
      ).AuthenticationResult?.AccessToken,
    ).toBeTruthy();

    // Preferred: asked straight away, no choice.
    await sdk.send(
      new SetUserMFAPreferenceCommand({ AccessToken, EmailMfaSettings: { PreferredMfa: true } }),
    );
    expect((await sdk.send(new GetUserCommand({ AccessToken }))).PreferredMfaSetting).toBe('EMAIL_OTP');
    expect((await start()).ChallengeName).toBe('EMAIL_OTP');
  });

  it('answers an unknown user as it answers a real one', async () => {
    const nobody = 'nobody@example.test';
    await expect(
      sdk.send(
        new InitiateAuthCommand({
          ClientId: clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: nobody, PASSWORD: 'Whatever-Pass-1' },
        }),
      ),
    ).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    const srp = await sdk.send(
      new InitiateAuthCommand({
        ClientId: clientId,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: nobody, SRP_A: 'abcdef0123456789' },
      }),
    );
    expect(srp.ChallengeName).toBe('PASSWORD_VERIFIER');
    const again = await sdk.send(
      new InitiateAuthCommand({
        ClientId: clientId,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: nobody, SRP_A: 'abcdef0123456789' },
      }),
    );
    // The same salt every time, as for a real user.
    expect(again.ChallengeParameters?.SALT).toBe(srp.ChallengeParameters?.SALT);
    expect(await sdk.send(new ForgotPasswordCommand({ ClientId: clientId, Username: nobody }))).toMatchObject(
      {
        CodeDeliveryDetails: { Destination: 'n***@e***', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      },
    );
    expect(
      await sdk.send(new ResendConfirmationCodeCommand({ ClientId: clientId, Username: nobody })),
    ).toMatchObject({
      CodeDeliveryDetails: { DeliveryMedium: 'EMAIL' },
    });
    await expect(
      sdk.send(
        new ConfirmForgotPasswordCommand({
          ClientId: clientId,
          Username: nobody,
          ConfirmationCode: '123456',
          Password: 'New-Password-1',
        }),
      ),
    ).rejects.toMatchObject({ name: 'CodeMismatchException' });
    expect((await t.readOutbox()).filter((m) => m.to === nobody)).toHaveLength(0);
  });
});
