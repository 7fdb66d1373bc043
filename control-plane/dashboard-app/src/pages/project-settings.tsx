/**
 * Project settings: name and branch, slug rename (with what it changes), the managed repository's
 * push URL with a first-push recipe, sign-in for readers, chat notifications, and deletion confirmed by typing the slug.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { navigate } from '../router.ts';
import { can, useSession } from '../session.ts';
import { CopyField } from '../ui/copy-button.tsx';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ChatNotifications } from './chat-notifications.tsx';
import { ReaderSignIn } from './reader-sign-in.tsx';
import { ProjectTabs } from '../ui/layout.tsx';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { SlugField, type SlugCheck } from '../ui/slug-field.tsx';
import { useProject } from '../ui/use-project.ts';
import type { Project } from '../ui/use-project.ts';

export function ProjectSettingsPage({ id }: { id: string }) {
  const project = useProject(id);
  const p = project.data;
  if (!p) return project.error ? <ErrorNotice error={project.error} /> : <Loading />;
  return (
    <>
      <ProjectTabs id={id} name={p.name} current="settings" />
      <h1>Settings</h1>
      {p.site_url && <p>Site: <a href={p.site_url} target="_blank" rel="noopener noreferrer">{p.site_url}</a></p>}
      {!p.github_repo && p.git_url && <PushRecipe gitUrl={p.git_url} branch={p.github_branch ?? 'main'} />}
      <GeneralForm p={p} onSaved={project.reload} />
      <SlugForm p={p} onSaved={project.reload} />
      <ReaderSignIn projectId={p.id} siteUrl={p.site_url} />
      <ChatNotifications projectId={p.id} />
      <DeleteProject p={p} />
    </>
  );
}

function PushRecipe({ gitUrl, branch }: { gitUrl: string; branch: string }) {
  const recipe = [
    'mkdir my-docs && cd my-docs && git init -b ' + branch,
    "printf '{\\n  \"name\": \"My docs\"\\n}\\n' > docs.json",
    "mkdir -p docs && printf -- '---\\ntitle: Welcome\\n---\\n\\n# Welcome\\n' > docs/index.mdx",
    'git add -A && git commit -m "First page"',
    `git remote add origin ${gitUrl}`,
    `git push -u origin ${branch}`,
  ].join('\n');
  return (
    <section class="panel" aria-labelledby="repo-title">
      <h2 id="repo-title">Managed repository</h2>
      <p>Push to this URL and Folio deploys the branch <code>{branch}</code>. When Git asks, the user name is <code>git</code> and the password is an API key with <code>projects:write</code> (pushing changes the project's content; <code>projects:read</code> is enough to clone or fetch; create one under <a href="/settings/api-keys">API keys</a>).</p>
      <CopyField label="Clone and push URL" value={gitUrl} />
      <CopyField label="First push" value={recipe} multiline />
    </section>
  );
}

function GeneralForm({ p, onSaved }: { p: Project; onSaved(): Promise<void> }) {
  const { session } = useSession();
  const [name, setName] = useState(p.name);
  const [branch, setBranch] = useState(p.github_branch ?? '');
  const [saved, setSaved] = useState(false);
  const submit = useSubmit(async () => {
    await api('PATCH', `/projects/${encodeURIComponent(p.id)}`, { name, ...(branch ? { github_branch: branch } : {}) });
    setSaved(true);
    await onSaved();
  });
  return (
    <section class="panel" aria-labelledby="general-title">
      <h2 id="general-title">General</h2>
      <form onSubmit={submitWith(submit.run)} onInput={() => setSaved(false)}>
        <ErrorNotice error={submit.error} />
        {saved && <Notice tone="success">Saved.</Notice>}
        <Field label="Name" required maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Branch" value={branch} placeholder="main" hint="Pushes to this branch deploy the site." onInput={(e) => setBranch(e.currentTarget.value.trim())} />
        <button type="submit" disabled={!can(session, 'projects.write') || submit.pending || !name.trim()}>Save</button>
      </form>
    </section>
  );
}

function SlugForm({ p, onSaved }: { p: Project; onSaved(): Promise<void> }) {
  const { session } = useSession();
  const [slug, setSlug] = useState(p.slug);
  const [check, setCheck] = useState<SlugCheck>();
  const submit = useSubmit(async () => {
    if (!confirm(`Rename the slug from “${p.slug}” to “${slug}”? The old address stops working.`)) return;
    await api('PATCH', `/projects/${encodeURIComponent(p.id)}`, { slug });
    await onSaved();
  });
  return (
    <section class="panel" aria-labelledby="slug-title">
      <h2 id="slug-title">Rename the slug</h2>
      <p>Renaming changes:</p>
      <ul>
        <li>the site address, at once{slug && slug !== p.slug ? <>: <code>{p.slug}</code> becomes <code>{slug}</code></> : ''}; the old address stops answering (no redirect) and its slug is free for anyone to take;</li>
        <li>the managed repository's push URL: point your clone at the new one with <code>git remote set-url origin</code>;</li>
        <li>a published site is deployed again, so its absolute links and sitemap use the new address;</li>
        <li>nothing else: custom domains, pages, deployment history, analytics and API keys stay as they are.</li>
      </ul>
      <form onSubmit={submitWith(submit.run)}>
        <ErrorNotice error={submit.error} />
        <SlugField label="New slug" value={slug} current={p.slug} onInput={setSlug} onCheck={setCheck} />
        <button type="submit" disabled={!can(session, 'projects.write') || submit.pending || slug === p.slug || !check?.available}>Rename</button>
      </form>
    </section>
  );
}

function DeleteProject({ p }: { p: Project }) {
  const { session } = useSession();
  const [typed, setTyped] = useState('');
  const submit = useSubmit(async () => {
    await api('DELETE', `/projects/${encodeURIComponent(p.id)}`);
    navigate('/projects');
  });
  return (
    <section class="panel danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete the project</h2>
      <p>The site goes offline and its pages, deployments and managed repository are deleted. This cannot be undone.</p>
      <form onSubmit={submitWith(submit.run)}>
        <ErrorNotice error={submit.error} />
        <Field label={`Type ${p.slug} to confirm`} autoCapitalize="none" spellcheck={false} value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
        <button type="submit" class="danger" disabled={!can(session, 'projects.write') || typed !== p.slug || submit.pending}>Delete project</button>
      </form>
    </section>
  );
}
