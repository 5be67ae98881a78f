// The server's resident memory as it reports it itself: `process_resident_memory_bytes` on /metrics.

/** Reads the gauge from `<url>/metrics`; undefined when the server does not publish it. */
export async function serverResidentBytes(url: string): Promise<number | undefined> {
  const response = await fetch(`${url}/metrics`);
  const text = await response.text();
  const value = /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text)?.[1];
  return value === undefined ? undefined : Number(value);
}
