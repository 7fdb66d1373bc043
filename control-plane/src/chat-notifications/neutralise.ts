/**
 * Makes customer text inert in chat apps: it may not ping (`@everyone`, `@here`, `<!channel>`,
 * `<@U123>`, `<@&role>`), link (`<https://x|y>`, `[y](https://x)`, a bare `https://x`), format or
 * break out of the block it is shown in. JSON is never at risk: payloads are built as objects
 * and serialised once. Each app has its own rules; what they share is here.
 */

/** Longest piece of customer text a formatter shows in one place (messages cap theirs shorter, see event-messages.ts). */
export const MAX_TEXT = 1000;

const ZWSP = '\u200b';

/** Control characters (newlines included) become spaces; the text is cut at `max` characters. */
export function oneLine(text: string, max = MAX_TEXT): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `@` and `://` with a zero-width space after them: no app reads a mention or a URL any more. */
export function unlink(text: string): string {
  return text.replace(/@/g, `@${ZWSP}`).replace(/:\/\//g, `:${ZWSP}//`).replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}${ZWSP}.`);
}

/** Slack mrkdwn: `&`, `<` and `>` as entities (no `<!channel>`, `<@U1>` or `<url|label>` survives), formatting characters neutralised. */
export function forSlack(text: string): string {
  return unlink(oneLine(text)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/([*_~`])/g, `$1${ZWSP}`);
}

/** Slack text inside a ``` block: entities as above, and no fence can close it early. */
export function forSlackCode(text: string): string {
  return unlink(oneLine(text)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/`/g, `\`${ZWSP}`);
}

/** Discord markdown: every markdown character escaped with a backslash, mentions and URLs broken. */
export function forDiscord(text: string): string {
  return unlink(oneLine(text)).replace(/([\\*_~`|>#[\]()<-])/g, '\\$1');
}

/** Discord text inside a ``` block: no fence can close it early. */
export function forDiscordCode(text: string): string {
  return unlink(oneLine(text)).replace(/`/g, `\`${ZWSP}`);
}

/**
 * Teams Adaptive Card TextBlock markdown (no backslash escapes there): a zero-width space after
 * each markdown character, so `[y](https://x)`, emphasis and lists never form; `<at>` needs an
 * entity in the card, so no mention is possible.
 */
export function forTeams(text: string): string {
  return unlink(oneLine(text)).replace(/([*_~`[\]()#>-])/g, `$1${ZWSP}`);
}
