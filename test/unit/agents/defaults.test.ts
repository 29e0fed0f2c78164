import { expect } from 'chai';
import { AGENT_IDS } from '../../../src/agents/catalog';
import { agentDefaultModel, isModelCompatible, knownModels } from '../../../src/agents/defaults';
import { BUILTIN_MODELS } from '../../../src/agents/builtinModels';

describe('agent default models', () => {
  it('gives every agent a default it accepts', () => {
    for (const agent of AGENT_IDS) {
      expect(isModelCompatible(agent, agentDefaultModel(agent)), agent).to.equal(true);
    }
  });

  it('takes catalog agents from their built-in list and keeps the others apart', () => {
    expect(knownModels('agent_3')).to.deep.equal(BUILTIN_MODELS.source_a.map((m) => m.id));
    expect(knownModels('agent_4')).to.deep.equal(BUILTIN_MODELS.source_b.map((m) => m.id));
    expect(agentDefaultModel('agent_5')).to.equal(BUILTIN_MODELS.source_b[0]!.id);
    expect(agentDefaultModel('agent_1')).to.equal('agent_1-default');
    expect(isModelCompatible('agent_3', BUILTIN_MODELS.source_b[0]!.id)).to.equal(false);
    expect(isModelCompatible('agent_1', 'agent_2-default')).to.equal(false);
    expect(isModelCompatible('agent_2', 'agent_2-large')).to.equal(true);
  });
});
