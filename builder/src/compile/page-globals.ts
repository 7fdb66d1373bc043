/**
 * React as Mintlify pages use it: hooks called without an import (`useState`, `useEffect`, …)
 * in pages and JavaScript snippets, and `import … from 'react'`. Pages render with Preact, so
 * `react` is `react-shim.js` (Preact's hooks and element helpers), and a page or snippet that
 * uses a hook name it does not bind itself gets it imported from `preact/hooks`.
 *
 * Hooks run while the page renders on the server; the rendered HTML is what readers get (no
 * hydration of page code), so state set by an event handler has no effect in the browser.
 */
import { fileURLToPath } from 'node:url';
import { eachEsNode } from './estree-walk.ts';

/** The file `react` resolves to. */
export const REACT_SHIM = fileURLToPath(new URL('./react-shim.js', import.meta.url));

/** Bare module names pages and snippets may import, and the module each one loads. */
export const PAGE_MODULES: ReadonlyMap<string, string> = new Map([
  ['preact', 'preact'],
  ['preact/jsx-runtime', 'preact/jsx-runtime'],
  ['preact/hooks', 'preact/hooks'],
  ['react', REACT_SHIM],
  ['react/jsx-runtime', 'preact/jsx-runtime'],
]);

/** The module the implicit hooks come from. */
export const HOOKS_MODULE = 'preact/hooks';

/** React's hooks, as Mintlify makes them available without an import. */
export const HOOKS: ReadonlySet<string> = new Set([
  'useState', 'useEffect', 'useLayoutEffect', 'useRef', 'useMemo', 'useCallback', 'useReducer', 'useContext',
  'useId', 'useImperativeHandle', 'useDebugValue', 'useErrorBoundary',
]);

/**
 * Hook names a program (an ESTree `Program` or any subtree) uses without binding them: used as
 * an identifier anywhere, and neither imported nor declared (at any depth: a page defining its
 * own `useState` keeps it).
 */
export function unboundHooks(program: unknown): string[] {
  const used = new Set<string>();
  const bound = new Set<string>();
  const bind = (pattern: unknown) => eachEsNode(pattern, (n) => {
    if (n.type === 'Identifier' && HOOKS.has(n.name as string)) bound.add(n.name as string);
  });
  eachEsNode(program, (n) => {
    if (n.type === 'Identifier' && HOOKS.has(n.name as string)) used.add(n.name as string);
    else if (n.type === 'ImportSpecifier' || n.type === 'ImportDefaultSpecifier' || n.type === 'ImportNamespaceSpecifier') bind(n.local);
    else if (n.type === 'VariableDeclarator') bind(n.id);
    else if (n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') bind(n.id);
    else if (n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression' || n.type === 'FunctionDeclaration') bind(n.params);
  });
  return [...used].filter((name) => !bound.has(name)).sort();
}

/**
 * False when `source` names no hook at all, so its program cannot use one: a page's identifiers
 * come from its text (MDX's generated names are not hook names). Lets most pages skip walking
 * their whole compiled program for {@link unboundHooks}.
 */
export function mentionsHook(source: string): boolean {
  if (!source.includes('use')) return false;
  for (const name of HOOKS) if (source.includes(name)) return true;
  return false;
}
