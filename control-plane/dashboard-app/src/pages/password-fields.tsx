/** New password and its confirmation, checked before sending (the server checks again). */
import { Field } from '../ui/form.tsx';

/** The minimum the dashboard asks for; the server's rule decides in the end. */
export const MIN_PASSWORD = 10;

/** What is wrong with the pair, and under which of the two fields it is said. */
export interface PasswordProblem { field: 'password' | 'confirm'; message: string }

/** Why the pair cannot be used, or undefined: a short password is the password's problem, a differing repeat the repeat's. */
export function passwordProblem(password: string, confirm: string): PasswordProblem | undefined {
  if (password.length < MIN_PASSWORD) return { field: 'password', message: `Use at least ${MIN_PASSWORD} characters.` };
  if (password !== confirm) return { field: 'confirm', message: 'The two passwords differ.' };
  return undefined;
}

export function PasswordFields(p: { password: string; confirm: string; setPassword(v: string): void; setConfirm(v: string): void; error?: PasswordProblem }) {
  const errorOn = (field: PasswordProblem['field']) => (p.error?.field === field ? p.error.message : undefined);
  return (
    <>
      <Field label="New password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD} hint={`At least ${MIN_PASSWORD} characters.`} value={p.password} error={errorOn('password')} onInput={(e) => p.setPassword(e.currentTarget.value)} />
      <Field label="Repeat the password" type="password" autoComplete="new-password" required value={p.confirm} error={errorOn('confirm')} onInput={(e) => p.setConfirm(e.currentTarget.value)} />
    </>
  );
}
