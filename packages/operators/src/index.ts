// @topup/operators: who may use the console and what operators may do. Users, sign-in links and sessions,
// the audit log, what waits for a second admin, and the operator functions the console and the CLI both
// call, as the one catalog (`@topup/operators/catalog`) describes them.

export { migrateOperators } from './operator-migrations.js';
export { OperatorError, type OperatorErrorCode } from './operator-error.js';
export { passwordLength, passwordProblem } from './passwords.js';
export {
  createSignInLink,
  createUser,
  findUserByEmail,
  linkUser,
  roles,
  signInLinkMinutes,
  type ConsoleUser,
  type LinkLookup,
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
export {
  passwordMatches,
  signIn,
  signInWithLink,
  signOut,
  type LinkSignIn,
  type SignedIn,
  type SignInAttempt,
} from './sign-in.js';
export { listAudit, recordAudit, type AuditEntry, type AuditRecord } from './audit-log.js';
export { callOperatorFunction } from './call-operator-function.js';
export {
  cliActor,
  type CallbackRules,
  type OperatorActor,
  type OperatorContext,
} from './operator-context.js';
export {
  isOperatorFunction,
  operatorCatalog,
  type CliSpelling,
  type OperatorAnswer,
  type OperatorFunctionName,
  type OperatorInput,
} from './catalog/index.js';
export { shillingsToMinor } from './shillings.js';
