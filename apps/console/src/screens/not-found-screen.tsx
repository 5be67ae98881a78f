// What an unknown /console path shows.

import { Link } from '@tanstack/react-router';

export function NotFoundScreen() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no such page in the console. <Link to="/">Go to the start</Link>.
      </p>
    </>
  );
}
