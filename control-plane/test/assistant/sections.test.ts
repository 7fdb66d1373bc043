import t from 'tap';
import { MAX_PASSAGE_CHARS, pagePassages, parseLlmsFull } from '../../src/assistant/sections.ts';

const FULL = `# Acme

> Rockets.

---

Source: https://acme.example/

# Home

Welcome to Acme.

## Start

Read the guide.

---

Source: https://acme.example/guides/install

# Install

How to install.

\`\`\`md
# not a heading
\`\`\`

## Start

Twice.
`;

t.test('sections', async (t) => {
  t.test('should read every page of llms-full.txt with its path, title and description', async (t) => {
    const pages = parseLlmsFull(FULL);
    t.same(pages.map((p) => [p.url, p.path, p.title, p.description]), [
      ['https://acme.example/', '/', 'Home', 'Welcome to Acme.'],
      ['https://acme.example/guides/install', '/guides/install', 'Install', 'How to install.'],
    ]);
  });

  t.test('should split at headings outside code fences and count repeated headings', async (t) => {
    const [home, install] = parseLlmsFull(FULL);
    t.same(pagePassages(home, 0), [
      { page: 0, heading: undefined, occurrence: 0, text: 'Welcome to Acme.' },
      { page: 0, heading: 'Start', occurrence: 0, text: 'Read the guide.' },
    ]);
    t.same(pagePassages({ ...install, markdown: `${install.markdown}\n\n## Start\n\nThrice.` }, 1).map((p) => [p.heading, p.occurrence, p.text]), [
      [undefined, 0, 'How to install.\n\n```md\n# not a heading\n```'],
      ['Start', 0, 'Twice.'],
      ['Start', 1, 'Thrice.'],
    ]);
  });

  t.test('should cut a long section at paragraph breaks', async (t) => {
    const para = 'word '.repeat(100).trim();
    const passages = pagePassages({ url: 'https://a.example/x', path: '/x', title: 'X', description: '', markdown: `# X\n\n## Long\n\n${[para, para, para].join('\n\n')}` }, 0);
    t.same(passages.map((p) => [p.heading, p.text.length]), [['Long', para.length * 2 + 2], ['Long', para.length]], 'two paragraphs fit, the third starts a passage');
    t.ok(passages.every((p) => p.text.length <= MAX_PASSAGE_CHARS));
  });
});
