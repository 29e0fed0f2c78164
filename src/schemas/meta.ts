/** Health, readiness, the OpenAPI document and the docs page's assets. */
import { type JsonSchema, object } from './common';

export const healthSchema = object({ status: { const: 'ok' } });
export const readySchema = object({ status: { const: 'ready' }, checks: { type: 'object' } });
export const openApiSchema: JsonSchema = { type: 'object' };

/** One of the docs page's asset files, named by the caller (anything else is a 400). */
export const docsAssetParams = (files: string[]) => object({ file: { enum: files } }, ['file']);
