import { TypedSearchAttributes } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { expect } from 'chai';
import { loadConfig } from '../../../src/config';
import { devServerSearchAttributeArgs, SEARCH_ATTRIBUTE_NAMES, verifySearchAttributes } from '../../../src/temporal/searchAttributes';
import { labelsOf, searchAttributePairs } from '../../../workflows/shared';

const { INDEXED_VALUE_TYPE_KEYWORD: KEYWORD, INDEXED_VALUE_TYPE_TEXT: TEXT } = temporal.api.enums.v1.IndexedValueType;

/** A namespace whose custom search attributes are `custom` (or whose listing fails with `error`). */
function cluster(custom: Record<string, temporal.api.enums.v1.IndexedValueType>, error?: Error & { code?: number }) {
  return {
    operatorService: {
      listSearchAttributes: async (request: { namespace?: string | null }) => {
        if (error) throw error;
        expect(request.namespace).to.equal('hangar-prod');
        return temporal.api.operatorservice.v1.ListSearchAttributesResponse.create({ customAttributes: custom });
      },
    },
  } as unknown as Parameters<typeof verifySearchAttributes>[0];
}

const all = () => Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, KEYWORD]));

describe('temporal: search attributes at start', () => {
  it('are the five Hangar keywords, registered on the dev server by flags', () => {
    expect(SEARCH_ATTRIBUTE_NAMES).to.deep.equal(['HangarOrganizationId', 'HangarAutomationId', 'HangarReplicaId', 'HangarExecutionId', 'HangarTrigger']);
    expect(devServerSearchAttributeArgs().slice(0, 2)).to.deep.equal(['--search-attribute', 'HangarOrganizationId=Keyword']);
    expect(devServerSearchAttributeArgs()).to.have.length(10);
  });

  it('accepts a namespace that has them all (and others)', async () => {
    await verifySearchAttributes(cluster({ ...all(), CustomerId: TEXT }), 'hangar-prod');
  });

  it('refuses a namespace that lacks some, naming the command that registers exactly those', async () => {
    const { HangarReplicaId: _r, HangarTrigger: _t, ...rest } = all();
    const err = await verifySearchAttributes(cluster(rest), 'hangar-prod').then(() => null, (e: Error) => e);
    expect(err?.message).to.include('lacks Hangar\'s search attributes HangarReplicaId, HangarTrigger');
    expect(err?.message).to.include('temporal operator search-attribute create --namespace hangar-prod --name HangarReplicaId --type Keyword --name HangarTrigger --type Keyword');
    expect(err?.message).to.include('HANGAR_TEMPORAL_SEARCH_ATTRIBUTES=off');
  });

  it('refuses one registered with another type', async () => {
    const err = await verifySearchAttributes(cluster({ ...all(), HangarAutomationId: TEXT }), 'hangar-prod').then(() => null, (e: Error) => e);
    expect(err?.message).to.match(/HangarAutomationId with a type other than Keyword/);
  });

  it('says what to do when the listing is not allowed, and lets an unreachable cluster\'s error through', async () => {
    const denied = Object.assign(new Error('7 PERMISSION_DENIED: Request unauthorized.'), { code: 7 });
    const err = await verifySearchAttributes(cluster({}, denied), 'hangar-prod').then(() => null, (e: Error) => e);
    expect(err?.message).to.include('could not list the search attributes of Temporal namespace "hangar-prod"');
    expect(err?.message).to.include('HANGAR_TEMPORAL_SEARCH_ATTRIBUTES=off');
    const down = Object.assign(new Error('14 UNAVAILABLE'), { code: 14 });
    expect(await verifySearchAttributes(cluster({}, down), 'hangar-prod').then(() => null, (e: Error) => e)).to.equal(down);
  });

  it('is on unless HANGAR_TEMPORAL_SEARCH_ATTRIBUTES=off', () => {
    expect(loadConfig({}).temporalSearchAttributes).to.equal(true);
    expect(loadConfig({ HANGAR_TEMPORAL_SEARCH_ATTRIBUTES: 'off' }).temporalSearchAttributes).to.equal(false);
    expect(() => loadConfig({ HANGAR_TEMPORAL_SEARCH_ATTRIBUTES: 'no' })).to.throw(/HANGAR_TEMPORAL_SEARCH_ATTRIBUTES must be one of on, off/);
  });

  it('labels leave unknown ids out and read back from a workflow\'s attributes', () => {
    const pairs = searchAttributePairs({ organizationId: 'o1', automationId: '', executionId: 'e1' });
    expect(pairs.map((p) => [p.key.name, p.value])).to.deep.equal([['HangarOrganizationId', 'o1'], ['HangarExecutionId', 'e1']]);
    expect(labelsOf(new TypedSearchAttributes(pairs))).to.deep.equal({ organizationId: 'o1', executionId: 'e1' });
  });
});
