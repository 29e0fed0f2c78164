import { expect } from 'chai';
import { createSecretBox, generateEncryptionKey } from '../../../src/crypto/secretBox';
import { sealedField } from '../../../src/crypto/sealedFields';
import { parseEncryptionKeys } from '../../../src/config';
import { MASK, SECRET_MAX_BYTES, maskedSecret, sealedKeyId, secretProblem, secretTail } from '../../../src/domain/credentialSecrets';

describe('credential secret rules', () => {
  it('shows at most the last four characters, and none of a short secret', () => {
    expect(maskedSecret(secretTail('sk-live-0123456789abcd'))).to.equal(`${MASK}abcd`);
    expect(secretTail('123456789012')).to.equal('9012');
    expect(secretTail('12345678901')).to.equal('');
    expect(maskedSecret(secretTail('abcd'))).to.equal(MASK);
    // Characters, not UTF-16 units: an emoji at the end is not split in half.
    expect(secretTail('key-0123456789-🔑🔑')).to.equal('9-🔑🔑');
  });

  it('rejects blank, oversized and control-character secrets without echoing them', () => {
    expect(secretProblem('sk-valid')).to.equal(null);
    expect(secretProblem('   ')).to.match(/blank/);
    expect(secretProblem('x'.repeat(SECRET_MAX_BYTES))).to.equal(null);
    expect(secretProblem('x'.repeat(SECRET_MAX_BYTES + 1))).to.match(/8192 bytes/);
    // Bytes, not characters: 2,731 three-byte characters are 8,193 bytes.
    expect(secretProblem('€'.repeat(2731))).to.match(/8192 bytes/);
    const problem = secretProblem('sk-line\nbreak');
    expect(problem).to.match(/control characters/);
    expect(problem).not.to.contain('sk-line');
  });

  it('reads the key id a sealed value names', () => {
    const box = createSecretBox(parseEncryptionKeys(generateEncryptionKey('k7')));
    expect(sealedKeyId(box.seal('secret', sealedField('agent_credentials', 'secret_sealed', 'org/-/agent_1')))).to.equal('k7');
    expect(() => sealedKeyId('plain')).to.throw(/unknown format/);
  });
});
