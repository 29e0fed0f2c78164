/**
 * The PostgreSQL event bus through a connection PostgreSQL loses (a restart, a cut network): it
 * listens again by itself once the server is back, so live streams resume without waiting for
 * the process's next publish, and a connection attempt that failed while the server was away is
 * not kept (it used to be, and every later subscribe failed: the API's event streams answered
 * 503 until it restarted, seen on the compose deployment after its PostgreSQL was killed).
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createPostgresBus, type EventBus } from '../../../src/events/bus';
import { silentLogger } from '../../../src/logger';
import { harness } from '../../support/harness';
import { TcpRelay } from '../../support/tcpRelay';
import { until } from '../../support/wait';

describe('event bus: a lost PostgreSQL connection', function () {
  this.timeout(60_000);
  let relay: TcpRelay;
  let bus: EventBus;
  let publisher: EventBus;

  before(async () => {
    const url = new URL(harness().config.databaseUrl!);
    relay = new TcpRelay({ host: url.hostname, port: Number(url.port || 5432) }, { host: '127.0.0.1', port: 0 });
    await relay.open();
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    bus = createPostgresBus(url.toString(), silentLogger);
    publisher = createPostgresBus(harness().config.databaseUrl!, silentLogger);
  });
  after(async () => {
    await bus?.close();
    await publisher?.close();
    await relay?.cut();
  });

  it('listens again once the server is back, and never keeps a connection that failed to open', async () => {
    const channel = `reconnect_${randomBytes(4).toString('hex')}`;
    const seen: string[] = [];
    await bus.subscribe(channel, (m) => seen.push(m));
    await publisher.publish(channel, 'before');
    await until('the message before the cut', async () => seen.includes('before'), 10_000, 20);

    await relay.cut();
    // While the server is away, opening anything fails.
    let failed = false;
    await bus.subscribe(`${channel}_b`, () => undefined).catch(() => (failed = true));
    expect(failed, 'a subscribe with the server away fails').to.equal(true);

    await relay.open();
    // Nothing is asked of the bus: it listens again by itself.
    await until('a message after the server came back', async () => {
      await publisher.publish(channel, 'after');
      return seen.includes('after');
    }, 30_000, 250);
    // And a new subscription works (a failed attempt was not kept).
    const later: string[] = [];
    await bus.subscribe(`${channel}_c`, (m) => later.push(m));
    await publisher.publish(`${channel}_c`, 'later');
    await until('a message on a new channel', async () => later.includes('later'), 10_000, 20);
  });
});
