import { Aggregator } from 'mingo/aggregator';
import { Context, ProcessingMode } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import { Query } from 'mingo/query';
import type { Any, AnyObject, Options } from 'mingo/types';
import { update, type Modifier } from 'mingo/updater';
import { $dateToParts, $dateTrunc } from './date-operators.ts';

/** Hidden field that carries a document's `$text` score through a query or pipeline. */
export const TEXT_SCORE_FIELD = '__folioTextScore';

/** `{ $meta: "textScore" }` reads the score that `$text` attached to the document. */
function $meta(obj: AnyObject, expr: Any): Any {
  return expr === 'textScore' ? (obj?.[TEXT_SCORE_FIELD] ?? null) : null;
}

// The first registration of a name wins in a mingo Context, so our operators go in first.
const context = Context.init({ expression: { $dateTrunc, $dateToParts, $meta } as never })
  .addExpressionOps(expressionOperators as never)
  .addAccumulatorOps(accumulatorOperators as never)
  .addPipelineOps(pipelineOperators as never)
  .addProjectionOps(projectionOperators as never)
  .addQueryOps(queryOperators as never)
  .addWindowOps(windowOperators as never);

/** Options for every mingo call; `resolve` supplies other collections to `$lookup`. */
export function mingoOptions(resolve?: (name: string) => AnyObject[]): Partial<Options> {
  return { context, processingMode: ProcessingMode.CLONE_OFF, idKey: '_id', ...(resolve ? { collectionResolver: resolve } : {}) };
}

/** A compiled filter. */
export function compileFilter(filter: AnyObject): Query {
  return new Query(filter, mingoOptions());
}

/** Runs an aggregation pipeline over documents (inputs are not modified). */
export function runPipeline(docs: AnyObject[], pipeline: AnyObject[], resolve: (name: string) => AnyObject[]): AnyObject[] {
  return new Aggregator(pipeline, { ...mingoOptions(resolve), processingMode: ProcessingMode.CLONE_INPUT }).run(docs);
}

/** Applies update operators to `doc` in place; returns the modified paths. */
export function applyModifier(doc: AnyObject, modifier: AnyObject, arrayFilters: AnyObject[] | undefined, condition: AnyObject): string[] {
  return update(doc, modifier as Modifier<AnyObject>, arrayFilters, condition, { cloneMode: 'deep', queryOptions: mingoOptions() });
}

/** Applies an aggregation-pipeline update (`u: [...]`) and returns the new document. */
export function applyPipelineUpdate(doc: AnyObject, pipeline: AnyObject[]): AnyObject {
  const [out] = new Aggregator(pipeline, mingoOptions()).run([doc]);
  return out ?? doc;
}
