import { generateSecret, signCallback, verifyCallback } from '@topup/signing';

const secret = generateSecret(); // whsec_…, shown to the caller once
const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Agent float deposited"}}';
const headers = signCallback({
  secrets: [secret],
  id: 'cb_01JD8Z6Q4M',
  timestamp: Math.floor(Date.now() / 1000),
  body,
});
console.log(Object.keys(headers));
// ['Signature-Algorithm', 'Signature-Timestamp', 'Signature-Hash', 'webhook-id', 'webhook-timestamp', 'webhook-signature']

const result = verifyCallback({ secrets: [secret], headers, body });
console.log(result); // { ok: true, id: 'cb_01JD8Z6Q4M', timestamp: …, key: 'sha256:…' }
console.log(verifyCallback({ secrets: [secret], headers, body: `${body} ` }).ok); // false: the bytes changed
