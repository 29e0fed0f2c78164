import { expect } from 'chai';
import { indexCatalog, pageOf } from '../../../src/services/modelCatalog/search';

describe('catalog search and paging', () => {
  const catalog = indexCatalog([
    { id: 'alpha-large', displayName: 'Alpha Large', description: 'Handles LONG documents' },
    { id: 'beta', displayName: 'Beta Coder' },
    { id: 'gamma', displayName: 'Gamma', description: 'A coder for long sessions' },
  ]);

  it('matches a case-insensitive substring of id, displayName or description', () => {
    expect(catalog.search('ALPHA').map((m) => m.id)).to.deep.equal(['alpha-large']);
    expect(catalog.search('coder').map((m) => m.id)).to.deep.equal(['beta', 'gamma']);
    expect(catalog.search('long').map((m) => m.id)).to.deep.equal(['alpha-large', 'gamma']);
    expect(catalog.search('ha-la').map((m) => m.id)).to.deep.equal(['alpha-large']);
    expect(catalog.search('nothing')).to.deep.equal([]);
    expect(catalog.search('')).to.have.length(3);
  });

  it('does not match across field boundaries', () => {
    expect(catalog.search('betabeta coder')).to.deep.equal([]);
    expect(catalog.search('gammaa coder')).to.deep.equal([]);
  });

  it('answers a repeated query with the same result', () => {
    expect(catalog.search('Coder')).to.equal(catalog.search('coder'));
  });

  it('pages with the right totals, empty past the end', () => {
    const items = [1, 2, 3, 4, 5];
    expect(pageOf(items, 1, 2)).to.deep.equal({ items: [1, 2], total: 5, totalPages: 3 });
    expect(pageOf(items, 3, 2)).to.deep.equal({ items: [5], total: 5, totalPages: 3 });
    expect(pageOf(items, 4, 2)).to.deep.equal({ items: [], total: 5, totalPages: 3 });
    expect(pageOf([], 1, 20)).to.deep.equal({ items: [], total: 0, totalPages: 0 });
  });
});
