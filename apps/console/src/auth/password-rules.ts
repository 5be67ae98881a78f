// The password rule of docs/console.md (12 to 200 characters), checked before the link is used up so a
// mistake costs the user nothing; the server checks it again.

export const minPasswordLength = 12;
export const maxPasswordLength = 200;

/** Why the new password cannot be used, or undefined when it can. */
export function passwordProblem(password: string, confirmation: string): string | undefined {
  if (password.length < minPasswordLength)
    return `The password needs at least ${minPasswordLength} characters.`;
  if (password.length > maxPasswordLength)
    return `The password can have at most ${maxPasswordLength} characters.`;
  if (password !== confirmation) return 'The two passwords differ.';
  return undefined;
}
