/**
 * The template's own words in each language a site may be written in. A page's language
 * (`PageShellInput.locale.lang`) picks them by its primary subtag (`pt-BR` → `pt`); a language
 * without a table here reads English. Page content is never translated: only the shell's words.
 */

/** Every word of the shell that a reader sees. `{wanted}` and `{shown}` are filled in. */
export interface UiStrings {
  skipToContent: string;
  search: string;
  onThisPage: string;
  previous: string;
  next: string;
  copyPage: string;
  subscribe: string;
  helpful: string;
  yes: string;
  no: string;
  /** A page missing in the reader's language shows the default language's. */
  fallbackLanguage: string;
  /** A page missing in the reader's version shows the default version's. */
  fallbackVersion: string;
  language: string;
  version: string;
}

const en: UiStrings = {
  skipToContent: 'Skip to content', search: 'Search', onThisPage: 'On this page', previous: 'Previous', next: 'Next',
  copyPage: 'Copy page', subscribe: 'Subscribe', helpful: 'Was this page helpful?', yes: 'Yes', no: 'No',
  fallbackLanguage: 'This page is not available in {wanted} yet; it is shown in {shown}.',
  fallbackVersion: 'This page does not exist in {wanted}; it is shown from {shown}.',
  language: 'Language', version: 'Version',
};

/** The tables by primary language subtag. */
export const UI_STRINGS: Record<string, UiStrings> = {
  en,
  fr: {
    skipToContent: 'Aller au contenu', search: 'Rechercher', onThisPage: 'Sur cette page', previous: 'Précédent', next: 'Suivant',
    copyPage: 'Copier la page', subscribe: "S'abonner", helpful: 'Cette page vous a-t-elle été utile ?', yes: 'Oui', no: 'Non',
    fallbackLanguage: "Cette page n'est pas encore disponible en {wanted} ; elle est affichée en {shown}.",
    fallbackVersion: "Cette page n'existe pas dans la version {wanted} ; elle est affichée depuis {shown}.",
    language: 'Langue', version: 'Version',
  },
  es: {
    skipToContent: 'Ir al contenido', search: 'Buscar', onThisPage: 'En esta página', previous: 'Anterior', next: 'Siguiente',
    copyPage: 'Copiar página', subscribe: 'Suscribirse', helpful: '¿Te resultó útil esta página?', yes: 'Sí', no: 'No',
    fallbackLanguage: 'Esta página aún no está disponible en {wanted}; se muestra en {shown}.',
    fallbackVersion: 'Esta página no existe en {wanted}; se muestra la de {shown}.',
    language: 'Idioma', version: 'Versión',
  },
  de: {
    skipToContent: 'Zum Inhalt springen', search: 'Suchen', onThisPage: 'Auf dieser Seite', previous: 'Zurück', next: 'Weiter',
    copyPage: 'Seite kopieren', subscribe: 'Abonnieren', helpful: 'War diese Seite hilfreich?', yes: 'Ja', no: 'Nein',
    fallbackLanguage: 'Diese Seite ist noch nicht auf {wanted} verfügbar; sie wird auf {shown} angezeigt.',
    fallbackVersion: 'Diese Seite gibt es in {wanted} nicht; angezeigt wird die aus {shown}.',
    language: 'Sprache', version: 'Version',
  },
  zh: {
    skipToContent: '跳到正文', search: '搜索', onThisPage: '本页内容', previous: '上一页', next: '下一页',
    copyPage: '复制页面', subscribe: '订阅', helpful: '此页面对您有帮助吗？', yes: '是', no: '否',
    fallbackLanguage: '此页面尚无{wanted}版本，以下显示{shown}内容。',
    fallbackVersion: '此页面在 {wanted} 中不存在，以下显示 {shown} 的内容。',
    language: '语言', version: '版本',
  },
  ja: {
    skipToContent: '本文へスキップ', search: '検索', onThisPage: 'このページの内容', previous: '前へ', next: '次へ',
    copyPage: 'ページをコピー', subscribe: '購読', helpful: 'このページは役に立ちましたか？', yes: 'はい', no: 'いいえ',
    fallbackLanguage: 'このページはまだ{wanted}で提供されていません。{shown}で表示しています。',
    fallbackVersion: 'このページは {wanted} にはありません。{shown} の内容を表示しています。',
    language: '言語', version: 'バージョン',
  },
};

/** The strings of a language (`fr`, `pt-BR`, …); English when there is no table for it. */
export function uiStrings(lang: string | undefined): UiStrings {
  return UI_STRINGS[(lang ?? 'en').toLowerCase().split('-')[0]] ?? en;
}

/** `{wanted}` and `{shown}` of a fallback note filled in. */
export function fillNote(template: string, values: { wanted: string; shown: string }): string {
  return template.replace(/\{(wanted|shown)\}/g, (_, k: 'wanted' | 'shown') => values[k]);
}
