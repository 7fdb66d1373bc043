/**
 * Members: who is in the organization, their roles, pending invitations, and inviting by link.
 * Past the plan's `max_dashboard_members` (pending invitations count) the server answers 402 and
 * the page shows its message with the upgrade link.
 */
import { useState } from 'preact/hooks';
import { api, items } from '../api.ts';
import { canManage, useSession, type Role } from '../session.ts';
import { CopyField } from '../ui/copy-button.tsx';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { formatDate } from '../ui/format.ts';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

interface Member { user_id: string; email: string; name: string; role: Role; joined_at?: string }
interface Invitation { id: string; email: string; role: Role; expires_at: string; invite_url?: string }

const memberId = (m: Member) => m.user_id;

export function MembersPage() {
  const { session } = useSession();
  const members = useLoad(async () => items<Member>(await api('GET', '/members')), []);
  const manage = canManage(session.role);
  const invitations = useLoad(async () => (manage ? items<Invitation>(await api('GET', '/invitations')) : []), [manage]);
  return (
    <>
      <h1>Members</h1>
      <p class="lead">Everyone reads projects, deployments, domains, analytics and the plan, and can redeploy. Admins also manage API keys, projects and custom domains, invite people and remove members. Owners also change roles; an organization always keeps one owner.</p>
      {manage && <Invite onInvited={invitations.reload} />}
      <section aria-labelledby="members-title">
        <h2 id="members-title">People</h2>
        <ErrorNotice error={members.error} />
        {members.loading && !members.data ? <Loading /> : (
          <ul class="rows">
            {members.data?.map((m) => <MemberRow key={memberId(m)} m={m} self={memberId(m) === session.user.id} manage={manage} isOwner={session.role === 'owner'} onChange={members.reload} />)}
          </ul>
        )}
      </section>
      {manage && (
        <section aria-labelledby="invites-title">
          <h2 id="invites-title">Pending invitations</h2>
          <ErrorNotice error={invitations.error} />
          {invitations.data?.length === 0 ? <p class="muted">None.</p> : (
            <ul class="rows">
              {invitations.data?.map((i) => <InvitationRow key={i.id} i={i} onChange={invitations.reload} />)}
            </ul>
          )}
        </section>
      )}
    </>
  );
}

function Invite({ onInvited }: { onInvited(): Promise<void> }) {
  const { session } = useSession();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [link, setLink] = useState<{ email: string; url: string }>();
  const submit = useSubmit(async () => {
    setLink(undefined);
    const out = await api<{ invite_url: string }>('POST', '/invitations', { email, role });
    setLink({ email, url: out.invite_url });
    setEmail('');
    await onInvited();
  });
  return (
    <section class="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form onSubmit={submitWith(submit.run)}>
        <ErrorNotice error={submit.error} />
        <Field label="Email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value.trim())} />
        <div class="field">
          <label for="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            {session.role === 'owner' && <option value="owner">Owner</option>}
          </select>
        </div>
        <button type="submit" disabled={submit.pending || !email}>Create invitation link</button>
      </form>
      {link && (
        <>
          <Notice tone="success">Send this link to {link.email}; it works once.</Notice>
          <CopyField label="Invitation link" value={link.url} />
        </>
      )}
    </section>
  );
}

function MemberRow({ m, self, manage, isOwner, onChange }: { m: Member; self: boolean; manage: boolean; isOwner: boolean; onChange(): Promise<void> }) {
  const path = `/members/${encodeURIComponent(memberId(m))}`;
  const setRole = useSubmit(async (role: Role) => { await api('PATCH', path, { role }); await onChange(); });
  const remove = useSubmit(async () => {
    if (!confirm(`Remove ${m.email} from the organization? Their sessions end at once.`)) return;
    await api('DELETE', path);
    await onChange();
  });
  // Only owners change roles; nobody changes their own role here (an owner cannot lock themselves out).
  // Owners remove anyone; admins remove members only (the server enforces the same).
  const editable = isOwner && !self;
  const removable = !self && (isOwner || (manage && m.role === 'member'));
  return (
    <li class="row">
      <div class="row-main">
        <strong>{m.name || m.email}</strong> {self && <span class="muted">(you)</span>}
        <p class="muted">{m.email}{m.joined_at ? ` · joined ${formatDate(m.joined_at)}` : ''}</p>
        <ErrorNotice error={setRole.error ?? remove.error} />
      </div>
      <div class="row-actions">
        {editable ? (
          <>
            <label class="sr-only" for={`role-${memberId(m)}`}>Role of {m.email}</label>
            <select id={`role-${memberId(m)}`} value={m.role} onChange={(e) => setRole.run(e.currentTarget.value as Role)}>
              <option value="member">member</option><option value="admin">admin</option><option value="owner">owner</option>
            </select>
          </>
        ) : <span class="badge">{m.role}</span>}
        {removable && <button type="button" class="danger" onClick={() => remove.run()}>Remove</button>}
      </div>
    </li>
  );
}

function InvitationRow({ i, onChange }: { i: Invitation; onChange(): Promise<void> }) {
  const revoke = useSubmit(async () => { await api('DELETE', `/invitations/${encodeURIComponent(i.id)}`); await onChange(); });
  return (
    <li class="row">
      <div class="row-main">
        <strong>{i.email}</strong> <span class="badge">{i.role}</span>
        <p class="muted">expires {formatDate(i.expires_at)}</p>
        <ErrorNotice error={revoke.error} />
      </div>
      <div class="row-actions"><button type="button" class="secondary" onClick={() => revoke.run()}>Revoke</button></div>
    </li>
  );
}
