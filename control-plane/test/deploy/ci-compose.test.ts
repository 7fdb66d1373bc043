import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parse } from 'yaml';
import { parseEnv } from '../../src/env.ts';
import { startTestPlatform } from '../helpers/platform.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const COMPOSE = 'docker/compose.yaml';
const SECRETS = { WORKER_SECRET: 'w-secret', MINIO_ROOT_USER: 'root-user', MINIO_ROOT_PASSWORD: 'root-password', S3_ACCESS_KEY_ID: 'platform-key', S3_SECRET_ACCESS_KEY: 'platform-secret', METRICS_TOKEN: 'metrics-token' };

/** The Compose command line on this machine: the v2 plugin, else v1, else none. */
function composeCli(): string[] | undefined {
  for (const cmd of [['docker', 'compose'], ['docker-compose']]) {
    const r = spawnSync(cmd[0], [...cmd.slice(1), 'version'], { encoding: 'utf8' });
    if (r.status === 0) return cmd;
  }
  return undefined;
}

function runCompose(cli: string[], args: string[], env: Record<string, string>) {
  // Only PATH and the given variables: a developer's own .env or shell must not make it pass.
  return spawnSync(cli[0], [...cli.slice(1), '-f', COMPOSE, ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env } });
}

const intersects = (a: string[] = [], b: string[] = []) => a.some((n) => b.includes(n));

/** True when a `caddy` binary is on the PATH. */
function hasCaddy(): boolean {
  return spawnSync('caddy', ['version'], { encoding: 'utf8' }).status === 0;
}

/** `${VAR}`, `${VAR:-default}` and `${VAR:?message}` as Compose interpolates them (enough for this file). */
function interpolate(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string) => {
      if (vars[name]) return vars[name];
      if (op === '?') throw new Error(arg);
      return op === '-' ? arg : '';
    }).replace(/\$\$/g, '$');
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, vars)]));
  return value;
}

/** The FROM stages and the instructions of the last stage of a Dockerfile. */
function dockerfile(file: string) {
  const text = fs.readFileSync(`${ROOT}docker/${file}`, 'utf8').replace(/\\\n/g, ' ');
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages = lines.filter((l) => /^FROM /i.test(l));
  const lastFrom = lines.map((l) => /^FROM /i.test(l)).lastIndexOf(true);
  const runtime = lines.slice(lastFrom);
  const copies = lines.filter((l) => /^COPY /i.test(l) && !/--from=/.test(l)).flatMap((l) => l.split(/\s+/).slice(1, -1));
  return { text, stages, runtime, copies, args: Object.fromEntries(lines.filter((l) => /^ARG /.test(l)).map((l) => l.slice(4).split('='))) };
}

t.test('docker files', async (t) => {
  const cli = composeCli();
  // With a Compose CLI the checks below read the file as Compose resolves it; without one, as
  // `yaml` parses it, interpolated here.
  const resolved = cli && runCompose(cli, ['config'], SECRETS);
  const compose = (resolved && resolved.status === 0
    ? parse(resolved.stdout)
    : interpolate(parse(fs.readFileSync(`${ROOT}${COMPOSE}`, 'utf8'), { merge: true }), SECRETS)) as any;
  const ports = (list: unknown[]) => list.map((p: any) => (typeof p === 'string' ? p : `${p.published}:${p.target}`));

  // Without a Compose CLI (no plugin, no docker-compose) the structural checks below still run on
  // the file as `yaml` parses it; installing either CLI enables this one.
  t.test('should be accepted by `docker compose config`', { skip: cli ? false : 'no Compose CLI installed (`docker compose` or `docker-compose`); the structural checks below cover the file' }, async (t) => {
    if (!cli) return;
    const ok = runCompose(cli, ['config', '--quiet'], SECRETS);
    t.equal(ok.status, 0, `${cli.join(' ')} config: ${ok.stderr}`);
    const missing = runCompose(cli, ['config', '--quiet'], { ...SECRETS, WORKER_SECRET: '' });
    t.not(missing.status, 0, 'refuses to run without WORKER_SECRET');
    t.match(missing.stderr, /set WORKER_SECRET in docker\/\.env/);
  });

  t.test('should run MongoDB as a replica set that the health check initiates', async (t) => {
    const mongo = compose.services.mongo;
    t.equal(mongo.image, 'mongo:7');
    t.same(mongo.command, ['--replSet', 'rs0', '--bind_ip_all']);
    const check = mongo.healthcheck.test.join(' ');
    t.match(check, /rs\.initiate\(\{ _id: 'rs0', members: \[\{ _id: 0, host: 'mongo:27017' \}\] \}\)/);
    t.match(check, /isWritablePrimary\) quit\(1\)/);
    t.equal(compose.services['control-plane'].environment.MONGODB_URI, 'mongodb://mongo:27017/folio?replicaSet=rs0');
  });

  t.test('should create the bucket before the control plane starts', async (t) => {
    const init = compose.services['minio-init'];
    t.same(init.depends_on, { minio: { condition: 'service_healthy' } });
    t.match([init.command].flat()[0], /mc mb --ignore-existing "folio\/\$\$?S3_BUCKET"/);
    t.same(compose.services['control-plane'].depends_on, { mongo: { condition: 'service_healthy' }, 'minio-init': { condition: 'service_completed_successfully' } });
  });

  t.test('should give the control plane an environment it accepts', async (t) => {
    const cp = compose.services['control-plane'];
    const env = parseEnv({ ...cp.environment, API_HOST: '0.0.0.0', SITE_HOST: '0.0.0.0' });
    t.same([env.BUILDER_WORKERS, env.S3_BUCKET, env.S3_ENDPOINT, env.S3_FORCE_PATH_STYLE, env.WORKER_SECRET, env.INTERNAL_API_URL, env.TRUST_PROXY],
      [0, 'folio-sites', 'http://minio:9000', true, 'w-secret', 'http://balancer:4000', true]);
    t.equal(env.siteUrlTemplate, 'http://{slug}.localhost:4100');
  });

  t.test('should run several control-plane replicas behind the balancer, sharing one repositories volume', async (t) => {
    const cp = compose.services['control-plane'];
    t.ok(cp.deploy.replicas > 1, `control-plane replicas: ${cp.deploy.replicas}`);
    t.equal(cp.container_name, undefined, 'no fixed container name (it would forbid a second replica)');
    t.equal(cp.ports, undefined, 'no published port on a replica (two would clash on the host)');
    // Every replica of a service mounts the same named volume at the data folder (repositories live there).
    const data = cp.volumes.map((v: any) => (typeof v === 'string' ? v.split(':') : [v.source, v.target])).find(([, target]: string[]) => target === '/app/data');
    t.ok(data && data[0] in compose.volumes, `/app/data is the named volume ${data?.[0]}, which every replica mounts`);
    t.match(compose.services['control-plane'].environment.MONGODB_URI, /[?&]replicaSet=rs0(&|$)/, 'the database address names the replica set');

    const lb = compose.services.balancer;
    t.match(lb.image, /^caddy:2/);
    t.same(ports(lb.ports), ['4000:4000', '4100:4100'], 'the balancer publishes the API and the site server');
    t.same(lb.depends_on, { 'control-plane': { condition: 'service_healthy' } });
    const mount = lb.volumes.find((v: string) => v.endsWith(':/etc/caddy/Caddyfile:ro'));
    t.ok(mount, 'the balancer reads its Caddyfile');
    const caddyfile = `${ROOT}docker/${mount.split(':')[0].replace(/^\.\//, '')}`;
    const text = fs.readFileSync(caddyfile, 'utf8');
    const upstream = lb.environment?.UPSTREAM ?? 'control-plane';
    t.equal(upstream, 'control-plane', 'the balancer looks up the control-plane service');
    for (const port of ['4000', '4100']) t.match(text, new RegExp(`dynamic a \\{\\$UPSTREAM:control-plane\\} \\{\\$(API|SITE)_PORT:${port}\\}`), `port ${port} goes to every replica`);
    t.ok(intersects(lb.networks, cp.networks), 'the balancer reaches the replicas');
  });

  t.test('should be a configuration Caddy accepts, routing to every replica', { skip: hasCaddy() ? false : 'caddy is not installed' }, async (t) => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-caddy-adapt-'));
    t.teardown(() => fs.rmSync(home, { recursive: true, force: true }));
    const r = spawnSync('caddy', ['adapt', '--config', `${ROOT}docker/balancer.Caddyfile`, '--adapter', 'caddyfile', '--validate'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: home } });
    t.equal(r.status, 0, r.stderr);
    const servers = Object.values(JSON.parse(r.stdout).apps.http.servers) as any[];
    const byPort = Object.fromEntries(servers.map((s) => [s.listen[0], s.routes.flatMap((route: any) => route.handle)]));
    t.same(Object.keys(byPort).sort(), [':4000', ':4100']);
    for (const [listen, handlers] of Object.entries(byPort) as [string, any[]][]) {
      for (const h of handlers) t.same(h.dynamic_upstreams, { name: 'control-plane', port: listen.slice(1), refresh: 5e9, source: 'a' }, `${listen}: every replica Docker's DNS names`);
    }
    t.equal(byPort[':4000'][0].load_balancing.selection_policy.policy, 'uri_hash', "one project's editor socket always reaches the same replica");
  });

  t.test('should run builders with a grace period longer than their graceful stop', async (t) => {
    const b = compose.services.builder;
    t.equal(b.deploy.replicas, 2);
    t.same(b.command, ['worker']);
    t.equal(b.environment.CONTROL_PLANE_URL, 'http://balancer:4000');
    t.equal(b.environment.WORKER_SECRET, 'w-secret');
    t.equal(b.environment.MONGODB_URI, undefined, 'builders hold no database address');
    t.same(Object.keys(b.environment).filter((k) => k.startsWith('S3_')), [], 'builders hold no storage credentials');
    t.equal(b.ports, undefined);
    const graceS = Number(/^(\d+)s$/.exec(b.stop_grace_period)?.[1]);
    t.ok(graceS * 1000 > Number(b.environment.GRACEFUL_MS), `stop_grace_period ${b.stop_grace_period} > GRACEFUL_MS ${b.environment.GRACEFUL_MS}`);
  });

  t.test('should give builders a route to the balancer and to object storage, and to nothing else of the platform', async (t) => {
    const s = compose.services;
    const b = s.builder;
    t.ok(intersects(b.networks, s.balancer.networks), 'builders reach the balancer');
    t.ok(intersects(b.networks, s.minio.networks), 'builders reach MinIO, to upload straight to the bucket');
    t.match(fs.readFileSync(`${ROOT}${COMPOSE}`, 'utf8'), /builder uploads a site's files straight to the\s+# bucket/, 'the compose file says why builders reach MinIO');
    for (const name of ['mongo', 'minio-init', 'control-plane']) t.notOk(intersects(b.networks, s[name].networks), `builders share no network with ${name}`);
    t.same(s.mongo.networks, ['backend'], 'MongoDB is on the backend network only');
    t.ok(intersects(s['control-plane'].networks, s.mongo.networks) && intersects(s['control-plane'].networks, s.minio.networks), 'replicas reach MongoDB and MinIO');
  });

  for (const [file, entry] of [['control-plane.Dockerfile', 'scripts/src/start.ts'], ['builder.Dockerfile', 'docker/builder-entrypoint.sh']] as const) {
    t.test(`should build ${file} in stages and run it unprivileged with a health check`, async (t) => {
      const d = dockerfile(file);
      t.same(d.stages.map((s) => s.replace(/\s+/g, ' ')), ['FROM ${NODE_IMAGE} AS deps', 'FROM ${NODE_IMAGE} AS runtime']);
      t.equal(d.args.NODE_IMAGE, 'node:20-bookworm-slim');
      t.match(d.text, /npm ci --omit=dev --ignore-scripts/);
      const user = d.runtime.filter((l) => /^USER /.test(l)).at(-1);
      t.equal(user, 'USER folio');
      t.match(d.text, /useradd --system --uid 10001 --gid folio/);
      t.match(d.runtime.find((l) => /^HEALTHCHECK /.test(l)) ?? '', /CMD \["node", "docker\/(control-plane|builder)-healthcheck\.mjs"\]$/);
      t.ok(d.runtime.includes('STOPSIGNAL SIGTERM'));
      t.ok(d.text.includes(entry));
      for (const src of d.copies) t.ok(fs.existsSync(`${ROOT}${src}`), `COPY source ${src} exists`);
      const ignored = fs.readFileSync(`${ROOT}.dockerignore`, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
      for (const src of d.copies) t.notOk(ignored.includes(src), `${src} is not excluded by .dockerignore`);
    });
  }

  t.test('should pass the control plane health check while the API answers, and only then', async (t) => {
    const tp = await startTestPlatform();
    const port = new URL(tp.p.internalUrl).port;
    // Asynchronous: the API answers from this very process, so a blocking spawn would starve it.
    const check = () => new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [`${ROOT}docker/control-plane-healthcheck.mjs`], { env: { PATH: process.env.PATH, API_PORT: port } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => { stderr += d; });
      child.on('close', (status) => resolve({ status, stderr }));
    });
    const up = await check();
    t.same([up.status, up.stderr], [0, '']);
    await tp.close();
    const down = await check();
    t.same([down.status, down.stderr], [1, 'unhealthy: fetch failed\n']);
  });

  t.test('should install git only where the control plane serves it', async (t) => {
    t.match(dockerfile('control-plane.Dockerfile').runtime.join('\n'), /apt-get install -y --no-install-recommends git ca-certificates/);
    t.notMatch(dockerfile('builder.Dockerfile').text, /apt-get install/);
  });
});
