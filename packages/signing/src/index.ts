// The public API of @topup/signing: secrets, signing, verification and the receiver helpers.
export { generateSecret, decodeSecret } from './secret.js';
export { SIGNATURE_ALGORITHM, signatureHeaderNames } from './signature-headers.js';
export type { CallbackSignatureHeaders } from './signature-headers.js';
export type { CallbackBody } from './mac.js';
export { signCallback } from './sign.js';
export type { SignCallbackInput } from './sign.js';
export { readHeader } from './header-lookup.js';
export type { HeaderGetter, HeaderSource } from './header-lookup.js';
export { DEFAULT_TOLERANCE_SECONDS, verifyCallback } from './verify.js';
export type {
  CallbackVerification,
  CallbackVerificationFailure,
  VerificationFailureReason,
  VerifiedCallbackSignature,
  VerifyCallbackInput,
} from './verify.js';
export { CallbackBodyTooLargeError, DEFAULT_MAX_BODY_BYTES, readNodeBody } from './read-body.js';
export type { NodeRequestLike } from './read-body.js';
export type { CallbackReceiverOptions } from './receiver-options.js';
export { verifyNodeRequest } from './node-request.js';
export { verifyFetchRequest } from './fetch-request.js';
export { koaCallbackVerifier } from './koa.js';
export type { KoaCallbackContext, KoaCallbackMiddleware, VerifiedCallback } from './koa.js';
