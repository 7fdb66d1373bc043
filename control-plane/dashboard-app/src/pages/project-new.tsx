/** New project: name, slug (checked live), and either the managed repository or an own `owner/name`. */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { navigate } from '../router.ts';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ErrorNotice } from '../ui/notice.tsx';
import { SlugField, slugify, type SlugCheck } from '../ui/slug-field.tsx';
import type { Project } from '../ui/use-project.ts';

export function NewProjectPage() {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [check, setCheck] = useState<SlugCheck>();
  const [source, setSource] = useState<'managed' | 'github'>('managed');
  const [repo, setRepo] = useState('');
  const submit = useSubmit(async () => {
    const created = await api<Project>('POST', '/projects', { name, slug, ...(source === 'github' ? { github_repo: repo } : {}) });
    navigate(`/projects/${encodeURIComponent(created.id)}/settings`);
  });
  const repoOk = source === 'managed' || /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repo);
  return (
    <>
      <p class="crumbs"><a href="/projects">Projects</a> / <span>New</span></p>
      <h1>New project</h1>
      <form class="panel" onSubmit={submitWith(submit.run)}>
        <ErrorNotice error={submit.error} />
        <Field label="Name" required maxLength={80} value={name} onInput={(e) => { const v = e.currentTarget.value; setName(v); if (!slugEdited) setSlug(slugify(v)); }} />
        <SlugField value={slug} onInput={(v) => { setSlugEdited(true); setSlug(v); }} onCheck={setCheck} />
        <fieldset>
          <legend>Repository</legend>
          <label class="check"><input type="radio" name="source" checked={source === 'managed'} onChange={() => setSource('managed')} /> <span>Managed by Folio: push to a Git URL shown after creation</span></label>
          <label class="check"><input type="radio" name="source" checked={source === 'github'} onChange={() => setSource('github')} /> <span>Your own GitHub repository</span></label>
        </fieldset>
        {source === 'github' && <Field label="GitHub repository" placeholder="owner/name" required value={repo} hint={<>Folio builds it on every push to its branch. The Folio GitHub App must be installed on its account and connected in <a href="/settings/github">GitHub settings</a>.</>} error={repo && !repoOk ? 'Write it as owner/name.' : undefined} onInput={(e) => setRepo(e.currentTarget.value.trim())} />}
        <button type="submit" disabled={submit.pending || !name.trim() || !slug || !check?.available || !repoOk}>Create project</button>
      </form>
    </>
  );
}
