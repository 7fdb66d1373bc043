/**
 * Accepting an invitation link (`/accept-invite#token=...`). The page first asks what the link is
 * for (`POST /auth/invitation`):
 *
 * - a new address: name and password, and the new member is signed in;
 * - an address that already has an account: the server never takes its password here. Signed
 *   out, the page sends the person to sign in (keeping the token in this tab's sessionStorage,
 *   never in a URL) and brings them back; signed in as that account, one click joins.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.ts';
import { fragmentParam, navigate } from '../router.ts';
import type { Session } from '../session.ts';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ErrorNotice, Loading } from '../ui/notice.tsx';
import { AuthFrame } from './sign-in.tsx';
import { PasswordFields, passwordProblem } from './password-fields.tsx';

/** What `POST /auth/invitation` answers. */
interface InvitationLink {
  email: string;
  role: string;
  organization: { name: string };
  account_exists: boolean;
  expires_at: string;
}

/** Where the token waits while its holder signs in (this tab only). */
const PENDING_TOKEN = 'folio.pending-invitation';

function pendingToken(): string {
  try { return sessionStorage.getItem(PENDING_TOKEN) ?? ''; } catch { return ''; }
}

function keepPendingToken(token: string | undefined): void {
  try {
    if (token) sessionStorage.setItem(PENDING_TOKEN, token);
    else sessionStorage.removeItem(PENDING_TOKEN);
  } catch { /* storage blocked: the person opens the link again after signing in */ }
}

/** Goes to sign-in, coming back here afterwards. */
function signInFirst(token: string): void {
  keepPendingToken(token);
  navigate('/sign-in?next=%2Faccept-invite');
}

const TITLE = 'Join your team';

export function AcceptInvitePage({ session, onSignedIn }: { session: Session | null | undefined; onSignedIn(): Promise<void> }) {
  const [token] = useState(() => fragmentParam('token') || pendingToken());
  const [link, setLink] = useState<InvitationLink>();
  const [linkError, setLinkError] = useState<ApiError>();
  useEffect(() => {
    if (!token) return;
    api<InvitationLink>('POST', '/auth/invitation', { token }).then(setLink, (err: unknown) => {
      keepPendingToken(undefined);
      setLinkError(err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));
    });
  }, [token]);
  const joined = async () => {
    keepPendingToken(undefined);
    history.replaceState(null, '', location.pathname);
    await onSignedIn();
  };

  if (!token) return <AuthFrame title={TITLE}><p>This invitation link has no token. Ask for a new link.</p></AuthFrame>;
  if (linkError) return <AuthFrame title={TITLE}><ErrorNotice error={linkError} /></AuthFrame>;
  if (!link || session === undefined) return <AuthFrame title={TITLE}><Loading /></AuthFrame>;
  const intro = <p>You are invited to <strong>{link.organization.name}</strong> as {link.role === 'admin' ? 'an' : 'a'} {link.role}, with the address <strong>{link.email}</strong>.</p>;
  if (!link.account_exists) return <NewAccountForm token={token} intro={intro} session={session} onJoined={joined} />;
  if (session && session.user.email === link.email) return <JoinSignedIn token={token} intro={intro} onJoined={joined} />;
  if (session) return <SwitchAccount token={token} intro={intro} session={session} />;
  return (
    <AuthFrame title={TITLE}>
      {intro}
      <p>An account exists for this address. Sign in to it first; you will come back here to accept.</p>
      <button type="button" onClick={() => signInFirst(token)}>Sign in to accept</button>
    </AuthFrame>
  );
}

type Step = { token: string; intro: preact.ComponentChildren };

/** Signed in as the invited account: one click. */
function JoinSignedIn({ token, intro, onJoined }: Step & { onJoined(): Promise<void> }) {
  const submit = useSubmit(async () => {
    await api('POST', '/auth/accept-invite', { token });
    await onJoined();
  });
  return (
    <AuthFrame title={TITLE}>
      {intro}
      <form onSubmit={submitWith(submit.run)} noValidate>
        <ErrorNotice error={submit.error} />
        <button type="submit" disabled={submit.pending}>Accept invitation</button>
      </form>
    </AuthFrame>
  );
}

/** Signed in as another account: sign out, then sign in as the invited one. */
function SwitchAccount({ token, intro, session }: Step & { session: Session }) {
  const submit = useSubmit(async () => {
    await api('POST', '/auth/sign-out');
    keepPendingToken(token);
    // A fresh load: the app forgets the session it had.
    location.assign('/sign-in?next=%2Faccept-invite');
  });
  return (
    <AuthFrame title={TITLE}>
      {intro}
      <p>You are signed in as {session.user.email}. Sign in as the invited address to accept.</p>
      <form onSubmit={submitWith(submit.run)} noValidate>
        <ErrorNotice error={submit.error} />
        <button type="submit" disabled={submit.pending}>Sign out and switch account</button>
      </form>
    </AuthFrame>
  );
}

/** A new address: choose a name and a password. */
function NewAccountForm({ token, intro, session, onJoined }: Step & { session: Session | null; onJoined(): Promise<void> }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [checked, setChecked] = useState(false);
  const problem = passwordProblem(password, confirm);
  const submit = useSubmit(async () => {
    await api('POST', '/auth/accept-invite', { token, name, password });
    await onJoined();
  });
  return (
    <AuthFrame title={TITLE}>
      {intro}
      {session && <p class="muted">This creates a new account and signs you out of {session.user.email}.</p>}
      <form onSubmit={submitWith(() => { setChecked(true); if (!problem) return submit.run(); })} noValidate>
        <ErrorNotice error={submit.error} />
        <Field label="Your name" autoComplete="name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <PasswordFields password={password} confirm={confirm} setPassword={setPassword} setConfirm={setConfirm} error={checked ? problem : undefined} />
        <button type="submit" disabled={submit.pending}>Join and sign in</button>
      </form>
    </AuthFrame>
  );
}
