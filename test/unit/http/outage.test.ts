import { expect } from 'chai';
import { outageOf } from '../../../src/http/errors';

const withFields = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('outageOf: which dependency an error says is down', () => {
  it('names the database for a pool timeout, a connection-exception class code and a closed socket', () => {
    expect(outageOf(withFields('Knex: Timeout acquiring a connection', { name: 'KnexTimeoutError' }))).to.equal('the database');
    expect(outageOf(withFields('terminating connection due to administrator command', { code: '57P01' }))).to.equal('the database');
    expect(outageOf(withFields('the database system is starting up', { code: '57P03' }))).to.equal('the database');
    expect(outageOf(withFields('connection failure', { code: '08006' }))).to.equal('the database');
    expect(outageOf(new Error('Connection terminated unexpectedly'))).to.equal('the database');
  });

  it('names Temporal for gRPC UNAVAILABLE', () => {
    expect(outageOf(withFields('14 UNAVAILABLE: Connection dropped', { name: 'ServiceError', code: 14 }))).to.equal('Temporal');
  });

  it('names both for a refused connection, found through causes and aggregated attempts', () => {
    const refused = withFields('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' });
    expect(outageOf(refused)).to.equal('the database or Temporal');
    expect(outageOf(new Error('query failed', { cause: refused }))).to.equal('the database or Temporal');
    expect(outageOf(new AggregateError([new Error('first'), refused]))).to.equal('the database or Temporal');
  });

  it('is null for errors that are not outages', () => {
    expect(outageOf(new Error('boom'))).to.equal(null);
    expect(outageOf(withFields('duplicate key value violates unique constraint', { code: '23505' }))).to.equal(null);
    expect(outageOf(withFields('14 UNAVAILABLE', { name: 'WorkflowExecutionAlreadyStartedError' }))).to.equal(null);
    expect(outageOf(null)).to.equal(null);
    expect(outageOf('ECONNREFUSED')).to.equal(null);
  });
});
