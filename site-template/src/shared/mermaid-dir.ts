/**
 * Folder (under `_folio/`) that holds the Mermaid library, named after the installed version of
 * the `mermaid` package (a test keeps them equal), so a new version never mixes with an old one
 * a browser has cached.
 */
export const MERMAID_DIR = 'mermaid-11.17.2';
