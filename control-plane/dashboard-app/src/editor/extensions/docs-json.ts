/**
 * `docs.json` editing: JSON highlighting and folding (`@codemirror/lang-json`), problems from
 * the build itself (`POST /validate-config`, asked once typing pauses; a text that is not JSON
 * yet shows the parser's error without asking), and completion of keys and values from the
 * configuration's JSON Schema (`builder/schema/docs.schema.json`, bundled).
 */
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { autocompletion, type Completion, type CompletionSource } from '@codemirror/autocomplete';
import { linter, lintGutter, lintKeymap, type Diagnostic } from '@codemirror/lint';
import type { Extension, Text } from '@codemirror/state';
import { keymap, type EditorView } from '@codemirror/view';
import docsSchema from '../../../../../builder/schema/docs.schema.json' with { type: 'json' };
import type { ExtensionsApi } from './api.ts';
import { jsonPathAt, keysAt, valuesAt, type Schema } from './schema-walker.ts';

/** The configuration schema the builder validates `docs.json` against. */
export const DOCS_SCHEMA = docsSchema as unknown as Schema;

/** How long typing must pause before the build is asked about the text. */
export const VALIDATE_DELAY_MS = 600;

/** The document offset of a 1-based line and column, clamped into the document. */
export function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.min(Math.max(1, line || 1), doc.lines));
  return Math.min(l.from + Math.max(0, (column || 1) - 1), l.to);
}

/** Diagnostics of the build for a `docs.json` text: each problem underlines the rest of its token. */
function validateSource(api: ExtensionsApi) {
  const parse = jsonParseLinter();
  return async (view: EditorView): Promise<Diagnostic[]> => {
    const syntax = parse(view);
    if (syntax.length) return syntax;
    const doc = view.state.doc;
    const text = doc.toString();
    let problems;
    try {
      problems = (await api.validateConfig(text)).problems;
    } catch (err) {
      return [{ from: 0, to: 0, severity: 'info', message: `The configuration could not be checked: ${err instanceof Error ? err.message : String(err)}` }];
    }
    if (view.state.doc.toString() !== text) return [];
    return problems.map((p) => {
      const from = offsetOf(doc, p.line, p.column);
      const word = /^("(?:[^"\\]|\\.)*"|[\w.+-]+|.)/.exec(doc.sliceString(from, Math.min(doc.length, from + 500)));
      return { from, to: Math.min(doc.length, from + (word ? word[0].length : 0)), severity: 'error', message: p.message, source: 'build' };
    });
  };
}

/** Key and value completion from the schema. */
export function schemaCompletion(schema: Schema = DOCS_SCHEMA): CompletionSource {
  return (context) => {
    const text = context.state.sliceDoc(0, context.pos);
    const place = jsonPathAt(text, context.pos);
    if (!place) return null;
    const word = context.state.sliceDoc(place.from, context.pos);
    if (!context.explicit && !place.inString && word === '' && !/[{,[:]\s*$/.test(text)) return null;
    const after = context.state.sliceDoc(context.pos, context.pos + 1);
    const closeQuote = place.inString && after === '"' ? 1 : 0;
    if (place.kind === 'key') {
      const options = keysAt(schema, place.path).map((k): Completion => ({
        label: k.key, detail: k.type, info: k.description, type: 'property', boost: k.required ? 1 : 0,
        apply: (view, _c, from, to) => {
          const insert = place.inString ? `${k.key}": ` : `"${k.key}": `;
          view.dispatch({ changes: { from, to: to + closeQuote, insert }, selection: { anchor: from + insert.length }, userEvent: 'input.complete' });
        },
      }));
      return options.length ? { from: place.from, options, validFor: /^[\w$-]*$/ } : null;
    }
    const options = valuesAt(schema, place.path).map(({ value, description }): Completion => {
      const literal = JSON.stringify(value);
      const label = typeof value === 'string' ? value : literal;
      return {
        label, detail: description === 'default' ? 'default' : undefined, info: description !== 'default' ? description : undefined, type: 'enum',
        apply: (view, _c, from, to) => {
          const insert = place.inString ? (typeof value === 'string' ? `${value}"` : literal) : literal;
          const start = place.inString && typeof value !== 'string' ? from - 1 : from;
          view.dispatch({ changes: { from: start, to: to + closeQuote, insert }, selection: { anchor: start + insert.length }, userEvent: 'input.complete' });
        },
      };
    });
    return options.length ? { from: place.from, options, validFor: /^[\w.-]*$/ } : null;
  };
}

/** The extensions of the `docs.json` editor. */
export function docsJsonSupport(api: ExtensionsApi, schema: Schema = DOCS_SCHEMA): Extension {
  return [
    json(),
    linter(validateSource(api), { delay: VALIDATE_DELAY_MS }),
    lintGutter(),
    keymap.of(lintKeymap),
    autocompletion({ override: [schemaCompletion(schema)], activateOnTyping: true }),
  ];
}
