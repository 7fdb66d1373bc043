/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP) for tests: it answers TXT questions from
 * a map the test fills and NXDOMAIN for anything else, so custom-domain verification runs
 * against a real resolver (node's, pointed here through DNS_RESOLVER) without the internet.
 * It also answers A, AAAA and ANY questions from `addresses`, a sequence of answers per name
 * (each question takes the next; the last repeats), which is how a test plays DNS rebinding.
 */
import dgram from 'node:dgram';
import { isIPv4, type AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface DnsStandIn {
  /** `127.0.0.1:<port>`, the value for DNS_RESOLVER. */
  server: string;
  /** TXT records by lower-cased name. */
  txt: Map<string, string[]>;
  /** Address answers by lower-cased name: each A/AAAA/ANY question takes the next list (the last repeats). */
  addresses: Map<string, string[][]>;
  /** Every question asked, as `TYPE name` (e.g. `A rebind.test`), in order. */
  questions: string[];
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

function addressRecord(address: string): Buffer {
  const data = Buffer.from(ipaddr.parse(address).toByteArray());
  // Name: a pointer to the question's name; type A (1) or AAAA (28), class IN, TTL 0.
  const head = Buffer.from([0xc0, 12, 0, isIPv4(address) ? 1 : 28, 0, 1, 0, 0, 0, 0, 0, data.length]);
  return Buffer.concat([head, data]);
}

const QTYPES: Record<number, string> = { 1: 'A', 16: 'TXT', 28: 'AAAA', 255: 'ANY' };

export async function startDnsStandIn(): Promise<DnsStandIn> {
  const txt = new Map<string, string[]>();
  const addresses = new Map<string, string[][]>();
  const questions: string[] = [];
  const served = new Map<string, number>();
  const nextAddresses = (name: string): string[] => {
    const seq = addresses.get(name) ?? [];
    const i = served.get(name) ?? 0;
    served.set(name, i + 1);
    return seq[Math.min(i, seq.length - 1)] ?? [];
  };
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    if (msg.length < 12) return;
    const { name, end } = readName(msg, 12);
    const qtype = msg.readUInt16BE(end);
    questions.push(`${QTYPES[qtype] ?? qtype} ${name}`);
    const question = msg.subarray(12, end + 4);
    let answers: Buffer[] = [];
    if (qtype === 16) answers = (txt.get(name) ?? []).map(txtRecord);
    else if (addresses.has(name) && (qtype === 1 || qtype === 28 || qtype === 255)) {
      answers = nextAddresses(name).filter((a) => qtype === 255 || (qtype === 1) === isIPv4(a)).map(addressRecord);
    }
    const known = txt.has(name) || addresses.has(name);
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8400 | (known ? 0 : 3), 2); // response, authoritative; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    txt, addresses, questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
