/**
 * The AI features a model can serve. A feature added here (inline AI in the editor, the writing
 * agent) becomes a choice in the model settings and resolves its model with
 * `modelFor(…, feature)` (model-resolver.ts); nothing else about the settings changes.
 */
export const AI_FEATURES = ['assistant'] as const;

export type AiFeature = (typeof AI_FEATURES)[number];

/** What each feature does, in the dashboard's and the API description's words. */
export const AI_FEATURE_DESCRIPTIONS: Record<AiFeature, string> = {
  assistant: 'Ask AI on your docs sites: answers readers\' questions from your published pages, with links to the sections it used',
};
