import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_CANNOT_DELETE } from '../../src/domain/security';
import { orgs } from '../../src/server/db/schema';
import { startApp, type TE2eApp } from './support/app';
import { launchBrowser, newPage, screenshot } from './support/browser';

let app: TE2eApp;
let browser: Browser;
beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const PASSWORD = 'Ledger#2026';
const staffCookie = (cookies: { name: string }[]) => cookies.some((c) => c.name.endsWith('.LastAuthUser'));

/** A sign-in outside the browser, as another app would make it: answers its access token. */
async function idpSignIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${app.url}/api/idp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify({
      ClientId: app.config.idp.clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  });
  const body = (await res.json()) as { AuthenticationResult: { AccessToken: string } };
  return body.AuthenticationResult.AccessToken;
}

const signInsStatus = async (accessToken: string) =>
  (
    await fetch(`${app.url}/api/trpc/security.signIns?input=${encodeURIComponent('{"json":{}}')}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
  ).status;

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${app.url}/auth/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('staff identity in the browser', () => {
  it('registers, verifies by the mailed link, signs in by itself, creates the firm and lands home', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const { page, console } = await newPage(context);
    await page.goto(`${app.url}/auth/register`);
    await page.getByLabel('First name').fill('Asha');
    await page.getByLabel('Last name').fill('Rao');
    await page.getByLabel('Work email').fill('asha@rao.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await screenshot(page, 'auth-register');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();

    // The link from the mail, opened in another tab of the same browser.
    const link = await app.lastLinkPath('asha@rao.test');
    expect(link).toMatch(/^\/auth\/verify\/[A-Za-z0-9_-]+$/);
    const other = await context.newPage();
    await other.goto(`${app.url}${link}`);
    await other.getByRole('heading', { name: 'Email verified' }).waitFor();
    await other.close();

    // The register tab polls every 5 seconds, signs in, and goes on to onboarding.
    await page.waitForURL(`${app.url}/onboarding`, { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Set up your firm' }).waitFor();
    // Prefilled from the identity provider's attributes, which arrive after the form renders.
    await expect.poll(() => page.getByLabel('Your first name').inputValue()).toBe('Asha');
    await page.getByLabel('Firm name').fill('Rao & Partners');
    await screenshot(page, 'auth-onboarding');
    await page.getByRole('button', { name: 'Create firm' }).click();
    await page.waitForURL(`${app.url}/`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toMatch(/^Good (Morning|Afternoon|Evening), Asha$/);
    // The empty firm's home leads through its first steps, each read from the firm's data.
    const setup = page.getByRole('region', { name: 'Set up your firm' });
    await setup.getByText('0 of 6 done.', { exact: false }).waitFor();
    await expect
      .poll(() => setup.getByRole('listitem').allTextContents())
      .toEqual([
        expect.stringMatching(/^Invite your team \(to do\)/),
        expect.stringMatching(/^Add the services you offer/),
        expect.stringMatching(/^Describe how the work is done/),
        expect.stringMatching(/^Import your clients/),
        expect.stringMatching(/^Set billing rates/),
        expect.stringMatching(/^Invite a client to the portal/),
      ]);
    await screenshot(page, 'auth-home');
    await setup.getByRole('link', { name: 'Add services' }).click();
    await page.waitForURL(`${app.url}/admin/services`);
    await page.goto(`${app.url}/`);
    await page
      .getByRole('region', { name: 'Set up your firm' })
      .getByRole('button', { name: 'Dismiss' })
      .click();
    await expect.poll(() => page.getByRole('region', { name: 'Set up your firm' }).count()).toBe(0);

    // Signed in: public pages send the member home; verify does not.
    await page.goto(`${app.url}/auth/login`);
    await page.waitForURL(`${app.url}/`);
    await page.goto(`${app.url}${link}`);
    await page.getByRole('heading', { name: /verify your email|Email verified/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(link);

    // Sign out from the user menu: back to the login, and the guard no longer lets the browser in.
    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: /account menu for Asha Rao/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(`${app.url}/auth/login`);
    await expect.poll(async () => staffCookie(await context.cookies(app.url))).toBe(false);
    await page.goto(`${app.url}/`);
    await page.waitForURL(`${app.url}/auth/login`);
    expect(console.errors.filter((e) => !/40[01]/.test(e))).toEqual([]);
    await context.close();
  });

  it('shows the provider’s message for a wrong password, then signs in with the right one', async () => {
    const context = await browser.newContext();
    const { page } = await newPage(context, { allowErrors: [/400/] });
    await signIn(page, 'asha@rao.test', 'Wrong#2026x');
    await page.getByRole('alert').filter({ hasText: 'Incorrect username or password.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await screenshot(page, 'auth-wrong-password');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('heading', { name: /Asha$/ }).waitFor();

    // My account → Security: this browser's device, the failure and the sign-in just made.
    await page.getByRole('button', { name: /account menu for Asha Rao/ }).click();
    await page.getByRole('menuitem', { name: 'Security' }).click();
    await page.waitForURL(`${app.url}/my-account/security`);
    const mfa = page.getByRole('region', { name: 'Two-step sign-in' });
    await mfa.getByText('Off', { exact: true }).waitFor();
    await mfa.getByRole('button', { name: 'Set up authenticator' }).waitFor();
    await page.getByRole('list', { name: 'Devices' }).getByText('This browser').waitFor();
    const signIns = page.getByRole('list', { name: 'Sign-ins' }).getByRole('listitem');
    await expect
      .poll(() => signIns.allTextContents())
      .toEqual([expect.stringMatching(/^Signed in.*Chrome/), expect.stringMatching(/^Failed.*Chrome/)]);
    await page.getByText(OWNER_CANNOT_DELETE).waitFor();
    await screenshot(page, 'auth-security');

    // Sign out everywhere: another session (an app elsewhere) is refused afterwards, not only this one.
    const elsewhere = await idpSignIn('asha@rao.test', PASSWORD);
    expect(await signInsStatus(elsewhere)).toBe(200);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(`${app.url}/auth/login`);
    expect(await signInsStatus(elsewhere)).toBe(401);
    await context.close();
  });

  it('resets a forgotten password by the mailed link', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const { page } = await newPage(context, { allowErrors: [/400/] });
    await page.goto(`${app.url}/auth/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    // Its own Email field, not the login page's still in view while the screen's chunk loads.
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill('asha@rao.test');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();

    const link = await app.lastLinkPath('asha@rao.test');
    expect(link).toMatch(/^\/auth\/resetpassword\//);
    await page.goto(`${app.url}${link}`);
    await page.getByLabel('New password', { exact: true }).fill('Better#2027');
    await page.getByLabel('Confirm new password').fill('Better#2028');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('The passwords do not match').waitFor();
    await page.getByLabel('Confirm new password').fill('Better#2027');
    await screenshot(page, 'auth-reset-375');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(`${app.url}/auth/login`);

    await signIn(page, 'asha@rao.test', PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'Incorrect username or password.' }).waitFor();
    await page.getByLabel('Password').fill('Better#2027');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}/`);
    await context.close();
  });

  it('returns to the page asked for after signing in, never to an address outside the app', async () => {
    const context = await browser.newContext();
    const { page } = await newPage(context);
    await page.goto(`${app.url}/reports/team/summary?tab=members`);
    await page.waitForURL(
      `${app.url}/auth/login?next=${encodeURIComponent('/reports/team/summary?tab=members')}`,
    );
    await page.getByLabel('Email').fill('asha@rao.test');
    await page.getByLabel('Password').fill('Better#2027');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/reports/team/summary');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('members');

    // A crafted link cannot use the sign-in to send the person elsewhere.
    const signedOut = await browser.newContext();
    const { page: other } = await newPage(signedOut);
    await other.goto(`${app.url}/auth/login?next=${encodeURIComponent('/\\evil.example/x')}`);
    await other.getByLabel('Email').fill('asha@rao.test');
    await other.getByLabel('Password').fill('Better#2027');
    await other.getByRole('button', { name: 'Sign in' }).click();
    await other.waitForURL(`${app.url}/`);
    // Already signed in, the login forwards to a safe `next` at once.
    await other.goto(`${app.url}/auth/login?next=${encodeURIComponent('/team/members')}`);
    await other.waitForURL(`${app.url}/team/members`);
    await other.goto(`${app.url}/auth/login?next=${encodeURIComponent('//evil.example')}`);
    await other.waitForURL(`${app.url}/`);
    await signedOut.close();
    await context.close();
  });

  it('says a verify or reset link cut short is broken and offers a new one', async () => {
    const context = await browser.newContext();
    const { page, console } = await newPage(context, { allowErrors: [/400/] });
    await page.goto(`${app.url}/auth/resetpassword/not!a!key?from=mail`);
    await page.getByRole('heading', { name: 'This link is broken' }).waitFor();
    await page.getByRole('link', { name: 'Send a new reset link' }).click();
    await page.waitForURL(`${app.url}/auth/forgotpassword`);
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();

    // A verification link that lost its end on the way: a new one is mailed from the page.
    const email = 'late@rao.test';
    const signUp = await fetch(`${app.url}/api/idp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp',
      },
      body: JSON.stringify({ ClientId: app.config.idp.clientId, Username: email, Password: PASSWORD }),
    });
    expect(signUp.status).toBe(200);
    await app.lastMail(email);
    await page.goto(`${app.url}/auth/verify/eyJ1Ijoib`);
    await page.getByRole('heading', { name: 'This link is broken' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send a new verification link' }).click();
    expect(new URL((await app.lastMail(email, 2)).notes.link ?? '').pathname).toMatch(/^\/auth\/verify\//);
    expect(console.errors.filter((e) => !/40[0-4]/.test(e))).toEqual([]);
    await context.close();
  });

  it('firm rule past grace: set-up with the QR code, a TOTP code at the next sign-in, then a remembered device skips it', async () => {
    await app.db.update(orgs).set({ mfaPolicy: 'all', mfaGraceDays: 0 });
    const context = await browser.newContext();
    const { page, console } = await newPage(context);
    const codeAt = (secret: string, offsetMs = 0) =>
      new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetMs });
    const signOutFromMenu = async () => {
      await page.getByRole('button', { name: /account menu for Asha Rao/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(`${app.url}/auth/login`);
    };

    await signIn(page, 'asha@rao.test', 'Better#2027');
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    // The pool offers an authenticator app or email codes.
    await page.getByRole('button', { name: /Email code/ }).waitFor();
    await page.getByRole('button', { name: /Authenticator app/ }).click();
    await page.getByTestId('totp-qr').waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'auth-mfa-setup');
    await page.getByLabel('Code from the app').fill(codeAt(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    await expect.poll(() => page.getByTestId('recovery-codes').getByRole('listitem').count()).toBe(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Not on this device' }).click();
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('heading', { name: /Asha$/ }).waitFor();
    await signOutFromMenu();

    // The code of the next step (one step of drift is allowed; the set-up's code is spent).
    await signIn(page, 'asha@rao.test', 'Better#2027');
    await page.getByLabel('Authentication code').fill(codeAt(secret, 30_000));
    await screenshot(page, 'auth-mfa-code');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Remember this device' }).click();
    await page.waitForURL(`${app.url}/`);
    await signOutFromMenu();

    // Remembered: the password alone signs in on this browser.
    await signIn(page, 'asha@rao.test', 'Better#2027');
    await page.waitForURL(`${app.url}/`);
    await page.getByRole('heading', { name: /Asha$/ }).waitFor();

    // The owner lifts the rule in Firm settings, then turns two-step sign-in off under Security.
    await page.goto(`${app.url}/admin/settings/org#security`);
    const rule = page.getByRole('region', { name: 'Security' });
    await rule.getByRole('combobox', { name: 'Two-step sign-in' }).click();
    await page.getByRole('option', { name: 'Not required' }).click();
    await rule.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText('Two-step sign-in rule saved').waitFor();
    await page.goto(`${app.url}/my-account/security`);
    const mfa = page.getByRole('region', { name: 'Two-step sign-in' });
    await mfa.getByText('On', { exact: true }).waitFor();
    await mfa.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Turn off' }).click();
    await page.getByText('Two-step sign-in is off').waitFor();
    await mfa.getByText('Off', { exact: true }).waitFor();
    expect(console.errors).toEqual([]);
    await context.close();
  });
});
