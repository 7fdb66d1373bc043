/**
 * Settings › AI model (`/ai-settings`): the organization's own OpenAI-compatible model (base
 * URL, model name, API key: typed once, then only its last four characters are shown), which AI
 * features use it, a connection test, and removal. Owners and admins (`settings.manage`).
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

interface Settings {
  organization: { base_url: string; model: string; api_key: { set: boolean; hint: string | null }; features: string[]; updated_at: string } | null;
  platform_default: { available: boolean; model: string | null };
  features: { feature: string; description: string; source: 'organization' | 'platform' | 'none' }[];
}
interface TestResult { ok: boolean; message: string; reply: string | null }

/** Feature names in people's words. */
const FEATURE_NAMES: Record<string, string> = { assistant: 'Ask AI (the assistant on your docs sites)' };

/** Where a feature's model comes from, in people's words. */
const SOURCE_WORDS: Record<string, string> = {
  organization: 'your model',
  platform: 'the platform\'s model',
  none: 'no model: readers get the best matching pages instead of a written answer',
};

/** Ready-made base URLs for the common servers. */
const EXAMPLES = 'OpenAI: https://api.openai.com/v1 · Azure OpenAI: https://<resource>.openai.azure.com/openai/v1 · Ollama: http://<host>:11434/v1 · vLLM: http://<host>:8000/v1 · llama.cpp server: http://<host>:8080/v1';

export function AiModelPage() {
  const settings = useLoad(() => api<Settings>('GET', '/ai-settings'), []);
  return (
    <>
      <h1>AI model</h1>
      <p>Connect your own model to the AI features of your docs sites. Any server that speaks the OpenAI chat API works: OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp's server and most gateways.</p>
      <ErrorNotice error={settings.error} />
      {settings.loading && !settings.data ? <Loading /> : settings.data && <Body settings={settings.data} reload={settings.reload} />}
    </>
  );
}

function Body({ settings, reload }: { settings: Settings; reload(): Promise<void> }) {
  return (
    <>
      <section class="panel" aria-labelledby="ai-use-title">
        <h2 id="ai-use-title">What answers now</h2>
        <ul>
          {settings.features.map((f) => (
            <li key={f.feature}><strong>{FEATURE_NAMES[f.feature] ?? f.feature}</strong>: {SOURCE_WORDS[f.source]}. <span class="muted">{f.description}.</span></li>
          ))}
        </ul>
        {settings.platform_default.available && <p class="muted">The platform provides a model{settings.platform_default.model ? ` (${settings.platform_default.model})` : ''} to features that do not use yours.</p>}
      </section>
      <ModelForm settings={settings} reload={reload} />
      {settings.organization && <TestAndRemove reload={reload} />}
    </>
  );
}

function ModelForm({ settings, reload }: { settings: Settings; reload(): Promise<void> }) {
  const own = settings.organization;
  const [baseUrl, setBaseUrl] = useState(own?.base_url ?? '');
  const [model, setModel] = useState(own?.model ?? '');
  const [key, setKey] = useState('');
  const [features, setFeatures] = useState<string[]>(own?.features ?? settings.features.map((f) => f.feature));
  const [saved, setSaved] = useState(false);
  useEffect(() => { setBaseUrl(own?.base_url ?? ''); setModel(own?.model ?? ''); }, [own?.base_url, own?.model]);
  const submit = useSubmit(async () => {
    await api('PUT', '/ai-settings', { base_url: baseUrl, model, features, ...(key ? { api_key: key } : {}) });
    setKey('');
    setSaved(true);
    await reload();
  });
  const removeKey = useSubmit(async () => {
    await api('PUT', '/ai-settings', { base_url: own!.base_url, model: own!.model, api_key: null });
    await reload();
  });
  return (
    <form class="panel" onSubmit={submitWith(submit.run)} onInput={() => setSaved(false)} aria-label="Your model">
      <h2>Your model</h2>
      <ErrorNotice error={submit.error ?? removeKey.error} />
      {saved && <Notice tone="success">Saved. Use "Test connection" to check that it answers.</Notice>}
      <Field label="Base URL" type="url" required autoCapitalize="none" spellcheck={false} value={baseUrl} hint={EXAMPLES} onInput={(e) => setBaseUrl(e.currentTarget.value.trim())} />
      <Field label="Model name" required autoCapitalize="none" spellcheck={false} value={model} hint="As the server names it, e.g. gpt-4o-mini, or llama3.1:8b on Ollama." onInput={(e) => setModel(e.currentTarget.value.trim())} />
      <Field label="API key" type="password" autoComplete="off" value={key}
        hint={own?.api_key.set ? `A key ending in ${own.api_key.hint ?? '(hidden)'} is saved. Leave this empty to keep it.` : 'Leave empty for a server that needs no key (Ollama, a local vLLM). Stored encrypted; never shown again.'}
        onInput={(e) => setKey(e.currentTarget.value.trim())} />
      <fieldset class="scopes">
        <legend>Use this model for</legend>
        {settings.features.map((f) => (
          <label class="check" key={f.feature}>
            <input type="checkbox" checked={features.includes(f.feature)} onChange={(e) => setFeatures(e.currentTarget.checked ? [...features, f.feature] : features.filter((x) => x !== f.feature))} />
            <span>{FEATURE_NAMES[f.feature] ?? f.feature}</span>
          </label>
        ))}
        <p class="hint">Inline AI in the editor and the writing agent will appear here when they arrive.</p>
      </fieldset>
      <div class="actions">
        <button type="submit" disabled={submit.pending || !baseUrl || !model}>Save</button>
        {own?.api_key.set && <button type="button" disabled={removeKey.pending} onClick={() => void removeKey.run()}>Remove the saved key</button>}
      </div>
    </form>
  );
}

function TestAndRemove({ reload }: { reload(): Promise<void> }) {
  const [result, setResult] = useState<TestResult>();
  const test = useSubmit(async () => setResult(await api<TestResult>('POST', '/ai-settings/test')));
  const remove = useSubmit(async () => {
    if (!confirm('Remove your model and its key? Your docs sites go back to the platform\'s model, or to showing the best matching pages.')) return;
    await api('DELETE', '/ai-settings');
    setResult(undefined);
    await reload();
  });
  return (
    <section class="panel" aria-labelledby="ai-test-title">
      <h2 id="ai-test-title">Check and remove</h2>
      <ErrorNotice error={test.error ?? remove.error} />
      {result && <Notice tone={result.ok ? 'success' : 'warning'}>{result.message}</Notice>}
      <div class="actions">
        <button type="button" disabled={test.pending} onClick={() => void test.run()}>{test.pending ? 'Testing…' : 'Test connection'}</button>
        <button type="button" class="danger" disabled={remove.pending} onClick={() => void remove.run()}>Remove your model</button>
      </div>
    </section>
  );
}
