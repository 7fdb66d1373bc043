import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A throwaway folder holding `files` (path → text), removed when the test ends. */
export function sourceTree(t: { teardown(fn: () => void): void }, files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'source-tree-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}
