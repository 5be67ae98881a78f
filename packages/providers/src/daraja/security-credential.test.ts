import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { passwordInCredential } from '../fakes/security-credential-check.js';
import { securityCredential } from './security-credential.js';

const fixture = (name: string) => readFileSync(new URL(`../fakes/fixtures/${name}`, import.meta.url), 'utf8');
const certificate = fixture('fake-daraja-certificate.pem');
const privateKey = fixture('fake-daraja-key.pem');

describe('securityCredential', () => {
  it('encrypts the initiator password so the certificate’s key holder reads it back', () => {
    const credential = securityCredential('Safaricom999!*!', certificate);
    expect(Buffer.from(credential, 'base64')).toHaveLength(256);
    expect(passwordInCredential(credential, privateKey)).toBe('Safaricom999!*!');
  });

  it('gives a different text each time, each of which reads back the same', () => {
    const first = securityCredential('pass', certificate);
    const second = securityCredential('pass', certificate);
    expect(first).not.toBe(second);
    expect(passwordInCredential(second, privateKey)).toBe('pass');
  });

  it('is not readable with another key', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    expect(passwordInCredential(securityCredential('pass', certificate), other.toString())).toBeUndefined();
    expect(passwordInCredential('not base64 at all', privateKey)).toBeUndefined();
  });

  it('says what is wrong with a certificate it cannot use', () => {
    expect(() => securityCredential('pass', 'not a PEM')).toThrow(
      /^Expected a PEM certificate or public key for DARAJA_CERTIFICATE, received one that cannot be read/,
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    expect(() => securityCredential('pass', ec.toString())).toThrow(
      'Expected an RSA certificate for DARAJA_CERTIFICATE, received a key of type ec.',
    );
  });
});
