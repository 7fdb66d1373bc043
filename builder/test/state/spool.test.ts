import fs from 'node:fs';
import os from 'node:os';
import t from 'tap';
import { Spool } from '../../src/state/spool.ts';

const spoolFiles = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('folio-spool-'));

t.test('Spool', async (t) => {
  t.test('should give back text and bytes as added, one by one and all at once', async (t) => {
    const spool = new Spool();
    t.teardown(() => spool.close());
    spool.add('a', 'plain text');
    spool.add('b', 'ünïcode → ✓');
    spool.add('c', Buffer.from([0, 1, 2, 255]));
    spool.add('empty', '');
    spool.add('a', 'a second text under a key keeps the first');
    t.equal(spool.count, 4);
    t.equal(spool.get('b')!.toString('utf8'), 'ünïcode → ✓');
    t.same([...spool.get('c')!], [0, 1, 2, 255]);
    t.equal(spool.get('missing'), undefined);
    const all = spool.readAll();
    t.same([...all.keys()], ['a', 'b', 'c', 'empty']);
    t.equal(Buffer.from(all.get('a')!).toString('utf8'), 'plain text');
    t.equal(all.get('empty')!.byteLength, 0);
  });

  t.test('should hold its data in a file, not in memory, and remove the file when closed', async (t) => {
    const before = new Set(spoolFiles());
    const spool = new Spool();
    t.same(spoolFiles().filter((f) => !before.has(f)), [], 'no file before the first add');
    const text = 'x'.repeat(1 << 20);
    spool.add('big', text);
    const made = spoolFiles().filter((f) => !before.has(f));
    t.equal(made.length, 1);
    t.equal(fs.statSync(`${os.tmpdir()}/${made[0]}/spool`).size, 1 << 20);
    t.equal(spool.get('big')!.toString('utf8'), text);
    spool.close();
    t.same(spoolFiles().filter((f) => !before.has(f)), [], 'removed');
    t.equal(spool.count, 0);
    spool.add('again', 'usable after close');
    t.equal(spool.get('again')!.toString('utf8'), 'usable after close');
    spool.close();
  });

  t.test('should report a file cut short with the builder\'s error', async (t) => {
    const before = new Set(spoolFiles());
    const spool = new Spool();
    t.teardown(() => spool.close());
    spool.add('a', 'some text that will be cut');
    const [dir] = spoolFiles().filter((f) => !before.has(f));
    fs.truncateSync(`${os.tmpdir()}/${dir}/spool`, 4);
    t.throws(() => spool.get('a'), { code: 'spool_truncated' });
  });
});
