// Every time the console shows, in one zone: the service's (TZ), which the session names and the frame
// of every signed-in screen states, so a transaction's date (which the API gives in that zone) and the
// times beside it read alike, whatever zone the browser is in.

import { createContext, useContext, type ReactNode } from 'react';
import { formatInstant } from './time';

const TimeZoneContext = createContext<string | undefined>(undefined);

export function TimeZoneProvider({ zone, children }: { zone: string; children: ReactNode }) {
  return <TimeZoneContext value={zone}>{children}</TimeZoneContext>;
}

/** The zone times are shown in: the service's on a signed-in screen, the browser's elsewhere. */
export function useTimeZone(): string {
  return useContext(TimeZoneContext) ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** An ISO 8601 instant as `YYYY-MM-DD HH:MM:SS` in the service's zone; nothing for "". */
export function Instant({ iso }: { iso: string }) {
  const zone = useTimeZone();
  if (iso === '') return null;
  return <time dateTime={iso}>{formatInstant(iso, zone)}</time>;
}
