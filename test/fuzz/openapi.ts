/**
 * The operations of a running Hangar's `/openapi.json`, in the shape the fuzzer walks: each
 * with its path template, parameters, body schema, security and documented statuses.
 */
export type JsonSchema = Record<string, any>;

export interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  id: string;
  method: string;
  /** OpenAPI template: `/v1/replica/{id}/chats`; a router wildcard stays `*name`. */
  template: string;
  params: Param[];
  body: JsonSchema | null;
  bodyRequired: boolean;
  /** `none`: health, docs, webhooks; `engine`: also a workspace's engine secret with X-Workspace-Id. */
  auth: 'key' | 'engine' | 'none';
  statuses: number[];
}

/** Inlines `$ref`s to `#/components/...` (request schemas are inline today; this keeps it so). */
function deref(doc: JsonSchema, schema: unknown, seen = new Set<string>()): any {
  if (Array.isArray(schema)) return schema.map((s) => deref(doc, s, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/') && !seen.has(ref)) {
    const target = ref
      .slice(2)
      .split('/')
      .reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return deref(doc, target ?? {}, new Set([...seen, ref]));
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, deref(doc, v, seen)]));
}

export function operationsOf(doc: JsonSchema): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<JsonSchema>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<JsonSchema>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete', 'head', 'options'].includes(method)) continue;
      const params: Param[] = (op.parameters ?? []).map((p: JsonSchema) => {
        const param = deref(doc, p);
        return { name: param.name, in: param.in, required: !!param.required, schema: param.schema ?? {} };
      });
      // A router wildcard (`*path`) the document leaves in the template is a path parameter too.
      for (const [, name] of template.matchAll(/\*([A-Za-z0-9_]+)/g)) params.push({ name: name!, in: 'path', required: true, schema: { type: 'string' } });
      const json = op.requestBody?.content?.['application/json'];
      const security: JsonSchema[] = op.security ?? doc.security ?? [];
      operations.push({
        id: op.operationId ?? `${method} ${template}`,
        method: method.toUpperCase(),
        template,
        params,
        body: json ? deref(doc, json.schema ?? {}) : null,
        bodyRequired: !!op.requestBody?.required,
        auth: security.length === 0 ? 'none' : security.some((s) => 'engineSecret' in s) ? 'engine' : 'key',
        statuses: Object.keys(op.responses ?? {}).map(Number),
      });
    }
  }
  return operations;
}

/** Fills a template with already-encoded segments. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}|\*([A-Za-z0-9_]+)/g, (_, a: string | undefined, b: string | undefined) => values[(a ?? b)!] ?? '');
}

/**
 * What kind of record a path parameter names, to pick ids of that kind: `chatId` → `chat`,
 * `{id}` after `/environments` → `environment`; workspaces and replicas are one kind.
 */
export function kindOf(template: string, name: string): string {
  const singular = (word: string) => word.replace(/ies$/, 'y').replace(/s$/, '');
  let kind = name;
  if (name === 'id') {
    const segments = template.split('/');
    const at = segments.indexOf('{id}');
    kind = at > 0 ? singular(segments[at - 1]!) : 'id';
  } else if (name.endsWith('Id')) kind = name.slice(0, -2);
  return kind === 'workspace' ? 'replica' : kind;
}
