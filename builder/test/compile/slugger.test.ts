import t from 'tap';
import { Slugger, slugify } from '../../src/compile/slugger.ts';

t.test('Slugger', async (t) => {
  t.test('should lowercase, drop punctuation and accents, and hyphenate spaces', async (t) => {
    t.equal(slugify('Hello, World!'), 'hello-world');
    t.equal(slugify('Café  au lait'), 'cafe-au-lait');
    t.equal(slugify('API v2.0 (beta)'), 'api-v20-beta');
    t.equal(slugify('日本語 ok'), '日本語-ok');
    t.equal(slugify('!!!'), 'section');
  });

  t.test('should number repeated slugs in order without colliding with written ones', async (t) => {
    const s = new Slugger();
    t.same(['Intro', 'Intro', 'Intro 1', 'Intro'].map((x) => s.slug(x)), ['intro', 'intro-1', 'intro-1-1', 'intro-2']);
  });
});
