import t from 'tap';
import { findJsonSyntaxError } from '../../src/config/json-syntax-error.ts';

t.test('findJsonSyntaxError', async (t) => {
  t.test('should return undefined for valid JSON, a byte-order mark included', async (t) => {
    t.equal(findJsonSyntaxError('\ufeff{ "a": [1, -2.5e3, true, null, "x\\u00e9\\n"] }\n'), undefined);
  });

  t.test('should point at the first offending character with line and column', async (t) => {
    t.same(findJsonSyntaxError('{\n  "name": "A",\n}'), { line: 3, column: 1, message: 'Unexpected token "}"; expected a property name in double quotes' });
    t.same(findJsonSyntaxError('{ name: 1 }'), { line: 1, column: 3, message: 'Unexpected token "n"; expected a property name in double quotes' });
    t.same(findJsonSyntaxError('{ "a" 1 }'), { line: 1, column: 7, message: 'Unexpected token "1"; expected :' });
    t.same(findJsonSyntaxError('[1 2]'), { line: 1, column: 4, message: 'Unexpected token "2"; expected , or ]' });
    t.same(findJsonSyntaxError('{"a": tru}'), { line: 1, column: 7, message: 'Unexpected token "t"; expected a value' });
    t.same(findJsonSyntaxError('{"a": "x\ny"}'), { line: 1, column: 9, message: 'Unexpected token "\\n"; expected a closing " (strings cannot span lines)' });
    t.same(findJsonSyntaxError('{"a": "\\q"}'), { line: 1, column: 9, message: 'Unexpected token "q"; expected an escape such as \\n or \\"' });
    t.same(findJsonSyntaxError('{} x'), { line: 1, column: 4, message: 'Unexpected token "x"; expected end of file' });
    t.same(findJsonSyntaxError(''), { line: 1, column: 1, message: 'Unexpected end of file; expected a value' });
  });
});
