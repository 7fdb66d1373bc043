import { COMPONENT_CATALOGUE } from '../shared/component-catalogue.ts';

/**
 * Names of the MDX components (`components` in `index.ts`) and their sub-components, without
 * loading them: the builder checks a page's element names against this list before compiling
 * it, to fail an unknown component with its place and a suggestion. Read from the component
 * catalogue (`shared/component-catalogue.ts`), the one list of built-in components; a test keeps
 * it equal to the components' keys and properties.
 */
export const COMPONENT_NAMES: readonly string[] = COMPONENT_CATALOGUE.map((entry) => entry.name);
