import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { loadConfig } from '../../src/config/parse-config.ts';
import { MAX_REF_CHAIN, MAX_REF_FILE_BYTES, MAX_REF_FILES, resolveRefs } from '../../src/config/resolve-refs.ts';
import { BuilderError } from '../../src/errors.ts';
import { openDirSnapshot } from '../../src/git/repo-snapshot.ts';
import { tempDir } from '../helpers/git-repo.ts';

const location = { siteUrl: 'https://acme.example', basePath: '' };

/** A reader over an in-memory repository. */
const repo = (files: Record<string, unknown>) => async (p: string) => {
  if (!Object.hasOwn(files, p)) return undefined;
  const v = files[p];
  return typeof v === 'string' ? v : JSON.stringify(v);
};

async function failure(t: Test, run: Promise<unknown>, code = 'invalid_config'): Promise<string> {
  try {
    await run;
  } catch (error) {
    t.ok(error instanceof BuilderError);
    t.same({ kind: (error as BuilderError).kind, code: (error as BuilderError).code }, { kind: 'user', code });
    return (error as BuilderError).message;
  }
  t.fail('expected a rejection');
  return '';
}

t.test('resolveRefs', async (t) => {
  t.test('should replace $ref objects with the JSON of the file, relative to the file holding them', async (t) => {
    const read = repo({
      'config/nav.json': { tabs: [{ $ref: './tabs/api.json' }] },
      'config/tabs/api.json': { tab: 'API', pages: ['api'] },
      'redirects.json': [{ source: '/a', destination: '/b' }],
    });
    const { value, files } = await resolveRefs({ name: 'A', navigation: { $ref: './config/nav.json' }, redirects: { $ref: 'redirects.json' } }, 'docs.json', read);
    t.same(value, { name: 'A', navigation: { tabs: [{ tab: 'API', pages: ['api'] }] }, redirects: [{ source: '/a', destination: '/b' }] });
    t.same([...files.keys()], ['config/nav.json', 'config/tabs/api.json', 'redirects.json']);
  });

  t.test('should lay keys beside $ref over the included object', async (t) => {
    const { value } = await resolveRefs({ colors: { $ref: 'colors.json', primary: '#000000' } }, 'docs.json', repo({ 'colors.json': { primary: '#ffffff', light: '#eeeeee' } }));
    t.same(value, { colors: { primary: '#000000', light: '#eeeeee' } });
  });

  t.test('should keep a "__proto__" key a plain key', async (t) => {
    const { value } = await resolveRefs(JSON.parse('{"a":{"__proto__":{"x":1}}}'), 'docs.json', repo({}));
    t.equal(Object.getPrototypeOf((value as { a: object }).a), Object.prototype);
    t.same(Object.keys((value as { a: object }).a), ['__proto__']);
  });

  t.test('should refuse targets outside the repository, absolute paths, URLs and fragments, each in one line', async (t) => {
    const cases: [unknown, string][] = [
      ['../secrets.json', 'docs.json: navigation.$ref: Unexpected "../secrets.json"; expected a file inside the repository'],
      ['a/../../x.json', 'docs.json: navigation.$ref: Unexpected "a/../../x.json"; expected a file inside the repository'],
      ['/etc/passwd', 'docs.json: navigation.$ref: Unexpected "/etc/passwd"; expected a relative path such as ./navigation.json'],
      ['C:\\x.json', 'docs.json: navigation.$ref: Unexpected "C:\\\\x.json"; expected the relative path of a JSON file in the repository (URLs and # fragments are not read)'],
      ['https://evil.example/nav.json', 'docs.json: navigation.$ref: Unexpected "https://evil.example/nav.json"; expected the relative path of a JSON file in the repository (URLs and # fragments are not read)'],
      ['#/definitions/nav', 'docs.json: navigation.$ref: Unexpected "#/definitions/nav"; expected the relative path of a JSON file in the repository (URLs and # fragments are not read)'],
      [42, 'docs.json: navigation.$ref: Unexpected 42; expected the relative path of a JSON file in the repository'],
      ['./', 'docs.json: navigation.$ref: Unexpected "./"; expected a file inside the repository'],
      ['missing.json', 'docs.json: navigation.$ref: Unexpected "missing.json"; expected an existing file (missing.json is not in the repository)'],
    ];
    for (const [ref, message] of cases) t.equal(await failure(t, resolveRefs({ navigation: { $ref: ref } }, 'docs.json', repo({}))), message);
  });

  t.test('should never read through a symbolic link leading out of the repository', async (t) => {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'secret.json'), '{"token":"s3cret"}');
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'docs.json'), '{"name":"A","navigation":{"$ref":"nav.json"}}');
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(dir, 'nav.json'));
    // The snapshot (the only reader $ref has) lists the link but refuses to read it: $ref fails.
    const leaking = await openDirSnapshot(dir);
    const readLeaking = async (p: string) => (leaking.files.has(p) ? Buffer.from(await leaking.read(p)).toString('utf8') : undefined);
    const message = await failure(t, loadConfig('{"name":"A","navigation":{"$ref":"nav.json"}}', readLeaking, location), 'unsafe_path');
    t.match(message, /^Symbolic link "nav\.json" points to ".*secret\.json", outside the repository; expected a link to a file inside it$/);
    // A link inside the repository reads as its target.
    fs.rmSync(path.join(dir, 'nav.json'));
    fs.writeFileSync(path.join(dir, 'real.json'), '["index"]');
    fs.symlinkSync('real.json', path.join(dir, 'nav.json'));
    fs.writeFileSync(path.join(dir, 'index.mdx'), '# Home\n');
    const snapshot = await openDirSnapshot(dir);
    const read = async (p: string) => (snapshot.files.has(p) ? Buffer.from(await snapshot.read(p)).toString('utf8') : undefined);
    t.same((await loadConfig('{"name":"A","navigation":{"$ref":"nav.json"}}', read, location)).config.navigation, ['index']);
  });

  t.test('should refuse cycles, naming the files in the loop', async (t) => {
    const read = repo({ 'a.json': { next: { $ref: 'b.json' } }, 'b.json': { back: { $ref: './a.json' } }, 'self.json': { $ref: 'self.json' } });
    t.equal(
      await failure(t, resolveRefs({ x: { $ref: 'a.json' } }, 'docs.json', read)),
      'b.json: back.$ref: Unexpected "./a.json", which includes itself (a.json → b.json → a.json); expected a file that does not include itself',
    );
    t.equal(
      await failure(t, resolveRefs({ $ref: 'docs.json' }, 'docs.json', read)),
      'docs.json: $ref: Unexpected "docs.json", which includes itself (docs.json → docs.json); expected a file that does not include itself',
    );
    t.equal(
      await failure(t, resolveRefs({ y: { $ref: 'self.json' } }, 'docs.json', read)),
      'self.json: $ref: Unexpected "self.json", which includes itself (self.json → self.json); expected a file that does not include itself',
    );
  });

  t.test('should bound the chain, the number of includes and the size of a file', async (t) => {
    const chain = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`c${i}.json`, { $ref: `c${i + 1}.json` }]));
    t.equal(
      await failure(t, resolveRefs({ $ref: 'c0.json' }, 'docs.json', repo(chain))),
      `c${MAX_REF_CHAIN - 1}.json: $ref: Unexpected "c${MAX_REF_CHAIN}.json" at include depth ${MAX_REF_CHAIN + 1}; expected at most ${MAX_REF_CHAIN} files including one another`,
    );
    const many = { list: Array.from({ length: MAX_REF_FILES + 1 }, () => ({ $ref: 'one.json' })) };
    t.equal(
      await failure(t, resolveRefs(many, 'docs.json', repo({ 'one.json': 1 }))),
      `docs.json: list[${MAX_REF_FILES}].$ref: Unexpected "one.json", include number ${MAX_REF_FILES + 1}; expected at most ${MAX_REF_FILES} $ref includes`,
    );
    const big = `"${'x'.repeat(MAX_REF_FILE_BYTES)}"`;
    t.equal(
      await failure(t, resolveRefs({ a: { $ref: 'big.json' } }, 'docs.json', repo({ 'big.json': big }))),
      `docs.json: a.$ref: Unexpected "big.json" of ${MAX_REF_FILE_BYTES + 2} bytes; expected at most ${MAX_REF_FILE_BYTES} bytes`,
    );
  });

  t.test('should report invalid JSON and deep nesting in an included file by its own name', async (t) => {
    t.equal(await failure(t, resolveRefs({ a: { $ref: 'bad.json' } }, 'docs.json', repo({ 'bad.json': '{\n  "a": }' }))), 'bad.json:2:8: Unexpected token "}"; expected a value');
    const deep = '['.repeat(70) + ']'.repeat(70);
    t.equal(await failure(t, resolveRefs({ a: { $ref: 'deep.json' } }, 'docs.json', repo({ 'deep.json': deep }))), 'deep.json: Unexpected nesting deeper than 64 levels; expected a flatter file');
  });

  t.test('should refuse keys beside a $ref to something other than an object', async (t) => {
    t.equal(
      await failure(t, resolveRefs({ redirects: { $ref: 'r.json', extra: 1 } }, 'docs.json', repo({ 'r.json': [] }))),
      'docs.json: redirects.$ref: Unexpected "extra" beside a $ref to an array; expected keys beside $ref only when it names an object',
    );
  });

  t.test('should validate the resolved configuration and hash its files through loadConfig', async (t) => {
    const read = repo({ 'redirects.json': { not: 'a list' } });
    t.equal(
      await failure(t, loadConfig('{"name":"A","redirects":{"$ref":"redirects.json"}}', read, location)),
      'docs.json: redirects: Unexpected object; expected array',
    );
    const ok = await loadConfig('{"name":"A","redirects":{"$ref":"r.json"}}', repo({ 'r.json': [{ source: '/a', destination: '/b' }] }), location);
    t.same(ok.config.redirects, [{ source: '/a', destination: '/b', permanent: false }]);
    t.same([...ok.files.keys()], ['docs.json', 'r.json']);
  });
});
