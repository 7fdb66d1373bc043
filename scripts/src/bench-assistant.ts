/**
 * Assistant benchmark: retrieval quality and answer latency without a model.
 *
 * 1. The bundled example site (built by the real builder) with 32 questions, and a generated
 *    site of `--pages` pages (default 5,000) with 30 planted facts asked in other words: how
 *    often the page that answers is among the first 3 distinct pages retrieved (and first).
 * 2. Latency through the real site server over HTTP (embedded database, quota and limits on):
 *    the index build a finished deployment starts in the background, the first question after
 *    it, then every question of the large site `--rounds` times: time to the first event
 *    (`citations`) and to `done`; and the index of the next deployment after a one-page edit.
 * 3. With a model: the same questions answered by a stand-in OpenAI-compatible model on
 *    127.0.0.1 that answers at once, so the figures are the platform's own share of the time to
 *    the first token (settings lookup, quota, retrieval, prompt, the model client's connection).
 *
 *   npm run bench:assistant [-- --pages 5000 --rounds 3]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createLocalDirStore, prefixStore, type ObjectStore } from '@folio/builder';
import { createOrganization } from '@folio/control-plane/admin/organizations.ts';
import { conversationQuery } from '@folio/control-plane/assistant/bm25-index.ts';
import { siteRoutes } from '@folio/control-plane/assistant/site-routes.ts';
import { siteIndex, type SiteIndex } from '@folio/control-plane/assistant/site-index.ts';
import { parseEnv } from '@folio/control-plane/env.ts';
import { startControlPlane } from '@folio/control-plane/server.ts';
import { startSiteServer } from '@folio/control-plane/sites/site-server.ts';
import { publishGeneratedSite } from './assistant/generated-site.ts';
import { ACME_QUESTIONS, PLANTED_FACTS, type Question } from './assistant/question-sets.ts';
import { parseArgs } from './cli-args.ts';
import { startStandIn } from '../../control-plane/test/assistant/llm-stand-in.ts';

const { flags } = parseArgs(process.argv.slice(2));
const PAGES = Number(flags.pages ?? 5000);
const ROUNDS = Number(flags.rounds ?? 3);
const EXAMPLE = fileURLToPath(new URL('../../builder/examples/acme-docs', import.meta.url));

async function quality(sites: SiteIndex, projectId: string, questions: Question[]) {
  const content = (await sites.get(projectId))!;
  let top1 = 0;
  let top3 = 0;
  const misses: string[] = [];
  for (const { q, page } of questions) {
    const pages = content.index.search(conversationQuery([q]), 3, 1).map((h) => content.index.pages[content.index.passages[h.passage].page].path);
    if (pages[0] === page) top1++;
    if (pages.includes(page)) top3++;
    else misses.push(`  miss: "${q}" → ${pages.join(', ') || '(nothing)'}; expected ${page}`);
  }
  return { n: questions.length, top1, top3, misses, passages: content.index.passages.length, pages: content.index.pages.length };
}

function ask(port: number, host: string, question: string, model = false): Promise<{ first: number; token: number; done: number; events: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let first = 0;
    let token = 0;
    let text = '';
    const req = http.request({ host: '127.0.0.1', port, path: '/_folio/assistant', method: 'POST', headers: { host, 'content-type': 'application/json' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (!first) first = performance.now() - start;
        text += chunk;
        if (!token && text.includes('event: delta')) token = performance.now() - start;
      });
      res.on('end', () => {
        if (res.statusCode !== 200 || !text.includes('event: done')) reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
        else if (model && !text.includes('"mode":"llm"')) reject(new Error(`no model answer: ${text.slice(-300)}`));
        else resolve({ first, token, done: performance.now() - start, events: text.split('\n\n').length - 1 });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ messages: [{ role: 'user', content: question }] }));
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const ms = (v: number) => `${v.toFixed(1)} ms`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-assistant-'));
const store: ObjectStore = createLocalDirStore(path.join(dir, 'store'));
const env = parseEnv({ API_PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dir });
const cp = await startControlPlane({ env, inMemory: true, port: 0, log: () => {} });
try {
  const org = await createOrganization(cp.m, 'bench', 'enterprise');
  const acme = await cp.m.Project.create({ org_id: org._id, name: 'Acme', slug: 'acme' });
  const gen = await cp.m.Project.create({ org_id: org._id, name: 'Corpus', slug: 'corpus' });
  console.log(`Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  let t = performance.now();
  await build({ source: { kind: 'dir', dir: EXAMPLE }, store: prefixStore(store, `sites/${acme._id}/`), siteUrl: 'http://acme.localhost' });
  console.log(`example site built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  const factPages = await publishGeneratedSite(store, `sites/${gen._id}/`, PAGES, PLANTED_FACTS);
  console.log(`generated site: ${PAGES} pages published in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const sites = siteIndex({ store });
  const site = await startSiteServer({
    m: cp.m, store, sitesDomain: 'localhost', host: '127.0.0.1', port: 0,
    handle: siteRoutes({ m: cp.m, store, sites, env, limits: { visitorMessages: 1_000_000, siteStreams: 1_000 } }),
  });
  try {
    // What a finished deployment does in the background (warmOnDeployment), then the first question.
    const warmStarted = performance.now();
    await sites.warm(gen._id);
    const warmMs = performance.now() - warmStarted;
    const cold = await ask(site.port, 'corpus.localhost', PLANTED_FACTS[0].q);
    const coldBuilds = sites.stats();
    const firsts: number[] = [];
    const dones: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const f of PLANTED_FACTS) {
        const one = await ask(site.port, 'corpus.localhost', f.q);
        firsts.push(one.first);
        dones.push(one.done);
      }
    }
    firsts.sort((a, b) => a - b);
    dones.sort((a, b) => a - b);
    const generated = await quality(sites, gen._id, PLANTED_FACTS.map((f, i) => ({ q: f.q, page: factPages[i] })));
    const example = await quality(sites, acme._id, ACME_QUESTIONS);
    // The next deployment after a one-page edit: its index reuses every other page's terms.
    const fullKey = `sites/${gen._id}/llms-full.txt`;
    const full = Buffer.from((await store.get(fullKey))!).toString('utf8');
    const at = full.indexOf('\n---\n\nSource: ', Math.floor(full.length / 2));
    await store.put(fullKey, Buffer.from(`${full.slice(0, at)}\n\nOne more sentence, added by an edit.${full.slice(at)}`));
    const analysedBefore = sites.stats().pagesAnalysed;
    const editStarted = performance.now();
    await sites.warm(gen._id);
    const editMs = performance.now() - editStarted;
    const editAnalysed = sites.stats().pagesAnalysed - analysedBefore;

    console.log('\nRetrieval quality (right page among the first 3 distinct pages; first)');
    for (const [name, r] of [['example site', example], [`generated site, ${PAGES} pages`, generated]] as const) {
      console.log(`  ${name} (${r.pages} pages, ${r.passages} passages): top-3 ${r.top3}/${r.n} (${Math.round((100 * r.top3) / r.n)}%), top-1 ${r.top1}/${r.n} (${Math.round((100 * r.top1) / r.n)}%)`);
      for (const miss of r.misses) console.log(miss);
    }
    console.log(`\nLatency without a model, ${PAGES} pages, over HTTP (${firsts.length} questions)`);
    console.log(`  index built when the deployment finished (in the background): ${ms(warmMs)}`);
    console.log(`  the next deployment's index after a one-page edit: ${ms(editMs)} (${editAnalysed} page analysed, the others reused)`);
    console.log(`  first question after a deployment: first event ${ms(cold.first)}, done ${ms(cold.done)} (index builds so far: ${coldBuilds.builds}, by deployments: ${coldBuilds.warmBuilds})`);
    console.log(`  first event: median ${ms(pct(firsts, 0.5))}, p95 ${ms(pct(firsts, 0.95))}, max ${ms(firsts.at(-1)!)} (goal 150 ms: p95 at ${(pct(firsts, 0.95) / 150).toFixed(2)}x)`);
    console.log(`  full answer: median ${ms(pct(dones, 0.5))}, p95 ${ms(pct(dones, 0.95))}, max ${ms(dones.at(-1)!)} (goal 500 ms: p95 at ${(pct(dones, 0.95) / 500).toFixed(2)}x)`);

    // With a model: a stand-in that answers at once, on a site server whose assistant uses it.
    const llm = await startStandIn();
    const withModel = await startSiteServer({
      m: cp.m, store, sitesDomain: 'localhost', host: '127.0.0.1', port: 0,
      handle: siteRoutes({ m: cp.m, store, sites, env: { ...env, ASSISTANT_LLM_URL: llm.url }, limits: { visitorMessages: 1_000_000, siteStreams: 1_000, readerAnswersPerHour: 1_000_000, addressAnswersPerHour: 1_000_000 } }),
    });
    const tokens: number[] = [];
    const answers: number[] = [];
    try {
      await ask(withModel.port, 'corpus.localhost', PLANTED_FACTS[0].q, true); // the client's first connection
      for (let r = 0; r < ROUNDS; r++) {
        for (const f of PLANTED_FACTS) {
          const one = await ask(withModel.port, 'corpus.localhost', f.q, true);
          tokens.push(one.token);
          answers.push(one.done);
        }
      }
    } finally {
      await withModel.close();
      await llm.close();
    }
    tokens.sort((a, b) => a - b);
    answers.sort((a, b) => a - b);
    console.log(`\nLatency with a model (a stand-in on 127.0.0.1 that answers at once), ${PAGES} pages, over HTTP (${tokens.length} questions)`);
    console.log(`  first token: median ${ms(pct(tokens, 0.5))}, p95 ${ms(pct(tokens, 0.95))}, max ${ms(tokens.at(-1)!)}`);
    console.log(`  full answer: median ${ms(pct(answers, 0.5))}, p95 ${ms(pct(answers, 0.95))}, max ${ms(answers.at(-1)!)}`);
    console.log(`  memory: rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB; load average now ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    await site.close();
  }
} finally {
  await cp.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
