/**
 * Roles: what each built-in role may do, custom roles (enterprise: `custom_roles`), and the
 * role each SCIM group carries. Creating, editing and mapping need `roles.manage`; a custom role
 * can hold only permissions the editor holds (the server refuses the rest, so those boxes are
 * disabled here). Without `custom_roles` the page says which plan has it.
 */
import { useState } from 'preact/hooks';
import { api, items, type ApiError } from '../api.ts';
import { canGrant, loadRoles, roleName, type RoleDefinition, type RoleList } from '../roles.ts';
import { can, useSession, type Permission, type Role } from '../session.ts';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

interface ScimGroup { id: string; display_name: string; external_id: string | null; members: number; role: Role | null }
interface PlanFeatures { features: Record<string, { type: string; enabled?: boolean }>; upgrade_url?: string }

export function RolesPage() {
  const { session } = useSession();
  const roles = useLoad(loadRoles, []);
  const plan = useLoad(() => api<PlanFeatures>('GET', '/plan'), []);
  const groups = useLoad(async () => items<ScimGroup>(await api('GET', '/scim-groups')), []);
  const manage = can(session, 'roles.manage');
  const enabled = plan.data?.features.custom_roles?.enabled === true;
  const list = roles.data;
  return (
    <>
      <h1>Roles</h1>
      <p class="lead">A role is a set of permissions. Every plan has Owner, Admin, Editor and Viewer; the Enterprise plan adds custom roles. A change applies on each member's next request.</p>
      <ErrorNotice error={roles.error ?? plan.error} />
      {!list ? <Loading /> : (
        <>
          <section aria-labelledby="roles-title">
            <h2 id="roles-title">Roles and their permissions</h2>
            <ul class="rows">
              {list.data.map((r) => <RoleRow key={r.id} role={r} list={list} editable={manage && enabled && !r.built_in && canGrant(session, r)} onChange={roles.reload} />)}
            </ul>
          </section>
          {!enabled && plan.data && <Notice tone="info">Custom roles come with the Enterprise plan. {plan.data.upgrade_url ? <a href={plan.data.upgrade_url}>Upgrade your plan</a> : null}</Notice>}
          {manage && enabled && <RoleForm list={list} onSaved={roles.reload} />}
          <Groups groups={groups.data} error={groups.error} roles={list.data} manage={manage} onChange={groups.reload} />
        </>
      )}
    </>
  );
}

function RoleRow({ role, list, editable, onChange }: { role: RoleDefinition; list: RoleList; editable: boolean; onChange(): Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const remove = useSubmit(async () => {
    if (!confirm(`Delete the role ${role.name}?`)) return;
    await api('DELETE', `/roles/${encodeURIComponent(role.id)}`);
    await onChange();
  });
  return (
    <li class="row">
      <div class="row-main">
        <strong>{role.name}</strong> {role.built_in ? <span class="badge">built-in</span> : <span class="badge">custom</span>}
        {role.description && <p class="muted">{role.description}</p>}
        <p class="muted">{role.permissions.length ? role.permissions.join(', ') : 'No permissions'}</p>
        <ErrorNotice error={remove.error} />
        {editing && <RoleForm list={list} role={role} onSaved={async () => { setEditing(false); await onChange(); }} />}
      </div>
      {editable && (
        <div class="row-actions">
          <button type="button" class="secondary" onClick={() => setEditing(!editing)}>{editing ? 'Cancel' : 'Edit'}</button>
          <button type="button" class="danger" onClick={() => remove.run()}>Delete</button>
        </div>
      )}
    </li>
  );
}

function RoleForm({ list, role, onSaved }: { list: RoleList; role?: RoleDefinition; onSaved(): Promise<void> }) {
  const { session } = useSession();
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [chosen, setChosen] = useState<Set<Permission>>(new Set(role?.permissions ?? []));
  const save = useSubmit(async () => {
    const body = { name, description, permissions: [...chosen] };
    if (role) await api('PATCH', `/roles/${encodeURIComponent(role.id)}`, body);
    else await api('POST', '/roles', body);
    if (!role) { setName(''); setDescription(''); setChosen(new Set()); }
    await onSaved();
  });
  const toggle = (p: Permission) => setChosen((prev) => { const next = new Set(prev); if (next.has(p)) next.delete(p); else next.add(p); return next; });
  const prefix = role ? `edit-${role.id}` : 'new-role';
  return (
    <section class="panel" aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{role ? `Edit ${role.name}` : 'Create a custom role'}</h2>
      <form onSubmit={submitWith(save.run)}>
        <ErrorNotice error={save.error} />
        <Field label="Role name" required maxLength={60} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Description" maxLength={300} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <fieldset>
          <legend>Permissions</legend>
          {list.permissions.map((p) => {
            const held = session.permissions.includes(p.id);
            return (
              <label key={p.id} class="check">
                <input type="checkbox" checked={chosen.has(p.id)} disabled={!held} onChange={() => toggle(p.id)} />
                {' '}<code>{p.id}</code> {p.description}{held ? '' : ' (not yours to grant)'}
              </label>
            );
          })}
        </fieldset>
        <button type="submit" disabled={save.pending || !name.trim()}>{role ? 'Save role' : 'Create role'}</button>
      </form>
    </section>
  );
}

function Groups({ groups, error, roles, manage, onChange }: { groups?: ScimGroup[]; error?: ApiError; roles: RoleDefinition[]; manage: boolean; onChange(): Promise<void> }) {
  const { session } = useSession();
  const options = roles.filter((r) => r.id !== 'owner' && canGrant(session, r));
  return (
    <section aria-labelledby="groups-title">
      <h2 id="groups-title">SCIM groups</h2>
      <p class="muted">Groups your identity provider pushes over SCIM. Members of a group hold its role's permissions on top of their own.</p>
      <ErrorNotice error={error} />
      {!groups ? <Loading /> : groups.length === 0 ? <p class="muted">None yet.</p> : (
        <ul class="rows">
          {groups.map((g) => <GroupRow key={g.id} g={g} roles={roles} options={options} manage={manage} onChange={onChange} />)}
        </ul>
      )}
    </section>
  );
}

function GroupRow({ g, roles, options, manage, onChange }: { g: ScimGroup; roles: RoleDefinition[]; options: RoleDefinition[]; manage: boolean; onChange(): Promise<void> }) {
  const setRole = useSubmit(async (role: string) => { await api('PUT', `/scim-groups/${encodeURIComponent(g.id)}/role`, { role: role || null }); await onChange(); });
  return (
    <li class="row">
      <div class="row-main">
        <strong>{g.display_name}</strong> <span class="muted">{g.members} member{g.members === 1 ? '' : 's'}</span>
        <ErrorNotice error={setRole.error} />
      </div>
      <div class="row-actions">
        {manage ? (
          <>
            <label class="sr-only" for={`group-role-${g.id}`}>Role of the group {g.display_name}</label>
            <select id={`group-role-${g.id}`} value={g.role ?? ''} onChange={(e) => setRole.run(e.currentTarget.value)}>
              <option value="">No role</option>
              {options.map((r) => <option key={r.id} value={r.id}>{r.name}</option>)}
            </select>
          </>
        ) : <span class="badge">{g.role ? roleName(roles, g.role) : 'No role'}</span>}
      </div>
    </li>
  );
}
