/** Accepting an invitation link (`/accept-invite#token=...`): name, password, and the member is signed in. */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { fragmentParam } from '../router.ts';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ErrorNotice } from '../ui/notice.tsx';
import { AuthFrame } from './sign-in.tsx';
import { PasswordFields, passwordProblem } from './password-fields.tsx';

export function AcceptInvitePage({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const [token] = useState(fragmentParam('token'));
  const [name, setName] = useState('');
  const [email, setEmail] = useState(fragmentParam('email'));
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [checked, setChecked] = useState(false);
  const problem = passwordProblem(password, confirm);
  const submit = useSubmit(async () => {
    await api('POST', '/auth/accept-invite', { token, name, ...(email ? { email } : {}), password });
    history.replaceState(null, '', location.pathname);
    await onSignedIn();
  });
  if (!token) return <AuthFrame title="Join your team"><p>This invitation link has no token. Ask for a new link.</p></AuthFrame>;
  return (
    <AuthFrame title="Join your team">
      <form onSubmit={submitWith(() => { setChecked(true); if (!problem) return submit.run(); })} noValidate>
        <ErrorNotice error={submit.error} />
        <Field label="Your name" autoComplete="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Email" type="email" autoComplete="username" hint="Leave empty to use the address the invitation was sent to." value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <PasswordFields password={password} confirm={confirm} setPassword={setPassword} setConfirm={setConfirm} error={checked ? problem : undefined} />
        <button type="submit" disabled={submit.pending}>Join and sign in</button>
      </form>
    </AuthFrame>
  );
}
