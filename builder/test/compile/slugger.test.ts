import t from 'tap';
import { Slugger, slugify } from '../../src/compile/slugger.ts';
import { paramId } from '@folio/site-template/node/anchor-id.ts';

t.test('Slugger', async (t) => {
  t.test('should make the ids Mintlify documents for its headings', async (t) => {
    // Mintlify's published examples ("Automatic anchor IDs").
    t.equal(slugify('Getting started'), 'getting-started');
    t.equal(slugify('Config.json options'), 'config-json-options');
    t.equal(slugify("What's new"), 'what’s-new');
    t.equal(slugify('Rate limits (per minute)'), 'rate-limits-per-minute');
    t.equal(slugify('Read/write access'), 'read/write-access');
    t.equal(slugify('Fees & billing'), 'fees-&-billing');
    t.equal(slugify('OAuth'), 'oauth');
  });

  t.test('should keep $, @, _, emoji, accents and other scripts, and drop other ASCII punctuation into one hyphen', async (t) => {
    t.equal(slugify('Split configuration with $ref'), 'split-configuration-with-$ref');
    t.equal(slugify('Per-Tool Options with @tool_options'), 'per-tool-options-with-@tool_options');
    t.equal(slugify('error 🤖'), 'error-🤖');
    t.equal(slugify('3. VAD & Turn Analyzer Configuration'), '3-vad-&-turn-analyzer-configuration');
    t.equal(slugify('Step 1: Issue a proxy secret'), 'step-1-issue-a-proxy-secret');
    t.equal(slugify('enableMic(enable: boolean)'), 'enablemic-enable-boolean');
    t.equal(slugify('Processor Pause/Resume (Urgent)'), 'processor-pause/resume-urgent');
    t.equal(slugify('Café  au lait'), 'café-au-lait');
    t.equal(slugify('日本語 ok'), '日本語-ok');
    t.equal(slugify('Hello, World!'), 'hello-world');
    t.equal(slugify('!!!'), 'section');
  });

  t.test('should start an id with a letter, a digit or a non-ASCII character', async (t) => {
    t.equal(slugify('_meta'), 'meta');
    t.equal(slugify('$ref Resolution'), 'ref-resolution');
    t.equal(slugify('🚀 Launch'), '🚀-launch');
  });

  t.test('should number repeated slugs from 2, without colliding with written ones', async (t) => {
    const s = new Slugger();
    t.same(['Overview', 'Overview', 'Overview 2', 'Overview'].map((x) => s.slug(x)), ['overview', 'overview-2', 'overview-2-2', 'overview-3']);
  });

  t.test('should give parameter fields Mintlify\'s param- ids', async (t) => {
    t.same(['onError', '--max-session-duration', 'max_session_duration', 'thumbnails.background', 'HTTPServer', 'user_id'].map(paramId),
      ['param-on-error', 'param-max-session-duration', 'param-max-session-duration', 'param-thumbnails-background', 'param-http-server', 'param-user-id']);
  });
});
