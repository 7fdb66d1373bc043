/**
 * Sign-in with email and password (a 429 says when to try again), or "Continue with SSO": the
 * email's domain picks the organization's identity provider, and the browser goes there. A
 * failed SSO sign-in comes back here with `?sso_error=<code>`, shown as its message.
 */
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.ts';
import { ssoErrorFromUrl } from '../sso-errors.ts';
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
  const sso = useSubmit(async () => {
    if (!email.trim()) throw new ApiError(400, 'invalid_request', 'Enter your work email first; its domain says where to sign in.');
    const { redirect_url } = await api<{ redirect_url: string }>('POST', '/auth/sso/start', { email });
    location.assign(redirect_url);
    // Keep the button busy while the browser leaves.
    await new Promise(() => undefined);
  });
  const ssoError = ssoErrorFromUrl();
  return (
    <AuthFrame title="Sign in to Folio">
      {nextPath() === '/accept-invite' && <p>Sign in with the invited address; you will then come back to accept the invitation.</p>}
      <form onSubmit={submitWith(submit.run)} noValidate>
        <ErrorNotice error={submit.error} />
        <Field label="Email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <button type="submit" disabled={submit.pending}>{submit.pending ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <div class="sso">
        <p class="muted">Or, if your organization uses single sign-on:</p>
        {ssoError && !sso.error && <div class="notice error" role="alert"><p>{ssoError}</p></div>}
        <ErrorNotice error={sso.error} />
        <button type="button" class="secondary" onClick={() => sso.run()} disabled={sso.pending}>{sso.pending ? 'Redirecting…' : 'Continue with SSO'}</button>
      </div>
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
