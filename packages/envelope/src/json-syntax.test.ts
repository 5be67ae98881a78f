import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, readJson } from './json-syntax.js';

const options = { maxDepth: 8, maxValues: 10_000, number: (source: string) => source };

// A small deterministic generator, so a failure names the seed that produced it.
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const pieces = ['a', 'Z', ' ', 'é', '€', '😀', '\\', '"', '\n', '\t', '\u0001', '\u2028', '__proto__', '/'];

function textOf(random: () => number): string {
  let text = '';
  const length = Math.floor(random() * 6);
  for (let index = 0; index < length; index += 1) text += pieces[Math.floor(random() * pieces.length)] ?? '';
  return text;
}

function valueOf(random: () => number, depth: number): unknown {
  const pick = Math.floor(random() * (depth > 3 ? 4 : 6));
  if (pick === 0) return textOf(random);
  if (pick === 1) return String(Math.floor(random() * 1e6) / 100);
  if (pick === 2) return random() < 0.5;
  if (pick === 3) return null;
  if (pick === 4) return Array.from({ length: Math.floor(random() * 4) }, () => valueOf(random, depth + 1));
  const object: Record<string, unknown> = {};
  const size = Math.floor(random() * 4);
  for (let index = 0; index < size; index += 1)
    object[`${textOf(random)}${index}`] = valueOf(random, depth + 1);
  return object;
}

describe('readJson', () => {
  it('reads every generated document as JSON.parse does, numbers kept as their text', () => {
    for (let seed = 1; seed <= 2_000; seed += 1) {
      const random = randomOf(seed);
      const text = JSON.stringify({ value: valueOf(random, 1), escaped: textOf(random) });
      const expected = JSON.parse(text, (_key, value: unknown) =>
        typeof value === 'number' ? String(value) : value,
      ) as unknown;
      expect(readJson(text, options), `seed ${seed}: ${text}`).toEqual(expected);
    }
  });

  it('reads a string with escapes and one without to the same characters', () => {
    expect(readJson('["a\\u00e9\\n\\"", "aé\\n\\""]', options)).toEqual(['aé\n"', 'aé\n"']);
  });

  it('keeps a __proto__ key as an own data property, in its place among the keys', () => {
    const value = readJson('{"a":1,"__proto__":{"polluted":true},"b":2}', options) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['a', '__proto__', 'b']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a key repeated in one object, naming it and where it is, __proto__ included', () => {
    expect(() => readJson('{"a":1,"b":{"a":2},"a":3}', options)).toThrow(
      new JsonSyntaxError('Expected each key once per object, received "a" again at position 19.'),
    );
    expect(() => readJson('{"__proto__":1,"__proto__":2}', options)).toThrow(
      /"__proto__" again at position 15/,
    );
    expect(() => readJson('{"\\u0061":1,"a":2}', options)).toThrow(/"a" again at position 12/);
  });

  it('refuses a raw control character and an unclosed string, with or without escapes before it', () => {
    expect(() => readJson('["a\u0001"]', options)).toThrow(
      /no raw control character inside a string at position 3/,
    );
    expect(() => readJson('["\\n\u0001"]', options)).toThrow(
      /no raw control character inside a string at position 4/,
    );
    expect(() => readJson('["abc', options)).toThrow(/a closing double quote at position 5/);
    expect(() => readJson('["a\\', options)).toThrow(/a closing double quote/);
    expect(() => readJson('["\\q"]', options)).toThrow(/a string with valid escapes at position 1/);
  });
});
