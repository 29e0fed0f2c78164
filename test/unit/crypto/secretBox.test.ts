import { expect } from 'chai';
import { parseEncryptionKeys } from '../../../src/config';
import { credentialRowKey, rowKeyOf, sealedField } from '../../../src/crypto/sealedFields';
import { createSecretBox, generateEncryptionKey } from '../../../src/crypto/secretBox';
import { sealV1 } from '../../support/sealedV1';

const [k1] = parseEncryptionKeys(generateEncryptionKey('k1'));
const [k2] = parseEncryptionKeys(generateEncryptionKey('k2'));
const ROW = '00000000-0000-4000-8000-000000000001';
const OTHER_ROW = '00000000-0000-4000-8000-000000000002';
const value = sealedField('environment_variables', 'value_sealed', ROW);

describe('crypto/secretBox: sealed values bound to where they live', () => {
  it('seals as v2 under the active key and opens as the same field', () => {
    const box = createSecretBox([k1!]);
    const sealed = box.seal('hunter2', value);
    expect(sealed).to.match(/^v2\.k1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.to.include('hunter2');
    expect(box.open(sealed, value)).to.equal('hunter2');
    expect(box.isCurrent(sealed)).to.equal(true);
  });

  it('refuses a value copied into another row, column or table', () => {
    const box = createSecretBox([k1!]);
    const sealed = box.seal('hunter2', value);
    for (const elsewhere of [
      sealedField('environment_variables', 'value_sealed', OTHER_ROW),
      sealedField('environment_files', 'content_sealed', ROW),
      sealedField('plugin_installs', 'secret_sealed', ROW),
      sealedField('plugin_installs', 'config_sealed', ROW),
    ]) {
      expect(() => box.open(sealed, elsewhere), `${elsewhere.table}.${elsewhere.column}/${elsewhere.row}`).to.throw(/does not open/);
    }
  });

  it("binds a credential to its owner and agent, an organization's apart from a member's", () => {
    const box = createSecretBox([k1!]);
    const org = { organizationId: ROW, userId: null };
    const member = { organizationId: ROW, userId: OTHER_ROW };
    expect(credentialRowKey(org, 'agent_1')).to.equal(`${ROW}/-/agent_1`);
    expect(rowKeyOf('agent_credentials', { organization_id: ROW, user_id: OTHER_ROW, agent: 'agent_1' })).to.equal(credentialRowKey(member, 'agent_1'));
    const sealed = box.seal('sk-org', sealedField('agent_credentials', 'secret_sealed', credentialRowKey(org, 'agent_1')));
    expect(box.open(sealed, sealedField('agent_credentials', 'secret_sealed', credentialRowKey(org, 'agent_1')))).to.equal('sk-org');
    expect(() => box.open(sealed, sealedField('agent_credentials', 'secret_sealed', credentialRowKey(member, 'agent_1')))).to.throw(/does not open/);
    expect(() => box.open(sealed, sealedField('agent_credentials', 'secret_sealed', credentialRowKey(org, 'agent_2')))).to.throw(/does not open/);
  });

  it('still opens v1 values (bound to nothing) while their key is configured, and counts them as not current', () => {
    const old = sealV1(k1!, 'from before');
    const during = createSecretBox([k2!, k1!]);
    expect(during.open(old, value)).to.equal('from before');
    expect(during.open(old, sealedField('environment_files', 'content_sealed', OTHER_ROW))).to.equal('from before');
    expect(during.isCurrent(old)).to.equal(false);
    expect(() => createSecretBox([k2!]).open(old, value)).to.throw(/unknown format or key id/);
  });

  it('opens values of an older key while it is configured; they are not current', () => {
    const before = createSecretBox([k1!]).seal('rotate me', value);
    const during = createSecretBox([k2!, k1!]);
    expect(during.activeKeyId).to.equal('k2');
    expect(during.open(before, value)).to.equal('rotate me');
    expect(during.isCurrent(before)).to.equal(false);
    const resealed = during.seal(during.open(before, value), value);
    expect(during.isCurrent(resealed)).to.equal(true);
    expect(createSecretBox([k2!]).open(resealed, value)).to.equal('rotate me');
    expect(() => createSecretBox([k2!]).open(before, value)).to.throw(/unknown format or key id/);
  });

  it('refuses a value whose authentication tag was cut short, v2 and v1 alike', () => {
    // GCM checks only as many tag bytes as it is given: a 4-byte tag is forged in 2^32 tries.
    const box = createSecretBox([k1!]);
    for (const sealed of [box.seal('hunter2', value), sealV1(k1!, 'hunter2')]) {
      const [version, id, iv, tag, ct] = sealed.split('.');
      const full = Buffer.from(tag!, 'base64url');
      expect(full).to.have.length(16);
      for (const length of [4, 8, 12, 13, 15]) {
        const cut = [version, id, iv, full.subarray(0, length).toString('base64url'), ct].join('.');
        expect(() => box.open(cut, value), `${version}, ${length} bytes`).to.throw(/does not open|unknown format/);
      }
      const longer = [version, id, iv, Buffer.concat([full, Buffer.from([0])]).toString('base64url'), ct].join('.');
      expect(() => box.open(longer, value), `${version}, 17 bytes`).to.throw();
      expect(box.open(sealed, value)).to.equal('hunter2');
    }
  });

  it('refuses damaged values and unknown formats', () => {
    const box = createSecretBox([k1!]);
    const [version, id, iv, tag, ct] = box.seal('hunter2', value).split('.');
    const flipped = Buffer.from(ct!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => box.open([version, id, iv, tag, flipped.toString('base64url')].join('.'), value)).to.throw(/does not open/);
    expect(() => box.open(['v3', id, iv, tag, ct].join('.'), value)).to.throw(/unknown format/);
    expect(() => box.open([version, id, iv, tag, ct, 'extra'].join('.'), value)).to.throw(/unknown format/);
    expect(() => box.open('plain text', value)).to.throw(/unknown format/);
    expect(() => sealedField('replicas', 'engine_secret_sealed', '')).to.throw(/row key/);
  });
});
