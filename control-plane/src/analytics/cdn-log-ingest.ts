/**
 * Ingests a CDN access log through the same path as live serving: each request line is mapped
 * to the object key the site server would serve (`candidateKeys`), that key to an event
 * (`eventForKey`), and recorded with `recorder.record` (classification, hashing, batching).
 * The line's host decides the project, as a request's Host does on the site server.
 */
import type { Models } from '../db/models/index.ts';
import { projectIdForHost } from '../sites/host-project.ts';
import { candidateKeys, wantsMarkdown } from '@folio/builder';
import { cloudFrontReader, LogLineError, parseJsonLine, type LogFormat, type LogRequest } from './cdn-log-formats.ts';
import type { AnalyticsRecorder } from './recorder.ts';
import { eventForKey } from './served-request.ts';

/** What an ingestion did. */
export interface IngestReport {
  format: LogFormat;
  /** Non-empty, non-comment lines read. */
  lines: number;
  /** Events recorded. */
  recorded: number;
  /** Valid lines that are not events: not GET, not 200/304, assets, or a host no project serves. */
  skipped: number;
  /** Lines that could not be read. */
  invalid: number;
  /** The first {@link MAX_REPORTED_ERRORS} unreadable lines, 1-based. */
  errors: { line: number; message: string }[];
}

export const MAX_REPORTED_ERRORS = 20;

/** Ingests `text` (a whole log file). Waits for the recorder between batches: a log is not a page view and may wait. */
export async function ingestCdnLog(m: Models, recorder: AnalyticsRecorder, sitesDomain: string, format: LogFormat, text: string): Promise<IngestReport> {
  const report: IngestReport = { format, lines: 0, recorded: 0, skipped: 0, invalid: 0, errors: [] };
  const readCloudFront = cloudFrontReader();
  const hosts = new Map<string, Promise<string | undefined>>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    let req: LogRequest | undefined;
    try {
      req = format === 'jsonl' ? parseJsonLine(line) : readCloudFront(line);
    } catch (err) {
      report.lines++;
      report.invalid++;
      if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push({ line: i + 1, message: err instanceof LogLineError ? err.message : 'Unreadable line' });
      continue;
    }
    if (!req) continue;
    report.lines++;
    const host = req.host.toLowerCase();
    if (!hosts.has(host)) hosts.set(host, projectIdForHost(m, sitesDomain, host));
    const projectId = await hosts.get(host);
    const key = req.method === 'GET' && (req.status === 200 || req.status === 304) ? candidateKeys(req.path, wantsMarkdown(req.accept))?.[0] : undefined;
    const body = key === undefined ? undefined : eventForKey(key);
    if (!projectId || !body) { report.skipped++; continue; }
    const geoHeaders = req.geo ? { 'cloudfront-viewer-country': req.geo.country, 'cloudfront-viewer-country-region': req.geo.region, 'cloudfront-viewer-city': req.geo.city } : {};
    recorder.record({
      ...body, projectId, at: req.at, source: 'cdn_log',
      visit: { ip: req.ip, userAgent: req.userAgent.slice(0, 512), referer: req.referer, host, search: req.query, headers: geoHeaders },
    });
    report.recorded++;
    if (report.recorded % 1000 === 0) await recorder.flush();
  }
  await recorder.flush();
  return report;
}
