/**
 * The real part of `npm run bench:fleet`: projects created through the API, pushed at once (first
 * builds), then each edited and pushed again at once (the common case: an incremental build,
 * usually in a build process not yet warm for that project), against whatever platform the
 * caller started (one process, or replicas behind a balancer). Measures throughput, waits, build
 * times and the CPU each platform process spent per build.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiKey, createOrganization } from '@folio/control-plane';
import type { Models } from '@folio/control-plane/db/models/index.ts';
import { runGit } from '@folio/control-plane/git/git-cli.ts';

export interface FleetTarget {
  m: Models;
  /** Where projects are created and pushed: the API's origin (one process's, or the balancer's). */
  origin: string;
  /** CPU seconds so far of each control-plane process, and of the database when it runs apart (else 0). */
  cpu(): { replicas: number[]; db: number };
}

export interface Round {
  builds: number; seconds: number; waits: number[]; durations: number[];
  /**
   * CPU seconds per build of each replica, and of the database process, less what they spent at
   * the same rate while the builders were idle (polling for work, the replicas' own sweeps).
   */
  replicaCpuPerBuild: number[]; dbCpuPerBuild: number;
  /** The same without that subtraction. */
  replicaCpuPerBuildRaw: number[]; dbCpuPerBuildRaw: number;
}

const IDLE_MS = 3000;

const GIT_ENV = { GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' };

/** `projects` sites of `pages` pages in 3 organizations, pushed at once twice; `tag` keeps names apart between runs on one database. */
export async function pushRounds(target: FleetTarget, o: { projects: number; pages: number; tag: string }): Promise<Round[]> {
  const { m, origin } = target;
  const projects: { id: string; dir: string; remote: string }[] = [];
  for (let i = 0; i < o.projects; i++) {
    const org = await createOrganization(m, `fleet-org-${o.tag}-${i % 3}-${i}`, 'enterprise');
    const { key } = await createApiKey(m, { orgId: org._id });
    const slug = `fleet-${o.tag}-${i}`;
    const res = await fetch(`${origin}/v1/projects`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Fleet ${i}`, slug }) });
    if (res.status !== 201) throw new Error(`creating project ${slug}: ${res.status} ${await res.text()}`);
    const { id } = await res.json() as { id: string };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-fleet-wc-'));
    await runGit(['init', '-q', '-b', 'main'], { cwd: dir });
    fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: `Fleet ${i}` }));
    fs.mkdirSync(path.join(dir, 'docs'));
    for (let k = 0; k < o.pages; k++) fs.writeFileSync(path.join(dir, 'docs', `page-${k}.mdx`), `---\ntitle: Page ${k}\n---\n\nText of page ${k}.\n\n\`\`\`ts\nexport const k = ${k};\n\`\`\`\n`);
    projects.push({ id, dir, remote: `${origin.replace('http://', `http://git:${key}@`)}/git/${slug}.git` });
  }
  try {
    const rounds: Round[] = [];
    for (let round = 0; round < 2; round++) {
      for (const pr of projects) {
        if (round) fs.appendFileSync(path.join(pr.dir, 'docs', 'page-0.mdx'), `\nEdited in round ${round}.\n`);
        await runGit(['add', '-A'], { cwd: pr.dir });
        await runGit(['commit', '-q', '-m', `round ${round}`], { cwd: pr.dir, env: GIT_ENV });
      }
      const idle0 = target.cpu();
      await new Promise((r) => setTimeout(r, IDLE_MS));
      const cpu0 = target.cpu();
      const idleRate = { replicas: cpu0.replicas.map((c, i) => (c - idle0.replicas[i]) / (IDLE_MS / 1000)), db: (cpu0.db - idle0.db) / (IDLE_MS / 1000) };
      const t0 = Date.now();
      await Promise.all(projects.map((pr) => runGit(['push', '-q', pr.remote, 'main'], { cwd: pr.dir })));
      const ids = projects.map((pr) => pr.id);
      while (await m.Deployment.countDocuments({ project_id: { $in: ids }, finished_at: null })) await new Promise((r) => setTimeout(r, 100));
      const seconds = (Date.now() - t0) / 1000;
      const cpu1 = target.cpu();
      const rows = await m.Deployment.find({ project_id: { $in: ids }, started_at: { $gte: new Date(t0) } }).lean();
      const built = rows.filter((d) => d.claimed_at);
      const failed = rows.filter((d) => d.status !== 'deployed');
      if (failed.length) console.log(`  note: ${failed.length} deployment(s) failed: ${failed[0].error}`);
      const per = (s: number) => s / Math.max(1, built.length);
      const net = (used: number, rate: number) => Math.max(0, per(used - rate * seconds));
      rounds.push({
        builds: built.length, seconds,
        waits: built.map((d) => (d.claimed_at!.getTime() - d.started_at!.getTime()) / 1000),
        durations: built.map((d) => (d.finished_at!.getTime() - d.claimed_at!.getTime()) / 1000),
        replicaCpuPerBuild: cpu1.replicas.map((c, i) => net(c - cpu0.replicas[i], idleRate.replicas[i])),
        dbCpuPerBuild: net(cpu1.db - cpu0.db, idleRate.db),
        replicaCpuPerBuildRaw: cpu1.replicas.map((c, i) => per(c - cpu0.replicas[i])),
        dbCpuPerBuildRaw: per(cpu1.db - cpu0.db),
      });
    }
    return rounds;
  } finally {
    for (const pr of projects) fs.rmSync(pr.dir, { recursive: true, force: true });
  }
}
