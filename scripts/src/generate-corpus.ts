/**
 * Generates a realistic docs corpus as a Git repository: `pages` MDX pages with frontmatter,
 * headings, lists, tables, 2-3 code fences in several languages and components, in nested
 * folders, plus docs.json and a public file. Deterministic for a given page count.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const LANGS = [
  ['ts', "import { Client } from '@acme/sdk';\n\nconst client = new Client({ apiKey: process.env.KEY });\nconst items = await client.items.list({ limit: 20 });\nconsole.log(items.map((i) => i.id));"],
  ['python', "from acme import Client\n\nclient = Client(api_key=os.environ['KEY'])\nfor item in client.items.list(limit=20):\n    print(item.id)"],
  ['bash', 'curl -s https://api.acme.example/v1/items \\\n  -H "Authorization: Bearer $KEY" | jq ".data[].id"'],
  ['go', 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println("item", i)\n\t}\n}'],
  ['json', '{\n  "id": "item_01",\n  "status": "active",\n  "tags": ["a", "b"],\n  "count": 3\n}'],
  ['rust', 'fn main() {\n    let items = vec![1, 2, 3];\n    for i in items.iter() {\n        println!("{}", i);\n    }\n}'],
] as const;
const OPTIONS = ['', ' lines', ' highlight={2}', ' title.ext', ' wrap', ' lines focus={1-2}'];

/** The MDX text of page `i`; `variant` > 0 changes its body only (not the title: the sidebar stays). */
export function pageSource(i: number, variant = 0): string {
  const fences = 2 + (i % 2);
  const blocks = Array.from({ length: fences }, (_, k) => {
    const [lang, code] = LANGS[(i + k) % LANGS.length];
    return `\`\`\`${lang}${OPTIONS[(i + k) % OPTIONS.length]}\n${code}\n\`\`\``;
  });
  return `---
title: Page ${i}
description: How feature ${i} works, with examples in several languages.
order: ${i % 50}
---

# Feature ${i}

Feature ${i} lets you manage **items** through the API. It is available on every plan and
works with the [quickstart](/) flow. Read the whole page before enabling it in production.${variant ? ` Revised ${variant} time(s).` : ''}

<Note>Feature ${i} is safe to enable on an existing account.</Note>

## Requirements

- An API key with the \`items:write\` scope
- A project created in the dashboard
- Version ${1 + (i % 4)}.${i % 10} of the SDK or later

## Parameters

| Name | Type | Default | Description |
| --- | --- | --- | --- |
| limit | integer | 20 | Items per page |
| cursor | string | none | Where the next page starts |
| status | enum | active | Filter by status |

## Examples

${blocks[0]}

Then check the result:

${blocks[1]}

<Tabs>
  <Tab title="Success">The call answers \`200\` with the list.</Tab>
  <Tab title="Errors">A bad key answers \`401\`.</Tab>
</Tabs>

${blocks[2] ?? ''}

## Troubleshooting

1. Check the key's scopes.
2. Retry with exponential backoff on \`429\`.
3. Contact support with the request id.
`;
}

/** Writes the corpus into `dir` (created) and commits it. */
export function generateCorpus(dir: string, pages: number): void {
  fs.mkdirSync(path.join(dir, 'public'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: 'Corpus', theme: 'larch' }, null, 2));
  fs.writeFileSync(path.join(dir, 'public/favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  for (let i = 0; i < pages; i++) {
    const file = path.join(dir, corpusPagePath(i));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, pageSource(i));
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@x' } });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'corpus');
}

/** Repository path of page `i`: 20 sections of nested folders. */
export function corpusPagePath(i: number): string {
  return i === 0 ? 'docs/index.mdx' : `docs/section-${i % 20}/group-${Math.floor(i / 20) % 10}/page-${i}.mdx`;
}
