import t from 'tap';
import { describeValue, expected, formatPath } from '../../src/config/error-map.ts';

t.test('error map', async (t) => {
  t.test('should describe values: strings quoted and cut at 60 characters, containers by kind', async (t) => {
    t.same([describeValue('a"b'), describeValue(3), describeValue(null), describeValue(false), describeValue([1]), describeValue({}), describeValue(undefined)], [
      '"a\\"b"', '3', 'null', 'false', 'array', 'object', 'nothing',
    ]);
    t.equal(describeValue('x'.repeat(70)), `"${'x'.repeat(57)}..."`);
  });

  t.test('should write paths with dots for keys and brackets for indexes', async (t) => {
    t.equal(formatPath(['navigation', 1, 'pages', 0]), 'navigation[1].pages[0]');
    t.equal(formatPath(['$schema']), '$schema');
  });

  t.test('should word schema-level rules as "Unexpected X; expected Y"', async (t) => {
    t.equal(expected('a path starting with /')({ input: 'old' }), 'Unexpected "old"; expected a path starting with /');
  });
});
