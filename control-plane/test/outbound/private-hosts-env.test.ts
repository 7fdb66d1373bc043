/**
 * OUTBOUND_PRIVATE_HOSTS: the operator's list of private `host:port` pairs customer-given URLs
 * may reach. Parsed like AI_MODEL_PRIVATE_HOSTS, refused with a message naming the bad entry,
 * and handed to the platform's outbound address guard.
 */
import t from 'tap';
import { parseEnv } from '../../src/env.ts';

t.test('OUTBOUND_PRIVATE_HOSTS', async (t) => {
  t.test('should default to no private host at all', async (t) => {
    t.same(parseEnv({}).OUTBOUND_PRIVATE_HOSTS, []);
  });

  t.test('should accept host:port pairs, lower-cased and trimmed', async (t) => {
    t.same(parseEnv({ OUTBOUND_PRIVATE_HOSTS: ' Hooks.Internal:8080 , 10.0.0.7:443,[::1]:9000' }).OUTBOUND_PRIVATE_HOSTS, ['hooks.internal:8080', '10.0.0.7:443', '[::1]:9000']);
  });

  t.test('should refuse an entry without a port, naming it', async (t) => {
    t.throws(() => parseEnv({ OUTBOUND_PRIVATE_HOSTS: 'hooks.internal:8080,10.0.0.7' }), /OUTBOUND_PRIVATE_HOSTS.*Unexpected "10\.0\.0\.7"; expected host:port pairs separated by commas, e\.g\. hooks\.internal:8080/s);
  });

  t.test('should keep the model list\'s own example in its message', async (t) => {
    t.throws(() => parseEnv({ AI_MODEL_PRIVATE_HOSTS: 'ollama' }), /e\.g\. ollama:11434/);
  });
});
