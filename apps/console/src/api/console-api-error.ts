// What a failed console call says, in one shape whatever answered it: the console's own error body
// `{"error": {"code", "message", "problems"}}`, an API envelope that failed (`status.type` FAIL, with
// `data.errors`), which /console/api/call passes through as the API answered it, or something that is
// neither (a proxy's error page, a dropped connection).

/** A console call that did not succeed; `code` is the console's error code or the envelope's status code. */
export class ConsoleApiError extends Error {
  override readonly name = 'ConsoleApiError';

  constructor(
    /** The HTTP status, 0 when no answer came. */
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    /** One line per problem: the `invalid` error's problems or the envelope's `data.errors`. */
    readonly problems: readonly string[] = [],
  ) {
    super(message);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A problem as a line: a string as it is, an object as its field and message. */
function problemLine(problem: unknown): string {
  if (typeof problem === 'string') return problem;
  if (isRecord(problem) && typeof problem['message'] === 'string') {
    const field = problem['path'] ?? problem['field'];
    const where = Array.isArray(field) ? field.join('.') : typeof field === 'string' ? field : '';
    return where === '' ? problem['message'] : `${where}: ${problem['message']}`;
  }
  return JSON.stringify(problem);
}

function problemLines(problems: unknown): string[] {
  return Array.isArray(problems) ? problems.map(problemLine) : [];
}

/** The error a failed answer stands for; `body` is the parsed JSON body, undefined when it was not JSON. */
export function errorFromAnswer(httpStatus: number, body: unknown): ConsoleApiError {
  if (isRecord(body) && isRecord(body['error'])) {
    const { code, message, problems } = body['error'];
    return new ConsoleApiError(
      httpStatus,
      typeof code === 'string' ? code : 'error',
      typeof message === 'string' ? message : `The server answered HTTP ${httpStatus}`,
      problemLines(problems),
    );
  }
  if (isRecord(body) && isRecord(body['status'])) {
    const { code, message } = body['status'];
    const errors = isRecord(body['data']) ? body['data']['errors'] : undefined;
    return new ConsoleApiError(
      httpStatus,
      typeof code === 'string' ? code : 'error',
      typeof message === 'string' ? message : 'The request failed',
      problemLines(errors),
    );
  }
  return new ConsoleApiError(httpStatus, 'unexpected_answer', `The server answered HTTP ${httpStatus}`);
}

/** Whether the session has ended (or never was): the user has to sign in. */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof ConsoleApiError && error.httpStatus === 401 && error.code === 'unauthenticated';
}

/** Whether the call needs the password entered again before it is retried. */
export function needsReauthentication(error: unknown): boolean {
  return (
    error instanceof ConsoleApiError && error.httpStatus === 403 && error.code === 'reauthentication_required'
  );
}

/** Whether the API found no such transaction for the account: an unknown reference, or another's. */
export function isUnknownReference(error: unknown): boolean {
  return (
    error instanceof ConsoleApiError &&
    error.code === '3000' &&
    error.problems.includes("'reference is invalid'")
  );
}
