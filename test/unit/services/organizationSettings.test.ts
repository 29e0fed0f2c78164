import { expect } from 'chai';
import { isModelCompatible } from '../../../src/agents/defaults';
import { pickModel, serializeSettings } from '../../../src/services/organizationSettings';

describe('organization default resolution', () => {
  it('keeps a compatible requested model', () => {
    expect(pickModel('agent_3', 'a1-small', 'a1-coder', isModelCompatible)).to.equal('a1-small');
  });

  it('falls back to the organization default, then the agent default', () => {
    expect(pickModel('agent_3', null, 'a1-coder', isModelCompatible)).to.equal('a1-coder');
    expect(pickModel('agent_3', 'agent_1-default', 'a1-coder', isModelCompatible)).to.equal('a1-coder');
    expect(pickModel('agent_3', 'not-a-model', null, isModelCompatible)).to.equal('a1-large');
    // An organization default the agent no longer accepts is skipped too.
    expect(pickModel('agent_4', undefined, 'a1-coder', isModelCompatible)).to.equal('z-ai/glm-5.2');
  });

  it('answers the defaults before anything is stored', () => {
    expect(serializeSettings(null)).to.deep.equal({
      default_coding_agent: 'agent_1',
      default_models: { agent_1: null, agent_2: null, agent_3: null, agent_4: null, agent_5: null },
      default_environment_id: null,
      auto_responder_allowlist: { logins: [], repository_ids: [] },
      ci_failure_response: true,
      updated_at: null,
    });
  });
});
