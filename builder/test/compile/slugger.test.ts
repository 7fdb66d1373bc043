import t from 'tap';
import { Slugger, slugify } from '../../src/compile/slugger.ts';
import { fragmentNames, paramId } from '@folio/site-template/node/anchor-id.ts';

t.test('Slugger', async (t) => {
  // Heading text → id: Mintlify's published examples ("Automatic anchor IDs") first, then links of Mintlify sites.
  const cases: [string, string][] = [
    ['Getting started', 'getting-started'], ['Config.json options', 'config-json-options'], ["What's new", 'what’s-new'],
    ['Rate limits (per minute)', 'rate-limits-per-minute'], ['Read/write access', 'read/write-access'], ['Fees & billing', 'fees-&-billing'], ['OAuth', 'oauth'],
    ['Split configuration with $ref', 'split-configuration-with-$ref'], ['Per-Tool Options with @tool_options', 'per-tool-options-with-@tool_options'],
    ['error 🤖', 'error-🤖'], ['3. VAD & Turn Analyzer Configuration', '3-vad-&-turn-analyzer-configuration'],
    ['Step 1: Issue a proxy secret', 'step-1-issue-a-proxy-secret'], ['enableMic(enable: boolean)', 'enablemic-enable-boolean'],
    ['Processor Pause/Resume (Urgent)', 'processor-pause/resume-urgent'], ['Café  au lait', 'café-au-lait'], ['日本語 ok', '日本語-ok'],
    ['Hello, World!', 'hello-world'], ['!!!', 'section'],
  ];

  t.test('should make the ids Mintlify makes: $, @, _, /, &, emoji, accents and other scripts kept, other ASCII punctuation one hyphen', async (t) => {
    for (const [text, id] of cases) t.equal(slugify(text), id, text);
  });

  t.test('should keep a leading _, @ or $ as Mintlify does, and start no id with other punctuation', async (t) => {
    t.equal(slugify('_meta'), '_meta');
    t.equal(slugify('@tool'), '@tool');
    t.equal(slugify('@worker_ready'), '@worker_ready');
    t.equal(slugify('$ref Resolution'), '$ref-resolution');
    t.equal(slugify('🚀 Launch'), '🚀-launch');
    t.equal(slugify('& more / less'), 'more-/-less');
    t.equal(slugify('- dash'), 'dash');
  });

  t.test('should let a fragment name an id with or without its leading _, @ or $', async (t) => {
    t.ok(fragmentNames('meta', '_meta'));
    t.ok(fragmentNames('_meta', '_meta'));
    t.ok(fragmentNames('tool', '@tool'));
    t.ok(fragmentNames('ref-resolution', '$ref-resolution'));
    t.notOk(fragmentNames('_meta', 'meta'), 'a leading mark the id lacks is not dropped from the link');
    t.notOk(fragmentNames('', '_'));
    t.notOk(fragmentNames('eta', '_meta'));
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
