/** Request size and shape limits of the API, in one place for the parsers and the README. */

/** JSON bodies above this size are refused with 413. */
export const JSON_LIMIT = '1mb';
/** Uploads (logo, asset) above this size are refused with 413 (spec section 8). */
export const UPLOAD_LIMIT_BYTES = 2 * 1024 * 1024;
/**
 * Deepest nesting of arrays and objects a JSON body may have (400 beyond). No API body needs more
 * than a few levels; the cap keeps every walk over a body cheap and its stack use bounded.
 */
export const MAX_JSON_DEPTH = 64;
/** Most files one multipart form may carry (a logo's light and dark, an asset's file). */
export const MAX_FORM_FILES = 4;
/** Fields and part headers of a multipart form together (formidable caps neither on its own). */
export const FORM_FIELDS_BYTES = 64 * 1024;
/** A multipart request larger than this is refused from its Content-Length, before it is read. */
export const MULTIPART_LIMIT_BYTES = MAX_FORM_FILES * UPLOAD_LIMIT_BYTES + FORM_FIELDS_BYTES;
