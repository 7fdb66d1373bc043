// What `import … from 'react'` gives a page or snippet (page-globals.ts): Preact's hooks and
// element helpers. Not preact/compat, whose import changes how every later page renders (it
// rewrites props globally through Preact's options hooks).
import { createElement, Fragment, createContext, cloneElement, createRef, Component } from 'preact';
import * as hooks from 'preact/hooks';

export * from 'preact/hooks';
export { createElement, Fragment, createContext, cloneElement, createRef, Component };
export default { ...hooks, createElement, Fragment, createContext, cloneElement, createRef, Component };
