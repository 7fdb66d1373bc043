/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP) for tests: it answers TXT questions from
 * a map the test fills and NXDOMAIN for anything else, so custom-domain verification runs
 * against a real resolver (node's, pointed here through DNS_RESOLVER) without the internet.
 */
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

export interface DnsStandIn {
  /** `127.0.0.1:<port>`, the value for DNS_RESOLVER. */
  server: string;
  /** TXT records by lower-cased name. */
  txt: Map<string, string[]>;
  close(): Promise<void>;
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i] !== 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('ascii'));
    i += msg[i] + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

function txtRecord(value: string): Buffer {
  const data = Buffer.from(value, 'utf8');
  // Name: a pointer to the question's name (offset 12); type TXT (16), class IN, TTL 60.
  const head = Buffer.from([0xc0, 12, 0, 16, 0, 1, 0, 0, 0, 60, 0, 0]);
  head.writeUInt16BE(data.length + 1, 10);
  return Buffer.concat([head, Buffer.from([data.length]), data]);
}

export async function startDnsStandIn(): Promise<DnsStandIn> {
  const txt = new Map<string, string[]>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    if (msg.length < 12) return;
    const { name, end } = readName(msg, 12);
    const qtype = msg.readUInt16BE(end);
    const question = msg.subarray(12, end + 4);
    const answers = qtype === 16 ? (txt.get(name) ?? []).map(txtRecord) : [];
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8400 | (txt.has(name) ? 0 : 3), 2); // response, authoritative; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    txt,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
