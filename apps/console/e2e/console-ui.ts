// How a person uses the console, in the selectors apps/console/README.md promises (accessible names and
// data-testids): opening a one-time link and setting a password, signing in, moving between screens,
// confirming the password when a change asks for it again or a change that cannot be undone, closing a
// shown-once dialog.

import type { Locator, Page } from 'playwright-core';

/** The side navigation's link to a screen, e.g. `Transactions` or `Audit log`. */
export function navLink(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name, exact: true });
}

export async function goToScreen(page: Page, name: string): Promise<void> {
  await navLink(page, name).click();
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** Waits until the header shows who is signed in, and returns their role as shown. */
export async function signedInRole(page: Page, email: string): Promise<string> {
  const shownEmail = page.getByTestId('user-email');
  await shownEmail.waitFor();
  const text = await shownEmail.textContent();
  if (text !== email)
    throw new Error(`The header shows ${text ?? '(nothing)'} signed in instead of ${email}`);
  return (await page.getByTestId('user-role').textContent()) ?? '';
}

/** Opens a one-time sign-in link, checks whose it is, sets the password and waits to be signed in. */
export async function setPasswordWithLink(
  page: Page,
  url: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(url);
  const shownEmail = page.getByTestId('link-email');
  await shownEmail.waitFor();
  const text = await shownEmail.textContent();
  if (text !== email) throw new Error(`The link page is for ${text ?? '(nobody)'} instead of ${email}`);
  const form = page.getByRole('form', { name: 'Set password' });
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Confirm password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Set password' }).click();
  await signedInRole(page, email);
}

/** The sign-in form, which replaces any screen while nobody is signed in. */
export function signInForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Sign in' });
}

/** Signs in on the sign-in screen already shown and waits for the signed-in header. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  const form = signInForm(page);
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await signedInRole(page, email);
}

/**
 * After pressing a button whose change may need the password again: enters it when the password dialog
 * opens, then waits for `outcome`. Resolves whether the dialog was shown.
 */
export async function confirmPasswordIfAsked(
  page: Page,
  password: string,
  outcome: Locator,
): Promise<boolean> {
  const dialog = page.getByTestId('reauthenticate-dialog');
  await outcome.or(dialog).first().waitFor();
  if (!(await dialog.isVisible())) return false;
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Confirm password' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await outcome.waitFor();
  return true;
}

/** Reads the value of the open shown-once dialog and closes it with `Done`. */
export async function takeShownOnceValue(page: Page): Promise<string> {
  const dialog = page.getByTestId('shown-once-dialog');
  await dialog.waitFor();
  const value = await dialog.getByTestId('shown-once-value').inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return value;
}

/** Answers the open "are you sure?" dialog of a change that cannot be undone with `Confirm`. */
export async function confirmChange(page: Page): Promise<void> {
  const dialog = page.getByTestId('confirm-dialog');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'hidden' });
}
