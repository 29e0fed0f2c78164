import { expect } from 'chai';
import { modeViolation } from '../../../src/agents/catalog';

describe('agent catalog rules', () => {
  it('rejects modes an agent lacks and exclusive thinking levels elsewhere', () => {
    expect(modeViolation('agent_3', { fast_mode: true })).to.match(/fast mode/);
    expect(modeViolation('agent_3', { goal_mode: true })).to.match(/goal mode/);
    expect(modeViolation('agent_1', { goal_mode: true })).to.match(/goal mode/);
    expect(modeViolation('agent_2', { goal_mode: true, fast_mode: true, plan_mode: true, thinking_level: 'ultra' })).to.equal(null);
    expect(modeViolation('agent_1', { thinking_level: 'ultra' })).to.match(/only available with agent_2/);
    expect(modeViolation('agent_2', { thinking_level: 'ultracode' })).to.match(/only available with agent_1/);
    expect(modeViolation('agent_5', { plan_mode: true })).to.match(/plan mode/);
    expect(modeViolation('agent_4', { fast_mode: false, goal_mode: null })).to.equal(null);
  });
});
