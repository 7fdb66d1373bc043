/**
 * A deterministic, realistic docs page (~3.6 KB: frontmatter, headings, prose with inline
 * formatting, a list, a table, components and two code fences) for measurements.
 */

const WORDS = 'the builder compiles pages into static html and every deployment uploads only changed objects while the site keeps serving the previous version until the new one is ready'.split(' ');

function prose(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 7 + i * 13) % WORDS.length]);
  out[0] = out[0][0].toUpperCase() + out[0].slice(1);
  out[3] = `**${out[3]}**`;
  out[8] = `\`${out[8]}\``;
  out[12] = `[${out[12]}](/guides/page-${seed % 50})`;
  return `${out.join(' ')}.`;
}

/** Page number `n`. */
export function syntheticPage(n: number): string {
  return `---
title: Page ${n}
description: ${prose(n, 12)}
order: ${n % 10}
---

# Page ${n}

${prose(n, 60)}

## Installing ${n}

${prose(n + 1, 50)}

\`\`\`ts title.ts lines highlight={2}
import { createClient } from '@acme/sdk';
const client = createClient({ apiKey: process.env.ACME_KEY, retries: ${n % 5} });
export async function main(): Promise<void> {
  const result = await client.projects.list({ limit: 20 });
  for (const project of result.data) console.log(project.name, project.status);
}
\`\`\`

<Note>
${prose(n + 2, 25)}
</Note>

## Configuring

- ${prose(n + 3, 12)}
- ${prose(n + 4, 12)}
- ${prose(n + 5, 12)}

| Option | Default | Notes |
|---|---|---|
| \`retries\` | 3 | ${prose(n + 6, 8)} |
| \`timeout\` | 30 s | ${prose(n + 7, 8)} |

### Advanced

${prose(n + 8, 60)}

\`\`\`bash
curl -X POST https://api.example.com/v1/projects/${n}/deployments \\
  -H "Authorization: Bearer $TOKEN" \\
  -H "Content-Type: application/json"
\`\`\`

<Tabs>
<Tab title="npm">
${prose(n + 9, 20)}
</Tab>
<Tab title="pnpm">
${prose(n + 10, 20)}
</Tab>
</Tabs>

${prose(n + 11, 70)}
`;
}
