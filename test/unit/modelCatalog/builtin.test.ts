import { expect } from 'chai';
import { BUILTIN_MODELS } from '../../../src/agents/builtinModels';

describe('built-in model lists', () => {
  it('have unique ids and a display name for every entry', () => {
    for (const list of Object.values(BUILTIN_MODELS)) {
      expect(list.length).to.be.greaterThan(3);
      expect(new Set(list.map((m) => m.id)).size).to.equal(list.length);
      for (const model of list) expect(model.displayName).to.be.a('string').and.not.equal('');
    }
  });

  it('offer the model-router models agent_4 and agent_5 are known to use in source_b', () => {
    const ids = BUILTIN_MODELS.source_b.map((m) => m.id);
    expect(ids).to.include.members(['z-ai/glm-5.2', 'minimax/minimax-m3', 'xiaomi/mimo-v2.5-pro', 'moonshotai/kimi-k2.6']);
  });
});
