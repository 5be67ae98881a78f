// Awaiting the error of a call that must fail, so tests can inspect it whole.

/** The reason `promise` rejects with; throws when it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to reject, received a result.');
}
