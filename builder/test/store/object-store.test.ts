import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { createLocalDirStore } from '../../src/store/local-dir-store.ts';
import { prefixStore, type ObjectStore } from '../../src/store/object-store.ts';
import { createS3Store } from '../../src/store/s3-store.ts';
import { tempDir } from '../helpers/git-repo.ts';
import { startS3Server } from '../helpers/s3-server.ts';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** An upload whose sender goes away after 7 bytes of 20. */
const failing = () => ({
  chunks: (async function* () { yield Buffer.from('partial'); throw new Error('sender went away'); })(),
  size: 20,
});

/** Uploads of fewer and of more bytes than they declare. */
const short = () => ({ ...pieces('half'), size: 8 });
const long = () => ({ ...pieces('one ', 'two ', 'three', ' four'), size: 13 });

/** An upload arriving in pieces, as a request body does. */
const pieces = (...texts: string[]) => ({
  chunks: (async function* () { for (const text of texts) yield Buffer.from(text); })(),
  size: texts.join('').length,
});

/** The behaviour both implementations share, asserted the same way against each. */
async function contract(t: Test, store: ObjectStore) {
  await t.test('should put, get and head exact bytes', async (t) => {
    await store.put('guides/install.html', Buffer.from('<h1>Install</h1>'));
    t.equal(Buffer.from((await store.get('guides/install.html'))!).toString(), '<h1>Install</h1>');
    t.same(await store.head('guides/install.html'), { etag: md5('<h1>Install</h1>'), size: 16, contentType: 'text/html; charset=utf-8' });
  });

  await t.test('should answer undefined for a missing key', async (t) => {
    t.equal(await store.get('nope.html'), undefined);
    t.equal(await store.head('nope.html'), undefined);
  });

  await t.test('should overwrite in place', async (t) => {
    await store.put('guides/install.html', Buffer.from('v2'));
    t.equal(Buffer.from((await store.get('guides/install.html'))!).toString(), 'v2');
  });

  await t.test('should list by prefix, sorted, across pages of results', async (t) => {
    const keys = Array.from({ length: 1005 }, (_, i) => `many/p${String(i).padStart(4, '0')}.md`);
    await Promise.all(keys.map((k) => store.put(k, Buffer.from(k))));
    await store.put('manyother.txt', Buffer.from('x'));
    t.same(await store.list('many/'), keys);
    t.same(await store.list('many/p100'), keys.slice(1000));
    t.same(await store.list('guides/'), ['guides/install.html']);
  });

  await t.test('should delete keys, ignoring missing ones, in batches over 1,000', async (t) => {
    const keys = await store.list('many/');
    await store.delete([...keys, 'never-existed.txt']);
    t.same(await store.list('many/'), []);
    t.same(await store.list('manyother'), ['manyother.txt']);
  });

  await t.test('should scope keys under a site prefix', async (t) => {
    const site = prefixStore(store, 'sites/acme/');
    await site.put('index.html', Buffer.from('acme'));
    t.same(await site.list(''), ['index.html']);
    t.same(await store.list('sites/'), ['sites/acme/index.html']);
    t.equal(Buffer.from((await store.get('sites/acme/index.html'))!).toString(), 'acme');
  });

  await t.test('should write a stream of pieces, and fail one that is not the size declared', async (t) => {
    await store.putStream('streamed/big.txt', pieces('one ', 'two ', 'three'), { cacheControl: 'no-cache' });
    t.equal(Buffer.from((await store.get('streamed/big.txt'))!).toString(), 'one two three');
    t.same(await store.head('streamed/big.txt'), { etag: md5('one two three'), size: 13, contentType: 'text/plain; charset=utf-8' });
    await store.putStream('streamed/empty.txt', pieces());
    t.same(await store.head('streamed/empty.txt'), { etag: md5(''), size: 0, contentType: 'text/plain; charset=utf-8' });
    await store.delete(['streamed/big.txt', 'streamed/empty.txt']);
    for (const [body, what] of [[short(), 'shorter'], [long(), 'longer'], [failing(), 'cut short']] as const) {
      await t.rejects(store.putStream('streamed/cut.txt', body), { code: 'store_write_failed', message: 'Could not write streamed/cut.txt' }, what);
    }
  });

  await t.test('should refuse keys that climb out of the store', async (t) => {
    await t.rejects(store.put('../x.html', Buffer.from('x')), { message: 'Unexpected object key "../x.html"; expected a relative path without "." or ".." segments' });
    await t.rejects(store.putStream('../x.html', pieces('x')), { message: 'Unexpected object key "../x.html"; expected a relative path without "." or ".." segments' });
    await t.rejects(store.copy('ok.html', '../x.html'), { message: 'Unexpected object key "../x.html"; expected a relative path without "." or ".." segments' });
  });

  await t.test('should copy an object over another, keep the copy\'s bytes when the source changes, and answer false for a missing source', async (t) => {
    const text = async (key: string) => { const bytes = await store.get(key); return bytes && Buffer.from(bytes).toString(); };
    await store.put('copy/page.html', Buffer.from('<p>one</p>'));
    await store.put('copy/other.html', Buffer.from('other'));
    t.equal(await store.copy('copy/page.html', 'copy/other.html'), true);
    t.equal(await text('copy/other.html'), '<p>one</p>', 'the target replaced');
    t.same(await store.head('copy/other.html'), { etag: md5('<p>one</p>'), size: 10, contentType: 'text/html; charset=utf-8' });
    t.equal(await store.copy('copy/page.html', 'rollback/d1/k/sites/p/copy/page.html'), true, 'into folders that do not exist yet');
    await store.put('copy/page.html', Buffer.from('<p>two</p>'));
    await store.putStream('copy/other.html', pieces('<p>', 'three', '</p>'));
    t.equal(await text('rollback/d1/k/sites/p/copy/page.html'), '<p>one</p>', 'a put does not change a copy');
    t.equal(await text('copy/other.html'), '<p>three</p>', 'nor a streamed one');
    t.equal(await store.copy('rollback/d1/k/sites/p/copy/page.html', 'copy/page.html'), true, 'copied back');
    t.same(await store.head('copy/page.html'), { etag: md5('<p>one</p>'), size: 10, contentType: 'text/html; charset=utf-8' });
    t.equal(await store.copy('copy/missing.html', 'copy/never.html'), false);
    t.equal(await store.head('copy/never.html'), undefined);
    t.same(await store.list('rollback/'), ['rollback/d1/k/sites/p/copy/page.html']);
    await store.delete(['rollback/d1/k/sites/p/copy/page.html', 'copy/page.html', 'copy/other.html']);
    t.same(await store.list('copy/'), []);
    t.same(await store.list('rollback/'), []);
  });
}

t.test('object stores', async (t) => {
  await t.test('local directory', async (t) => {
    const root = tempDir();
    const store = createLocalDirStore(root);
    await contract(t, store);
    await t.test('should write files at their keys and leave no temp files or empty folders', async (t) => {
      await store.put('a/b/c.txt', Buffer.from('c'));
      t.equal(fs.readFileSync(path.join(root, 'a/b/c.txt'), 'utf8'), 'c');
      await store.delete(['a/b/c.txt']);
      t.equal(fs.existsSync(path.join(root, 'a')), false);
      t.same(fs.readdirSync(path.join(root, 'guides')), ['install.html']);
    });
    await t.test('should write into a folder it pruned, or one removed behind its back', async (t) => {
      await store.put('x/y/1.txt', Buffer.from('1'));
      await store.delete(['x/y/1.txt']);
      await store.put('x/y/2.txt', Buffer.from('2'));
      t.equal(fs.readFileSync(path.join(root, 'x/y/2.txt'), 'utf8'), '2');
      fs.rmSync(path.join(root, 'x'), { recursive: true });
      await store.put('x/y/3.txt', Buffer.from('3'));
      t.same(fs.readdirSync(path.join(root, 'x/y')), ['3.txt']);
    });
    await t.test('should copy by a hard link, leaving no temp file', async (t) => {
      await store.put('linked/a.txt', Buffer.from('a'));
      t.equal(await store.copy('linked/a.txt', 'linked/deep/b.txt'), true);
      const [a, b] = ['a.txt', 'deep/b.txt'].map((f) => fs.statSync(path.join(root, 'linked', f)));
      t.equal(b.ino, a.ino, 'the same file, no bytes copied');
      t.equal(a.nlink, 2);
      t.same(fs.readdirSync(path.join(root, 'linked')).sort(), ['a.txt', 'deep']);
      t.same(fs.readdirSync(path.join(root, 'linked/deep')), ['b.txt']);
      t.equal(await store.copy('linked/deep/b.txt', 'linked/a.txt'), true, 'back onto the same file');
      t.same(fs.readdirSync(path.join(root, 'linked')).sort(), ['a.txt', 'deep'], 'no temp file left');
      await store.put('linked/a.txt', Buffer.from('changed'));
      t.equal(fs.readFileSync(path.join(root, 'linked/deep/b.txt'), 'utf8'), 'a');
      await store.delete(['linked/a.txt', 'linked/deep/b.txt']);
      t.equal(fs.existsSync(path.join(root, 'linked')), false);
    });
    await t.test('should keep the object as it was when an upload fails', async (t) => {
      await store.put('kept.txt', Buffer.from('kept'));
      for (const body of [short(), long(), failing()]) await t.rejects(store.putStream('kept.txt', body), { code: 'store_write_failed' });
      t.same(await store.head('kept.txt'), { etag: md5('kept'), size: 4, contentType: 'text/plain; charset=utf-8' });
      t.same(fs.readdirSync(root).filter((name) => name.startsWith('kept')), ['kept.txt'], 'no temp file left');
    });
    await t.test('should give a file\'s ETag anew whenever its bytes change, however they were written', async (t) => {
      await store.put('e.txt', Buffer.from('aaaa'));
      t.equal((await store.head('e.txt'))?.etag, md5('aaaa'));
      t.equal((await store.head('e.txt'))?.etag, md5('aaaa'), 'remembered');
      await store.put('e.txt', Buffer.from('bbbb'));
      t.same(await store.head('e.txt'), { etag: md5('bbbb'), size: 4, contentType: 'text/plain; charset=utf-8' }, 'the same size, written by the store');
      const file = path.join(root, 'e.txt');
      const { mtime } = fs.statSync(file);
      fs.writeFileSync(file, 'cccc');
      fs.utimesSync(file, mtime, mtime);
      t.equal((await store.head('e.txt'))?.etag, md5('cccc'), 'rewritten in place behind its back, its modification time put back');
      fs.rmSync(file);
      t.equal(await store.head('e.txt'), undefined);
      fs.mkdirSync(file);
      t.equal(await store.head('e.txt'), undefined, 'a folder is no object');
    });
  });

  await t.test('S3 on s3rver', async (t) => {
    const server = await startS3Server();
    t.teardown(() => server.close());
    const client = server.client();
    const store = createS3Store({ client, bucket: server.bucket, prefix: 'prod/' });
    // What S3 keeps of an aborted upload is not asserted: S3 keeps nothing, s3rver sometimes an
    // empty or partial object.
    await contract(t, store);
    await t.test('should set Content-Type and Cache-Control per key', async (t) => {
      await store.put('_folio/client-1a2b3c.js', Buffer.from('x'));
      await store.put('_pagefind/fragment/en_1a2b3c.pf_fragment', Buffer.from('x'));
      await store.put('guides/index.html', Buffer.from('x'));
      await store.put('llms.txt', Buffer.from('x'));
      await store.put('_folio/cache/manifest.json.gz', Buffer.from('{}'));
      const seen = async (key: string) => {
        const h = await client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: `prod/${key}` }));
        return [h.ContentType, h.CacheControl];
      };
      t.same(await seen('_folio/client-1a2b3c.js'), ['text/javascript; charset=utf-8', 'public, max-age=31536000, immutable']);
      t.same(await seen('_pagefind/fragment/en_1a2b3c.pf_fragment'), ['application/octet-stream', 'public, max-age=31536000, immutable']);
      t.same(await seen('guides/index.html'), ['text/html; charset=utf-8', 'public, max-age=0, must-revalidate']);
      t.same(await seen('llms.txt'), ['text/plain; charset=utf-8', 'public, max-age=0, must-revalidate']);
      t.same(await seen('_folio/cache/manifest.json.gz'), ['application/gzip', 'no-store']);
    });
  });
});
