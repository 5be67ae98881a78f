// How a failure reads on screen: the server's message and, for a refused request, each problem.

import { ConsoleApiError } from '../api/console-api-error';

export function ErrorNotice({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  const problems = error instanceof ConsoleApiError ? error.problems : [];
  return (
    <div role="alert" className="notice notice-error">
      <p>{message}</p>
      {problems.length > 0 && (
        <ul>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
