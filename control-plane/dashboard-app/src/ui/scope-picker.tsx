/** "All scopes" (the default, which also receives scopes added later) or a chosen subset. */
import { SCOPES } from '../scopes.ts';

/** `null` means all scopes. */
export type ScopeChoice = string[] | null;

export function ScopePicker({ value, onChange, legend = 'Scopes' }: { value: ScopeChoice; onChange(v: ScopeChoice): void; legend?: string }) {
  const all = value === null;
  return (
    <fieldset class="scopes">
      <legend>{legend}</legend>
      <label class="check">
        <input type="checkbox" checked={all} onChange={(e) => onChange(e.currentTarget.checked ? null : [])} />
        <span>All scopes <span class="muted">(includes scopes added in the future)</span></span>
      </label>
      {!all && (
        <ul class="scope-list">
          {SCOPES.map(({ scope, grants }) => (
            <li key={scope}>
              <label class="check">
                <input
                  type="checkbox"
                  checked={value.includes(scope)}
                  onChange={(e) => onChange(e.currentTarget.checked ? [...value, scope] : value.filter((s) => s !== scope))}
                />
                <span><code>{scope}</code> <span class="muted">{grants}</span></span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
