// CALLBACK_CA_FILE: a PEM bundle of certificates the worker trusts for https callbacks besides Node's own
// list, for receivers whose certificates a private CA issued. Read and checked at start, so a wrong path
// or a file with no certificate stops the start rather than every callback.

import { X509Certificate } from 'node:crypto';
import { pemFileAt } from './pem-file.js';

const pemBlock = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates in the file at `path`, or what is wrong with it. */
export function certificatesAt(path: string): { certificates: string[] } | { problem: string } {
  const read = pemFileAt(path);
  if ('problem' in read) return read;
  const certificates = read.text.match(pemBlock) ?? [];
  if (certificates.length === 0)
    return { problem: 'expected one or more PEM certificates, the file holds none' };
  for (const [index, pem] of certificates.entries()) {
    try {
      new X509Certificate(pem);
    } catch {
      return { problem: `expected certificate ${String(index + 1)} of the file to be readable, it is not` };
    }
  }
  return { certificates };
}

/** The certificates CALLBACK_CA_FILE names, once checked; none when it is unset. */
export function trustedCertificatesOf(path: string | undefined): string[] {
  if (path === undefined) return [];
  const read = certificatesAt(path);
  if ('problem' in read) throw new Error(`CALLBACK_CA_FILE: ${read.problem}`);
  return read.certificates;
}
