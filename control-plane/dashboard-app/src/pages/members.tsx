/**
 * Members: who is in the organization, their roles (built-in and custom, plus what SCIM groups
 * add), pending invitations, and inviting by link. What a member may change follows their
 * permissions (`GET /session`), the server's rule: invite and give only roles within one's own
 * permissions; `members.manage` changes roles; only owners touch owners. Past the plan's
 * `max_dashboard_members` (pending invitations count) the server answers 402 and the page shows
 * its message with the upgrade link.
 */
import { useState } from 'preact/hooks';
import { api, items } from '../api.ts';
import { canGrant, loadRoles, permissionsOf, roleName, type RoleDefinition } from '../roles.ts';
import { can, useSession, type Role, type Session } from '../session.ts';
import { CopyField } from '../ui/copy-button.tsx';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { formatDate } from '../ui/format.ts';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

interface Member { user_id: string; email: string; name: string; role: Role; joined_at?: string; active?: boolean; group_roles?: Role[] }
interface Invitation { id: string; email: string; role: Role; expires_at: string; invite_url?: string }

const memberId = (m: Member) => m.user_id;

export function MembersPage() {
  const { session } = useSession();
  const members = useLoad(async () => items<Member>(await api('GET', '/members')), []);
  const roles = useLoad(async () => (await loadRoles()).data, []);
  const invite = can(session, 'members.invite');
  const invitations = useLoad(async () => (invite ? items<Invitation>(await api('GET', '/invitations')) : []), [invite]);
  return (
    <>
      <h1>Members</h1>
      <p class="lead">Viewers read projects, deployments, domains, analytics and the plan; editors also redeploy and edit content. Admins also manage API keys, projects, custom domains and settings, invite people and remove members below them. Owners also change roles, custom roles and single sign-on; an organization always keeps one owner. <a href="/settings/roles">What each role may do</a></p>
      {invite && <Invite roles={roles.data} onInvited={invitations.reload} />}
      <section aria-labelledby="members-title">
        <h2 id="members-title">People</h2>
        <ErrorNotice error={members.error ?? roles.error} />
        {members.loading && !members.data ? <Loading /> : (
          <ul class="rows">
            {members.data?.map((m) => <MemberRow key={memberId(m)} m={m} self={memberId(m) === session.user.id} session={session} roles={roles.data} onChange={members.reload} />)}
          </ul>
        )}
      </section>
      {invite && (
        <section aria-labelledby="invites-title">
          <h2 id="invites-title">Pending invitations</h2>
          <ErrorNotice error={invitations.error} />
          {invitations.data?.length === 0 ? <p class="muted">None.</p> : (
            <ul class="rows">
              {invitations.data?.map((i) => <InvitationRow key={i.id} i={i} roles={roles.data} onChange={invitations.reload} />)}
            </ul>
          )}
        </section>
      )}
    </>
  );
}

/** The roles `session` may give, owner first. */
function grantable(session: Session, roles: RoleDefinition[] | undefined): RoleDefinition[] {
  return (roles ?? []).filter((r) => canGrant(session, r));
}

function Invite({ roles, onInvited }: { roles: RoleDefinition[] | undefined; onInvited(): Promise<void> }) {
  const { session } = useSession();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [link, setLink] = useState<{ email: string; url: string }>();
  const submit = useSubmit(async () => {
    setLink(undefined);
    const out = await api<{ invite_url: string }>('POST', '/invitations', { email, role });
    setLink({ email, url: out.invite_url });
    setEmail('');
    await onInvited();
  });
  const options = grantable(session, roles);
  return (
    <section class="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form onSubmit={submitWith(submit.run)}>
        <ErrorNotice error={submit.error} />
        <Field label="Email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value.trim())} />
        <div class="field">
          <label for="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value)}>
            {(options.length ? options : [{ id: 'editor', name: 'Editor' }]).map((r) => <option key={r.id} value={r.id}>{r.name}</option>)}
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

/** Whether `session` may remove `m` (the server's rule, for hiding the button). */
function mayRemove(session: Session, roles: RoleDefinition[] | undefined, m: Member): boolean {
  if (session.role === 'owner') return true;
  if (m.role === 'owner') return false;
  if (can(session, 'members.manage')) return true;
  if (!can(session, 'members.invite')) return false;
  const target = permissionsOf(roles, m.role);
  return target.every((p) => session.permissions.includes(p)) && target.length < session.permissions.length;
}

function MemberRow({ m, self, session, roles, onChange }: { m: Member; self: boolean; session: Session; roles: RoleDefinition[] | undefined; onChange(): Promise<void> }) {
  const path = `/members/${encodeURIComponent(memberId(m))}`;
  const setRole = useSubmit(async (role: Role) => { await api('PATCH', path, { role }); await onChange(); });
  const remove = useSubmit(async () => {
    if (!confirm(`Remove ${m.email} from the organization? Their sessions end at once.`)) return;
    await api('DELETE', path);
    await onChange();
  });
  // Nobody changes their own role here (an owner cannot lock themselves out); owners' roles only by owners.
  const editable = !self && can(session, 'members.manage') && (m.role !== 'owner' || session.role === 'owner');
  const options = grantable(session, roles);
  return (
    <li class="row">
      <div class="row-main">
        <strong>{m.name || m.email}</strong> {self && <span class="muted">(you)</span>} {m.active === false && <span class="badge">suspended</span>}
        <p class="muted">{m.email}{m.joined_at ? ` · joined ${formatDate(m.joined_at)}` : ''}</p>
        {m.group_roles?.length ? <p class="muted">Also through SCIM groups: {m.group_roles.map((r) => roleName(roles, r)).join(', ')}</p> : null}
        <ErrorNotice error={setRole.error ?? remove.error} />
      </div>
      <div class="row-actions">
        {editable ? (
          <>
            <label class="sr-only" for={`role-${memberId(m)}`}>Role of {m.email}</label>
            <select id={`role-${memberId(m)}`} value={m.role} onChange={(e) => setRole.run(e.currentTarget.value)}>
              {!options.some((r) => r.id === m.role) && <option value={m.role} disabled>{roleName(roles, m.role)}</option>}
              {options.map((r) => <option key={r.id} value={r.id}>{r.name}</option>)}
            </select>
          </>
        ) : <span class="badge">{roleName(roles, m.role)}</span>}
        {!self && mayRemove(session, roles, m) && <button type="button" class="danger" onClick={() => remove.run()}>Remove</button>}
      </div>
    </li>
  );
}

function InvitationRow({ i, roles, onChange }: { i: Invitation; roles: RoleDefinition[] | undefined; onChange(): Promise<void> }) {
  const revoke = useSubmit(async () => { await api('DELETE', `/invitations/${encodeURIComponent(i.id)}`); await onChange(); });
  return (
    <li class="row">
      <div class="row-main">
        <strong>{i.email}</strong> <span class="badge">{roleName(roles, i.role)}</span>
        <p class="muted">expires {formatDate(i.expires_at)}</p>
        <ErrorNotice error={revoke.error} />
      </div>
      <div class="row-actions"><button type="button" class="secondary" onClick={() => revoke.run()}>Revoke</button></div>
    </li>
  );
}
