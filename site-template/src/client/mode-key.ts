/** localStorage key of the reader's light/dark choice; the head script reads the same key. */
export const MODE_KEY = 'folio-mode';
