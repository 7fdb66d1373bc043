import { MongoCommandError } from './errors.ts';

/** A resolved time zone: a fixed UTC offset, or an IANA zone read through Intl. */
export type Zone = { kind: 'fixed'; offsetMs: number } | { kind: 'iana'; format: Intl.DateTimeFormat };

/** Wall-clock fields of an instant in a zone. `weekday` is 0 for Sunday. */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number;
}

const UTC: Zone = { kind: 'fixed', offsetMs: 0 };
const zones = new Map<string, Zone>();
const DAY_MS = 86_400_000;

/**
 * Resolves a MongoDB timezone argument: an IANA name ("Europe/Berlin"), "UTC"/"GMT", or a UTC
 * offset ("+05:30", "-0800", "+03"). Default (undefined): UTC. Unknown names fail the way mongod
 * does (code 40485).
 */
export function resolveZone(tz: string | undefined): Zone {
  if (tz === undefined || tz === 'UTC' || tz === 'GMT' || tz === 'Z') return UTC;
  const cached = zones.get(tz);
  if (cached) return cached;
  let zone: Zone;
  const fixed = /^([+-])(\d{2}):?(\d{2})?$/.exec(tz);
  if (fixed) {
    const minutes = Number(fixed[2]) * 60 + Number(fixed[3] ?? 0);
    zone = { kind: 'fixed', offsetMs: (fixed[1] === '-' ? -1 : 1) * minutes * 60_000 };
  } else {
    try {
      const format = new Intl.DateTimeFormat('en-US', {
        timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
        hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short',
      });
      zone = { kind: 'iana', format };
    } catch (err) {
      throw new MongoCommandError(40485, 'Location40485', `unrecognized time zone identifier: "${tz}"`, {}, { cause: err });
    }
  }
  zones.set(tz, zone);
  return zone;
}

/** The zone's UTC offset in milliseconds at an instant (positive east of Greenwich). */
export function offsetAt(zone: Zone, ms: number): number {
  if (zone.kind === 'fixed') return zone.offsetMs;
  const whole = Math.floor(ms / 1000) * 1000;
  const f: Record<string, string> = {};
  for (const p of zone.format.formatToParts(new Date(whole))) f[p.type] = p.value;
  const year = f.era === 'BC' ? 1 - Number(f.year) : Number(f.year);
  const local = Date.UTC(year, Number(f.month) - 1, Number(f.day), Number(f.hour), Number(f.minute), Number(f.second));
  // Date.UTC maps years 0-99 to 1900-1999; correct it for the rare early date.
  const fixedLocal = year >= 0 && year < 100 ? new Date(local).setUTCFullYear(year) : local;
  return fixedLocal - whole;
}

/** Wall-clock fields of an instant in a zone. */
export function localParts(zone: Zone, ms: number): LocalParts {
  const d = new Date(ms + offsetAt(zone, ms));
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(),
    minute: d.getUTCMinutes(), second: d.getUTCSeconds(), millisecond: d.getUTCMilliseconds(), weekday: d.getUTCDay(),
  };
}

/**
 * The instant at which the zone's wall clock shows `wallMs` (a wall-clock time encoded as if it
 * were UTC). In a repeated hour the earlier instant wins; a wall time inside a gap moves forward by
 * the gap's length, as timelib (mongod) does.
 */
export function instantOf(zone: Zone, wallMs: number): number {
  if (zone.kind === 'fixed') return wallMs - zone.offsetMs;
  const before = offsetAt(zone, wallMs - DAY_MS);
  const after = offsetAt(zone, wallMs + DAY_MS);
  const candidates = [wallMs - before, wallMs - after].filter((t) => offsetAt(zone, t) === wallMs - t);
  if (candidates.length > 0) return Math.min(...candidates);
  return wallMs - before;
}
