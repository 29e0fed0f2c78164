/**
 * A minimal MCP server (stdio, newline-delimited JSON-RPC 2.0) for agent tests: one tool,
 * `hangar_echo`, that answers its `text`. A test puts the script into the environment's files
 * and defines the server as `{transport: 'stdio', command: 'node', args: [MCP_ECHO_PATH]}`;
 * a CLI that loads it offers the tool to the model, which the model server then sees.
 */
export const MCP_ECHO_TOOL = 'hangar_echo';
export const MCP_ECHO_PATH = '/home/hangar/mcp/echo.js';

export const MCP_ECHO_SCRIPT = `
const readline = require('readline');
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const tool = { name: '${MCP_ECHO_TOOL}', description: 'Echoes its text back.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let request;
  try { request = JSON.parse(line); } catch { return; }
  if (request.id === undefined) return; // a notification
  switch (request.method) {
    case 'initialize':
      return send({ id: request.id, result: { protocolVersion: (request.params && request.params.protocolVersion) || '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hangar-echo', version: '1.0.0' } } });
    case 'tools/list':
      return send({ id: request.id, result: { tools: [tool] } });
    case 'tools/call':
      return send({ id: request.id, result: { content: [{ type: 'text', text: String((request.params.arguments || {}).text) }] } });
    case 'ping':
      return send({ id: request.id, result: {} });
    default:
      return send({ id: request.id, error: { code: -32601, message: 'Method not found: ' + request.method } });
  }
});
`;
