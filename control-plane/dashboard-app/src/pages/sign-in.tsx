/** Sign-in with email and password; a 429 says when to try again. */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ErrorNotice } from '../ui/notice.tsx';

/** Where to go after signing in: only a local path (never another origin). */
export function nextPath(): string {
  const next = new URLSearchParams(location.search).get('next') ?? '';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/projects';
}

export function SignInPage({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = useSubmit(async () => {
    await api('POST', '/auth/sign-in', { email, password });
    await onSignedIn();
  });
  return (
    <AuthFrame title="Sign in to Folio">
      {nextPath() === '/accept-invite' && <p>Sign in with the invited address; you will then come back to accept the invitation.</p>}
      <form onSubmit={submitWith(submit.run)} noValidate>
        <ErrorNotice error={submit.error} />
        <Field label="Email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button type="submit" disabled={submit.pending}>{submit.pending ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <p class="muted">No account yet? Ask an owner or admin of your organization for an invitation link.</p>
    </AuthFrame>
  );
}

/** The centered card of the signed-out pages. */
export function AuthFrame({ title, children }: { title: string; children: preact.ComponentChildren }) {
  return (
    <main id="main" class="auth">
      <div class="card">
        <p class="brand">Folio</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
