/**
 * A chat notification before it is formatted for an app: what happened, in the platform's own
 * words, with the customer's text (project names, page titles, error messages, feedback
 * comments) kept apart in `CustomerText` so each formatter neutralises it for its app
 * (neutralise.ts). Links are the platform's own (dashboard and site URLs), never customer text.
 */
import type { ChatEvent } from '../db/models/chat-channel.ts';

/** How the event went: colours and icons follow it. */
export type Outcome = 'success' | 'failure' | 'notice';

/** Text a customer or a reader wrote; never trusted as markup, mentions or links. */
export interface CustomerText { customer: string }

/** One line of a message: the platform's words and customer text, in order. */
export type Line = (string | CustomerText)[];

export interface ChatMessage {
  event: ChatEvent;
  outcome: Outcome;
  /** The headline, e.g. `Deployment failed: ` + the project's name. */
  title: Line;
  /** Short facts shown as label and value (branch, commit, page). */
  facts: { label: string; value: Line }[];
  /** Longer customer text shown as a quoted block (the failed pages, a comment), already capped. */
  details?: { label: string; lines: string[] };
  /** Buttons or links, in order. */
  links: { label: string; url: string }[];
  /** When it happened. */
  at: Date;
}

/** Marks `text` as customer text. */
export const customer = (text: string): CustomerText => ({ customer: text });

/** The title as plain words (customer text as is): for fallbacks that the formatter neutralises as a whole. */
export const plainLine = (line: Line): string => line.map((p) => (typeof p === 'string' ? p : p.customer)).join('');
