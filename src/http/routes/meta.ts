/** Health, readiness, the OpenAPI document and the docs page (assets served locally). */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { unavailable } from '../../domain/errors';
import { docsAssetParams, healthSchema, openApiSchema, readySchema } from '../../schemas/meta';
import { defineRoute, type Route } from '../route';

export interface ReadinessProbe {
  name: string;
  check(): Promise<void>;
}

const DOCS_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Hangar API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });`;

export function metaRoutes(options: { probes: ReadinessProbe[]; openapi: () => Record<string, unknown> }): Route[] {
  const assetDir = join(require.resolve('swagger-ui-dist/package.json'), '..');
  let document: Record<string, unknown> | null = null;
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      operationId: 'health',
      summary: 'The process is up',
      tag: 'Operations',
      auth: 'none',
      response: { status: 200, description: 'Up', schema: healthSchema },
      errors: [],
      handler: () => ({ status: 'ok' }),
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      operationId: 'ready',
      summary: 'The database and Temporal are reachable',
      tag: 'Operations',
      auth: 'none',
      response: { status: 200, description: 'Ready', schema: readySchema },
      errors: [503],
      handler: async () => {
        const results = await Promise.all(
          options.probes.map(async (p) => {
            const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), 3000).unref());
            try {
              await Promise.race([p.check(), timeout]);
              return [p.name, 'ok'] as const;
            } catch {
              return [p.name, 'unreachable'] as const;
            }
          }),
        );
        const failed = results.filter(([, s]) => s !== 'ok').map(([n]) => n);
        if (failed.length > 0) throw unavailable('Not ready', `unreachable: ${failed.join(', ')}`);
        return { status: 'ready', checks: Object.fromEntries(results) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      operationId: 'openapi',
      summary: 'This OpenAPI 3.1 document',
      tag: 'Operations',
      auth: 'none',
      response: { status: 200, description: 'OpenAPI document', schema: openApiSchema },
      errors: [],
      handler: () => (document ??= options.openapi()),
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      operationId: 'docs',
      summary: 'Rendered API documentation',
      tag: 'Operations',
      auth: 'none',
      raw: true,
      response: { status: 200, description: 'HTML page', contentType: 'text/html' },
      errors: [],
      handler: ({ ctx }) => {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = DOCS_HTML;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/docs/init.js',
      operationId: 'docsInit',
      summary: 'Docs page bootstrap script',
      tag: 'Operations',
      auth: 'none',
      raw: true,
      response: { status: 200, description: 'JavaScript', contentType: 'application/javascript' },
      errors: [],
      handler: ({ ctx }) => {
        ctx.type = 'application/javascript; charset=utf-8';
        ctx.body = DOCS_INIT;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/docs/assets/:file',
      operationId: 'docsAsset',
      summary: 'Docs page assets, served from the swagger-ui-dist package',
      tag: 'Operations',
      auth: 'none',
      raw: true,
      params: docsAssetParams(Object.keys(DOCS_ASSETS)),
      response: { status: 200, description: 'Asset' },
      errors: [400],
      handler: ({ ctx, params }) => {
        ctx.type = DOCS_ASSETS[params.file]!;
        ctx.set('Cache-Control', 'public, max-age=86400');
        ctx.body = createReadStream(join(assetDir, params.file));
      },
    }),
  ];
}
