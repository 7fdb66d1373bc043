/**
 * Why a certificate order failed, in the words the dashboard shows a customer: what the CA ran
 * into and what to do about it, never an ACME problem type or a stack.
 */

/** An RFC 8555 problem document (section 6.7), as far as it is read here. */
export interface AcmeProblem { type?: string; detail?: string }

const PREFIX = 'urn:ietf:params:acme:error:';

/** The customer-facing reason for a failed order of `hostname`'s certificate. */
export function failureReason(hostname: string, problem: AcmeProblem | undefined): string {
  const type = problem?.type?.startsWith(PREFIX) ? problem.type.slice(PREFIX.length) : undefined;
  switch (type) {
    case 'dns':
      return `The certificate authority could not find ${hostname} in DNS. Create the DNS records shown for this domain, then wait for them to spread.`;
    case 'connection':
    case 'tls':
      return `The certificate authority could not connect to ${hostname} on port 80. Check that the DNS records shown for this domain point at this platform and that nothing blocks port 80.`;
    case 'unauthorized':
    case 'incorrectResponse':
      return `The certificate authority reached ${hostname}, but another server answered. Check that the DNS records point at this platform only, with no other server, proxy or CDN in front.`;
    case 'caa':
      return `A CAA record of ${hostname} forbids the certificate authority to issue for it. Remove that CAA record or add one that allows the platform's certificate authority.`;
    case 'rateLimited':
      return `The certificate authority has issued too many certificates for this domain lately. The order will be tried again later.`;
    case 'rejectedIdentifier':
      return `The certificate authority does not issue certificates for ${hostname}.`;
    case undefined:
      return problem?.detail
        ? `The certificate could not be obtained: ${problem.detail}. The order will be tried again later.`
        : 'The certificate authority could not be reached. The order will be tried again later.';
    default:
      return `The certificate authority refused the order${problem?.detail ? `: ${problem.detail}` : ''}. The order will be tried again later.`;
  }
}
