import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

describe('replicas: a terminal in a real workspace', function () {
  this.timeout(120_000);

  it('opens a TTY in the replica\'s container through the worker and streams its output', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: { 'X-Api-Version': '2026-05-17' }, body: { name: 'with-terminal', message: 'hi' } });
    const id = created.body.replica.id;
    await until('active', async () => (await harness().database.db('replicas').where({ id }).first()).status === 'active', 60_000);

    const session = await api.post(`/v1/workspaces/${id}/terminal/sessions`, { cols: 80, rows: 24 });
    expect(session.status).to.equal(201);
    const sessionId = session.body.session.id;
    const stream = await fetch(`${harness().baseUrl}/v1/workspaces/${id}/terminal/sessions/${sessionId}/stream`, { headers: { authorization: `Bearer ${org.org_api_key}` } });
    const reader = stream.body!.getReader();
    // Sent in two batches, the second first: it must wait for sequence 0.
    expect((await api.post(`/v1/workspaces/${id}/terminal/sessions/${sessionId}/input`, { data: 'ho ready-$((6*7))\r', generation: 0, sequence: 1 })).status).to.equal(200);
    expect((await api.post(`/v1/workspaces/${id}/terminal/sessions/${sessionId}/input`, { data: 'ec', generation: 0, sequence: 0 })).status).to.equal(200);
    let output = '';
    const decoder = new TextDecoder();
    while (!output.includes('ready-42')) {
      const { value, done } = await reader.read();
      if (done) break;
      for (const line of decoder.decode(value, { stream: true }).split('\n')) {
        if (line.startsWith('data: ')) output += (JSON.parse(line.slice(6)) as { data?: string }).data ?? '';
      }
    }
    await reader.cancel();
    expect(output).to.include('ready-42');
    expect((await api.delete(`/v1/workspaces/${id}/terminal/sessions/${sessionId}`)).body).to.deep.equal({ success: true });
    await api.delete(`/v1/replica/${id}`);
  });
});
