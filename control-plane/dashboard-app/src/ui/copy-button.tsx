/** A button that copies a value, saying so in words (not only an icon). */
import { useState } from 'preact/hooks';

export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Clipboard access can be refused (insecure origin, permissions): fall back to a selection copy.
      const area = document.createElement('textarea');
      area.value = value;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 2000);
  };
  return (
    <button type="button" class="secondary" onClick={copy} aria-live="polite">
      {done ? 'Copied' : label}
    </button>
  );
}

/** A value in a code box with its copy button. */
export function CopyField({ value, label, multiline = false }: { value: string; label: string; multiline?: boolean }) {
  return (
    <div class="copy-field">
      <span class="label">{label}</span>
      {multiline ? <pre tabIndex={0}><code>{value}</code></pre> : <code class="one-line">{value}</code>}
      <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
    </div>
  );
}
