/**
 * The one-time owner link `npm start` prints on first start (`/claim#token=...`): the owner sets
 * an email and password, and is signed in. The token stays in the fragment, never sent in a URL.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { fragmentParam } from '../router.ts';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ErrorNotice } from '../ui/notice.tsx';
import { AuthFrame } from './sign-in.tsx';
import { PasswordFields, passwordProblem } from './password-fields.tsx';

export function ClaimPage({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const [token] = useState(fragmentParam('token'));
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [checked, setChecked] = useState(false);
  const problem = passwordProblem(password, confirm);
  const submit = useSubmit(async () => {
    await api('POST', '/auth/claim', { token, email, ...(name.trim() ? { name: name.trim() } : {}), password });
    history.replaceState(null, '', location.pathname);
    await onSignedIn();
  });
  if (!token) {
    return <AuthFrame title="Claim your organization"><p>This link has no token. Use the full link printed by <code>npm start</code> on the first start.</p></AuthFrame>;
  }
  return (
    <AuthFrame title="Claim your organization">
      <p>Set the email and password of the organization's owner. This link works once.</p>
      <form onSubmit={submitWith(() => { setChecked(true); if (!problem) return submit.run(); })} noValidate>
        <ErrorNotice error={submit.error} />
        <Field label="Your name (optional)" autoComplete="name" maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <PasswordFields password={password} confirm={confirm} setPassword={setPassword} setConfirm={setConfirm} error={checked ? problem : undefined} />
        <button type="submit" disabled={submit.pending}>Set password and sign in</button>
      </form>
    </AuthFrame>
  );
}
