import { expect } from 'chai';
import { AGENT_IDS } from '../../../src/agents/catalog';
import { BUILTIN_MODELS } from '../../../src/agents/builtinModels';
import { allowedModelIds, isModelAllowed } from '../../../src/domain/agentPolicy';

describe('domain/agentPolicy: the models an organization allows', () => {
  it('gives the AI gateway the same answer as the per-model rule, for every agent, with and without enabled models', () => {
    const candidates = ['a1-large', 'a1-legacy', 'z-ai/glm-5.2', 'moonshotai/kimi-k2.6', 'agent_1-default', 'made-up'];
    for (const agent of AGENT_IDS) {
      for (const enabled of [[], ['a1-legacy'], ['z-ai/glm-5.2', 'made-up']]) {
        const set = allowedModelIds(agent, enabled);
        for (const model of candidates) {
          const one = isModelAllowed(agent, model, { configured: enabled.length > 0, enabled: enabled.includes(model) });
          expect(set === null || set.has(model), `${agent} ${model} [${enabled.join(',')}]`).to.equal(one);
        }
      }
    }
    expect(allowedModelIds('agent_1', ['x'])).to.equal(null);
    expect([...allowedModelIds('agent_3', [])!]).to.deep.equal(BUILTIN_MODELS.source_a.map((m) => m.id));
    expect(allowedModelIds('agent_4', [])).to.equal(null);
  });
});
