import { expect } from 'chai';
import type { Context } from 'koa';
import type { Actor } from '../../../src/domain/actor';
import { DomainError } from '../../../src/domain/errors';
import { createStreamSlots, STREAM_RETRY_AFTER_SECONDS } from '../../../src/http/streamLimits';

const actor = (organizationId: string, keyId: string): Actor => ({ organizationId, keyId, userId: null, keyKind: 'org', isAdmin: true });

function fakeContext() {
  const headers: Record<string, string> = {};
  return { headers, ctx: { set: (name: string, value: string) => void (headers[name] = value) } as unknown as Context };
}

function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('stream slots', () => {
  it('counts per key, per organization and in all, and frees a slot once however often it is released', () => {
    const slots = createStreamSlots({ perKey: 2, perOrganization: 3, perProcess: 4 });
    const { ctx } = fakeContext();
    const a1 = actor('org-a', 'key-1');
    const a2 = actor('org-a', 'key-2');
    const first = slots.take(a1, ctx);
    slots.take(a1, ctx);

    const perKey = refusal(() => slots.take(a1, ctx));
    expect(perKey.kind).to.equal('rate_limited');
    expect(perKey.details).to.match(/an API key may hold 2/);

    slots.take(a2, ctx);
    expect(refusal(() => slots.take(a2, ctx)).details).to.match(/an organization may hold 3/);
    slots.take(actor('org-b', 'key-3'), ctx);
    expect(slots.open).to.equal(4);
    expect(refusal(() => slots.take(actor('org-c', 'key-4'), ctx)).details).to.match(/this server holds/);

    first();
    first();
    expect(slots.open).to.equal(3);
    slots.take(a1, ctx);
    expect(slots.open).to.equal(4);
  });

  it('sets Retry-After on the context it refuses', () => {
    const slots = createStreamSlots({ perKey: 1, perOrganization: 1, perProcess: 1 });
    const { ctx, headers } = fakeContext();
    slots.take(actor('org-a', 'key-1'), ctx);
    expect(() => slots.take(actor('org-a', 'key-1'), ctx)).to.throw(DomainError, 'Too many open event streams');
    expect(headers['Retry-After']).to.equal(String(STREAM_RETRY_AFTER_SECONDS));
  });
});
