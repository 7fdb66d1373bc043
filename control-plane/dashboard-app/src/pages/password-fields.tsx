/** New password and its confirmation, checked before sending (the server checks again). */
import { Field } from '../ui/form.tsx';

/** The minimum the dashboard asks for; the server's rule decides in the end. */
export const MIN_PASSWORD = 10;

/** Why the pair cannot be used, or undefined. */
export function passwordProblem(password: string, confirm: string): string | undefined {
  if (password.length < MIN_PASSWORD) return `Use at least ${MIN_PASSWORD} characters.`;
  if (password !== confirm) return 'The two passwords differ.';
  return undefined;
}

export function PasswordFields(p: { password: string; confirm: string; setPassword(v: string): void; setConfirm(v: string): void; error?: string }) {
  return (
    <>
      <Field label="New password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD} hint={`At least ${MIN_PASSWORD} characters.`} value={p.password} onInput={(e) => p.setPassword(e.currentTarget.value)} />
      <Field label="Repeat the password" type="password" autoComplete="new-password" required value={p.confirm} error={p.error} onInput={(e) => p.setConfirm(e.currentTarget.value)} />
    </>
  );
}
