/**
 * Escapes text for HTML element content and double- or single-quoted attribute values, for the
 * few pages the control plane writes itself (the site password form, the preview banner).
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
