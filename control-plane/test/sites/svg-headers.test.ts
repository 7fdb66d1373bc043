import t from 'tap';
import { SVG_CSP } from '../../src/sites/site-server.ts';
import { startGithubStandIn } from '../helpers/github-stand-in.ts';
import { startTestPlatform } from '../helpers/platform.ts';
import { form, PNG } from '../uploads/upload-fixtures.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const HOSTILE = `<svg ${NS}><style>@import url(https://evil.example/x.css);.a{fill:red}</style><image href="https://evil.example/t.png" width="1"/><rect class="a" style="background:url(https://evil.example/b.png);fill:blue" width="2"/></svg>`;
const CLEAN = `<svg ${NS}><style>.a{fill:red}</style><image width="1"/><rect class="a" style="fill:blue" width="2"/></svg>`;

t.test('SVGs served by the site server', async (t) => {
  const gh = await startGithubStandIn();
  t.teardown(() => gh.close());
  const tp = await startTestPlatform(gh.env);
  await gh.connect(tp.p.cp.m, tp.orgId, 'acme/assets');
  t.teardown(() => tp.close());
  const upload = async (path: string, method: string, body: FormData) => {
    const res = await fetch(`${tp.p.cp.apiUrl}${path}`, { method, headers: { authorization: `Bearer ${tp.key}` }, body });
    return { status: res.status, body: await res.json() };
  };

  t.test('should serve an uploaded logo sanitised, with a CSP that blocks script and fetches', async (t) => {
    const project = (await tp.api('POST', '/projects', { name: 'Logo', slug: 'svg-logo' })).body;
    const res = await upload(`/projects/${project.id}/logo`, 'PUT', form({ light: { bytes: HOSTILE, filename: 'logo.svg' } }));
    t.equal(res.status, 200);
    const served = await tp.site('svg-logo', res.body.logo.light);
    t.same([served.status, served.body], [200, CLEAN]);
    t.same(
      [served.headers.get('content-type'), served.headers.get('content-security-policy'), served.headers.get('x-content-type-options')],
      ['image/svg+xml', "default-src 'none'; style-src 'unsafe-inline'", 'nosniff'],
    );
    t.equal(SVG_CSP, "default-src 'none'; style-src 'unsafe-inline'");
  });

  t.test('should serve an own-repository asset SVG with the same policy, and other types without it', async (t) => {
    const project = (await tp.api('POST', '/projects', { name: 'Asset', slug: 'svg-asset', github_repo: 'acme/assets' })).body;
    const svg = await upload(`/projects/${project.id}/asset`, 'POST', form({ file: { bytes: HOSTILE, filename: 'mark.svg' } }, { dir: 'brand' }));
    t.equal(svg.status, 201);
    const served = await tp.site('svg-asset', svg.body.path);
    t.same([served.status, served.body, served.headers.get('content-security-policy')], [200, CLEAN, SVG_CSP]);
    const png = await upload(`/projects/${project.id}/asset`, 'POST', form({ file: { bytes: PNG, filename: 'mark.png' } }));
    const raster = await tp.site('svg-asset', png.body.path);
    t.same([raster.status, raster.headers.get('content-type'), raster.headers.get('content-security-policy'), raster.headers.get('x-content-type-options')], [200, 'image/png', null, 'nosniff']);
  });
});
