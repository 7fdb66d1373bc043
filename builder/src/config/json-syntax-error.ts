/**
 * Locates the first syntax error of a JSON text with its line and column, worded the same way
 * on every Node version (V8's own messages change between releases and often lack positions).
 * Only called after `JSON.parse` has failed, so speed does not matter.
 */

/** A syntax error: 1-based line and column, and an "Unexpected X; expected Y" message. */
export interface JsonSyntaxError { line: number; column: number; message: string }

class Stop extends Error {
  readonly index: number;
  constructor(index: number, message: string) {
    super(message);
    this.index = index;
  }
}

/** Returns the first syntax error of `source`, or undefined when it is valid JSON. */
export function findJsonSyntaxError(source: string): JsonSyntaxError | undefined {
  let i = 0;
  const ws = () => {
    while (i < source.length && ' \t\r\n'.includes(source[i])) i++;
  };
  const token = () => (i >= source.length ? 'end of file' : `token ${JSON.stringify(source[i])}`);
  const fail = (what: string): never => {
    throw new Stop(i, `Unexpected ${token()}; expected ${what}`);
  };
  const string = () => {
    i++;
    while (i < source.length && source[i] !== '"') {
      const c = source.charCodeAt(i);
      if (c < 0x20) fail('a closing " (strings cannot span lines)');
      if (source[i] === '\\') {
        i++;
        if (source[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(source.slice(i + 1, i + 5))) fail('four hex digits after \\u');
          i += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(source[i] ?? 'x')) fail('an escape such as \\n or \\"');
      }
      i++;
    }
    if (i >= source.length) fail('a closing "');
    i++;
  };
  const value = (): void => {
    ws();
    const c = source[i];
    if (c === '{') {
      i++;
      ws();
      if (source[i] === '}') return void i++;
      for (;;) {
        ws();
        if (source[i] !== '"') fail('a property name in double quotes');
        string();
        ws();
        if (source[i] !== ':') fail(':');
        i++;
        value();
        ws();
        if (source[i] === ',') { i++; continue; }
        if (source[i] === '}') return void i++;
        fail(', or }');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (source[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (source[i] === ',') { i++; continue; }
        if (source[i] === ']') return void i++;
        fail(', or ]');
      }
    }
    if (c === '"') return string();
    const literal = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(source.slice(i, i + 400));
    if (literal) return void (i += literal[0].length);
    fail('a value');
  };
  try {
    if (source.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    if (i < source.length) fail('end of file');
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const before = source.slice(0, error.index).split('\n');
    return { line: before.length, column: before[before.length - 1].length + 1, message: error.message };
  }
}
