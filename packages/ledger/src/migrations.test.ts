import { describe, expect, it } from 'vitest';
import { migrations } from './migrations.js';

describe('the migrations', () => {
  it('have ids of the form NNNN_name', () => {
    expect(
      migrations.map((migration) => migration.id).filter((id) => !/^\d{4}_[a-z0-9_]+$/.test(id)),
    ).toEqual([]);
  });

  it('have unique ids whose numbers strictly ascend in the order they apply', () => {
    const ids = migrations.map((migration) => migration.id);
    expect(new Set(ids).size).toBe(ids.length);
    const numbers = ids.map((id) => Number(id.slice(0, 4)));
    // Two branches each adding "0003_…" would give unique ids but one number twice: refused too.
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    expect(ids).toEqual([...ids].sort());
  });

  it('each have at least one statement', () => {
    expect(migrations.filter((migration) => migration.statements.length === 0)).toEqual([]);
  });
});
