// @topup/operators: who may use the console and what operators may do. Users, sign-in links and sessions,
// the audit log, funding approvals, and the operator functions the console and the CLI both call.

export { migrateOperators } from './operator-migrations.js';
export { OperatorError, type OperatorErrorCode } from './operator-error.js';
export { passwordLength, passwordProblem } from './passwords.js';
export {
  createSignInLink,
  createUser,
  findUserByEmail,
  linkUser,
  type LinkLookup,
  roles,
  signInLinkMinutes,
  type ConsoleUser,
  type Role,
} from './users.js';
export {
  csrfToken,
  currentSession,
  endSession,
  noteReauthentication,
  reauthenticationMs,
  type Session,
  type SessionLifetimes,
} from './sessions.js';
export { passwordMatches, signIn, signInWithLink, type LinkSignIn, type SignedIn } from './sign-in.js';
export { listAudit, recordAudit, type AuditEntry, type AuditRecord } from './audit-log.js';
export {
  callOperatorFunction,
  isOperatorFunction,
  operatorFunctionRules,
  operatorFunctions,
  type OperatorContext,
  type OperatorFunctionName,
  type OperatorRole,
} from './operator-functions.js';
export { legView, userView } from './views.js';
export { shillingsToMinor } from './shillings.js';
