/** `POST /v1/mcp`: MCP JSON-RPC messages, one or a batch. */
import type { JsonSchema } from './common';

const jsonRpcMessage: JsonSchema = { type: 'object', description: 'A JSON-RPC 2.0 request or notification of the Model Context Protocol' };

export const mcpBody: JsonSchema = { oneOf: [jsonRpcMessage, { type: 'array', minItems: 1, items: jsonRpcMessage }] };
export const mcpAnswer: JsonSchema = { type: ['object', 'array'] };
