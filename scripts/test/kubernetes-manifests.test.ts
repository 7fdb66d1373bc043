/**
 * The Kubernetes manifests under docker/kubernetes: every object valid against the Kubernetes
 * schemas (kubernetes-models), and the promises the folder's README makes kept: probes and
 * resources on every container, budgets and the autoscaler aimed at Deployments that exist, the
 * Services' selectors matching pods, builders with no inbound traffic and no way to the
 * database, storage, private addresses or the cloud metadata address, and every environment
 * variable one the platform reads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { envSchema } from '@folio/control-plane/env.ts';

const DIR = fileURLToPath(new URL('../../docker/kubernetes/', import.meta.url));

type Obj = Record<string, any>;

// Each model's constructor takes its own shape; the YAML is what validate() checks.
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Secret': Secret,
  'v1/Service': Service,
};

/** Variables the builder worker reads (builder/src/worker/main.ts) besides the control plane's schema. */
const BUILDER_ENV = new Set(['CONTROL_PLANE_URL', 'WORKER_SECRET', 'GRACEFUL_MS', 'WORK_DIR', 'HEALTH_FILE', 'HEALTH_MAX_AGE_MS']);

function readObjects(): Array<{ file: string; obj: Obj }> {
  const out: Array<{ file: string; obj: Obj }> = [];
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.yaml')).sort()) {
    if (file === 'kustomization.yaml') continue;
    for (const doc of parseAllDocuments(readFileSync(DIR + file, 'utf8'))) {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      const obj = doc.toJS() as Obj | null;
      if (obj) out.push({ file, obj });
    }
  }
  return out;
}

const objects = readObjects();
const ofKind = (kind: string) => objects.filter((o) => o.obj.kind === kind).map((o) => o.obj);
const matches = (selector: Obj, labels: Obj) => Object.entries(selector).every(([k, v]) => labels[k] === v);

t.test('kubernetes manifests', async (t) => {
  t.test('should validate every object against the Kubernetes schema of its kind', async (t) => {
    t.ok(objects.length >= 14, `${objects.length} objects read`);
    for (const { file, obj } of objects) {
      const Model = MODELS[`${obj.apiVersion}/${obj.kind}`];
      if (!Model) { t.fail(`${file}: no schema for ${obj.apiVersion} ${obj.kind}`); continue; }
      t.doesNotThrow(() => new Model(obj).validate(), `${file}: ${obj.kind} ${obj.metadata?.name}`);
    }
  });

  t.test('should reject an object the schema forbids (the check is live)', async (t) => {
    const broken = structuredClone(ofKind('Deployment')[0]!);
    broken.spec.replicas = 'two';
    t.throws(() => new Deployment(broken).validate());
  });

  t.test('should list every manifest in the kustomization, and only files that exist', async (t) => {
    const kustomization = parseAllDocuments(readFileSync(DIR + 'kustomization.yaml', 'utf8'))[0]!.toJS() as Obj;
    const files = new Set(objects.map((o) => o.file));
    files.delete('secret.example.yaml');
    t.same([...kustomization.resources].sort(), [...files].sort());
  });

  t.test('should give every container probes, a memory limit and no privilege escalation', async (t) => {
    for (const d of ofKind('Deployment')) {
      t.equal(d.spec.template.spec.automountServiceAccountToken, false, `${d.metadata.name}: no API token`);
      t.equal(d.spec.template.spec.securityContext.runAsNonRoot, true, `${d.metadata.name}: not root`);
      for (const c of d.spec.template.spec.containers) {
        t.ok(c.livenessProbe && c.readinessProbe, `${d.metadata.name}/${c.name}: probes`);
        t.ok(c.resources?.limits?.memory, `${d.metadata.name}/${c.name}: memory limit`);
        t.equal(c.securityContext?.allowPrivilegeEscalation, false, `${d.metadata.name}/${c.name}`);
        t.same(c.securityContext?.capabilities?.drop, ['ALL'], `${d.metadata.name}/${c.name}: capabilities`);
      }
    }
  });

  t.test('should aim Services, budgets and the autoscaler at Deployments that exist', async (t) => {
    const deployments = ofKind('Deployment');
    const podLabels = deployments.map((d) => d.spec.template.metadata.labels as Obj);
    for (const s of ofKind('Service')) t.ok(podLabels.some((l) => matches(s.spec.selector, l)), `service ${s.metadata.name} selects pods`);
    for (const p of ofKind('PodDisruptionBudget')) t.ok(podLabels.some((l) => matches(p.spec.selector.matchLabels, l)), `budget ${p.metadata.name} selects pods`);
    const names = new Set(deployments.map((d) => d.metadata.name));
    t.same(ofKind('PodDisruptionBudget').map((p) => p.metadata.name).sort(), [...names].sort(), 'one budget per Deployment');
    const [hpa] = ofKind('HorizontalPodAutoscaler');
    t.equal(hpa!.spec.scaleTargetRef.name, 'folio-builder');
    t.ok(names.has(hpa!.spec.scaleTargetRef.name));
    t.match(hpa!.spec.metrics[0].external.metric.name, /^folio_queue_depth/);
    for (const d of deployments) for (const c of d.spec.template.spec.containers) {
      for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe].filter(Boolean)) {
        if (probe.httpGet) t.ok(c.ports.some((p: Obj) => p.name === probe.httpGet.port), `${d.metadata.name}: probe port ${probe.httpGet.port} is declared`);
      }
    }
  });

  t.test('should keep builders away from everything but the API, DNS and public HTTPS', async (t) => {
    const policies = ofKind('NetworkPolicy');
    const deny = policies.find((p) => p.metadata.name === 'default-deny')!;
    t.same(deny.spec.podSelector, {});
    t.same(deny.spec.policyTypes.sort(), ['Egress', 'Ingress']);
    const builderLabels = ofKind('Deployment').find((d) => d.metadata.name === 'folio-builder')!.spec.template.metadata.labels as Obj;
    const forBuilders = policies.filter((p) => p.metadata.name !== 'default-deny' && matches(p.spec.podSelector.matchLabels ?? {}, builderLabels));
    t.equal(forBuilders.length, 1, 'one policy opens anything for builders');
    const policy = forBuilders[0]!;
    t.same(policy.spec.ingress, [], 'nothing reaches a builder');
    const apiLabels = ofKind('Deployment').find((d) => d.metadata.name === 'folio-api')!.spec.template.metadata.labels as Obj;
    for (const rule of policy.spec.egress as Obj[]) {
      t.ok(rule.to?.length && rule.ports?.length, 'every egress rule names both peers and ports');
      for (const peer of rule.to) {
        if (peer.podSelector && !peer.namespaceSelector) t.ok(matches(peer.podSelector.matchLabels, apiLabels), 'the only pods builders reach are the API');
        if (peer.ipBlock) {
          for (const cidr of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '127.0.0.0/8', '100.64.0.0/10']) t.ok(peer.ipBlock.except.includes(cidr), `public HTTPS excludes ${cidr}`);
          t.same(rule.ports, [{ protocol: 'TCP', port: 443 }]);
        }
      }
    }
  });

  t.test('should set only environment variables the platform reads', async (t) => {
    const known = new Set([...Object.keys(envSchema.shape), ...BUILDER_ENV]);
    const names = [
      ...Object.keys(ofKind('ConfigMap')[0]!.data),
      ...Object.keys(ofKind('Secret')[0]!.stringData),
      ...ofKind('Deployment').flatMap((d) => d.spec.template.spec.containers.flatMap((c: Obj) => (c.env ?? []).map((e: Obj) => e.name as string))),
    ];
    for (const name of names) t.ok(known.has(name), `${name} is read by the platform`);
  });
});
