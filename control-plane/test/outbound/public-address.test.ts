import http from 'node:http';
import net from 'node:net';
import t from 'tap';
import { AppError } from '../../src/errors.ts';
import { canonicalAddress, nonPublicRange } from '../../src/outbound/public-address.ts';
import { guardSocket, pinnedLookup, safeFetch } from '../../src/outbound/safe-fetch.ts';
import { connectionCounter, standInResolve } from '../helpers/address-probes.ts';
import { startDnsStandIn } from '../helpers/dns-stand-in.ts';

// [address as a host or resolver may hand it over, its canonical spelling, the range refused (undefined: public)]
const ADDRESSES: [string, string | undefined, string | undefined][] = [
  ['93.184.216.34', '93.184.216.34', undefined],
  ['8.8.8.8', '8.8.8.8', undefined],
  ['2606:4700::1111', '2606:4700::1111', undefined],
  ['[2606:4700::1111]', '2606:4700::1111', undefined],
  ['::ffff:8.8.8.8', '::ffff:808:808', undefined],
  ['64:ff9b::808:808', '64:ff9b::808:808', undefined],
  ['2002:808:808::1', '2002:808:808::1', undefined],
  // IPv4 in every spelling
  ['127.0.0.1', '127.0.0.1', 'loopback'],
  ['127.1', '127.0.0.1', 'loopback'],
  ['0177.0.0.1', '127.0.0.1', 'loopback'],
  ['0x7f.1', '127.0.0.1', 'loopback'],
  ['0x7f000001', '127.0.0.1', 'loopback'],
  ['2130706433', '127.0.0.1', 'loopback'],
  ['127.0.0.1.', '127.0.0.1', 'loopback'],
  ['0.0.0.0', '0.0.0.0', 'unspecified'],
  ['10.1.2.3', '10.1.2.3', 'private'],
  ['172.16.0.1', '172.16.0.1', 'private'],
  ['192.168.0.1', '192.168.0.1', 'private'],
  ['169.254.169.254', '169.254.169.254', 'linkLocal'],
  ['100.64.0.1', '100.64.0.1', 'carrierGradeNat'],
  ['198.18.0.1', '198.18.0.1', 'reserved'],
  ['192.0.2.1', '192.0.2.1', 'reserved'],
  ['203.0.113.9', '203.0.113.9', 'reserved'],
  ['224.0.0.1', '224.0.0.1', 'multicast'],
  ['255.255.255.255', '255.255.255.255', 'broadcast'],
  // IPv6 carrying IPv4
  ['::127.0.0.1', '::7f00:1', 'ipv4Compatible'],
  ['::7f00:1', '::7f00:1', 'ipv4Compatible'],
  ['[::7f00:1]', '::7f00:1', 'ipv4Compatible'],
  ['::8.8.8.8', '::808:808', 'ipv4Compatible'],
  ['::ffff:127.0.0.1', '::ffff:7f00:1', 'loopback'],
  ['::ffff:7f00:1', '::ffff:7f00:1', 'loopback'],
  ['::ffff:a9fe:a9fe', '::ffff:a9fe:a9fe', 'linkLocal'],
  ['::ffff:0:7f00:1', '::ffff:0:7f00:1', 'rfc6145'],
  ['64:ff9b::7f00:1', '64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::a00:1', '64:ff9b::a00:1', 'private'],
  ['64:ff9b:1::808:808', '64:ff9b:1::808:808', 'nat64Local'],
  ['2002:7f00:1::', '2002:7f00:1::', 'loopback'],
  ['2002:a9fe:a9fe::1', '2002:a9fe:a9fe::1', 'linkLocal'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo'], // client 127.0.0.1
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'teredo'], // client 8.8.8.8: refused all the same
  // IPv6
  ['::', '::', 'unspecified'],
  ['::1', '::1', 'loopback'],
  ['fe80::1', 'fe80::1', 'linkLocal'],
  ['fe80::1%eth0', undefined, 'scoped'],
  ['fd12:3456::1', 'fd12:3456::1', 'uniqueLocal'],
  ['fd00:ec2::254', 'fd00:ec2::254', 'uniqueLocal'],
  ['ff02::1', 'ff02::1', 'multicast'],
  ['2001:db8::1', '2001:db8::1', 'reserved'],
  ['3fff::1', '3fff::1', 'reserved'],
  ['2001:2::1', '2001:2::1', 'benchmarking'],
  ['100::1', '100::1', 'discard'],
  ['fec0::1', 'fec0::1', 'deprecatedSiteLocal'],
  ['4000::1', '4000::1', 'notGlobal'],
  // not addresses
  ['1.2.3.256', undefined, 'invalid'],
  ['::1.2.3.256', undefined, 'invalid'],
  ['example.com', undefined, 'invalid'],
];

// URLs whose host is a non-public address however it is written, and the address the refusal names.
const URLS: [string, string][] = [
  ['http://[::127.0.0.1]:PORT/', '::7f00:1'],
  ['http://[::7f00:1]:PORT/', '::7f00:1'],
  ['http://[::ffff:127.0.0.1]:PORT/', '::ffff:7f00:1'],
  ['http://[::ffff:7f00:1]:PORT/', '::ffff:7f00:1'],
  ['http://[64:ff9b::127.0.0.1]:PORT/', '64:ff9b::7f00:1'],
  ['http://[2002:7f00:1::1]:PORT/', '2002:7f00:1::1'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:PORT/', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
  ['http://[::]:PORT/', '::'],
  ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
  ['http://2130706433:PORT/', '127.0.0.1'],
  ['http://0x7f.1:PORT/', '127.0.0.1'],
  ['http://0177.0.0.1:PORT/', '127.0.0.1'],
  ['http://127.1:PORT/', '127.0.0.1'],
  ['http://127.0.0.1.:PORT/', '127.0.0.1'],
  ['http://0:PORT/', '0.0.0.0'],
  ['http://100.64.0.1/', '100.64.0.1'],
  ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
];

t.test('public addresses', async (t) => {
  t.test('should bring every spelling to one form and refuse every non-public range', async (t) => {
    for (const [address, canonical, range] of ADDRESSES) {
      t.same([canonicalAddress(address), nonPublicRange(address)], [canonical, range], address);
    }
  });

  const local = await connectionCounter();
  t.teardown(() => local.close());

  t.test('should refuse a download from any spelling of a non-public address, with no connection made', async (t) => {
    for (const [template, address] of URLS) {
      const url = template.replace('PORT', String(local.port));
      const err = await safeFetch(url, { field: 'light', timeoutMs: 3_000 }).catch((e) => e);
      t.ok(err instanceof AppError, url);
      t.same({ status: err.status, error: err.code, message: err.message }, {
        status: 400, error: 'invalid_request', message: `light: URL resolves to a private address (${address}); only public addresses are allowed`,
      }, url);
    }
    t.equal(local.count(), 0, 'no connection reached 127.0.0.1');
  });

  t.test('should connect only to the address it checked when DNS answers differently the second time', async (t) => {
    const dns = await startDnsStandIn();
    t.teardown(() => dns.close());
    // Public first (an IPv6 address: nothing here is reached through it), then the local server.
    dns.addresses.set('rebind.test', [['2606:4700::1111'], ['127.0.0.1']]);
    const resolveHost = standInResolve(dns.server);
    const err = await safeFetch(`http://rebind.test:${local.port}/logo.png`, { field: 'light', timeoutMs: 3_000, resolveHost }).catch((e) => e);
    t.ok(err instanceof AppError, String(err));
    t.match(err.message, /^light: (Could not download http:\/\/rebind\.test:\d+; the server did not answer|Download timed out after 3 s)$/);
    t.same(dns.questions, ['ANY rebind.test'], 'one DNS question: the connection used the checked answer');
    t.same(await resolveHost('rebind.test'), ['127.0.0.1'], 'a second question would have been answered with 127.0.0.1');
    t.equal(local.count(), 0, 'no connection reached 127.0.0.1');
  });

  t.test('should refuse a name whose answers include one private address', async (t) => {
    const dns = await startDnsStandIn();
    t.teardown(() => dns.close());
    dns.addresses.set('mixed.test', [['2606:4700::1111', '::ffff:127.0.0.1']]);
    const err = await safeFetch(`http://mixed.test:${local.port}/`, { field: 'light', resolveHost: standInResolve(dns.server) }).catch((e) => e);
    t.same([err.status, err.code, err.message], [400, 'invalid_request', 'light: URL resolves to a private address (::ffff:7f00:1); only public addresses are allowed']);
    t.equal(local.count(), 0);
  });

  t.test('should write nothing to a peer that is not the checked address', async (t) => {
    const received: Buffer[] = [];
    let closed!: () => void;
    const peerClosed = new Promise<void>((resolve) => { closed = resolve; });
    const server = net.createServer((sock) => { sock.on('data', (d) => received.push(d)); sock.on('close', () => closed()); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const port = (server.address() as net.AddressInfo).port;
    // A lookup that (wrongly) answers another address than the one checked: the guard notices.
    const err = await new Promise<Error>((resolve) => {
      const req = http.request(`http://checked.test:${port}/`, { method: 'POST', agent: false, lookup: pinnedLookup('127.0.0.1') as never });
      guardSocket(req, '2606:4700::1111');
      req.on('error', resolve);
      req.on('response', () => resolve(new Error('answered')));
      req.end('secret body');
    });
    t.equal(err.message, 'connected to 127.0.0.1, not the checked 2606:4700::1111');
    await peerClosed;
    t.same(Buffer.concat(received).toString(), '', 'not a byte of the request was sent');
  });
});
