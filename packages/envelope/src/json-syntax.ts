// A strict JSON reader for bodies we did not write. `JSON.parse` cannot serve here: it keeps the last
// of repeated keys silently, recurses without a bound, and turns every number into a double before we
// can see its text (a balance of `12345678901234567.89` would come back changed). This reader rejects
// repeated keys, stops at a depth and a value count, and hands each number token's text to the caller.

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
}

export interface JsonReadOptions {
  /** Deepest nesting of objects and arrays; the top-level object is depth 1. */
  readonly maxDepth: number;
  /** Most values (scalars, objects, arrays) in the document. */
  readonly maxValues: number;
  /** What a number token becomes, given its exact text. */
  readonly number: (source: string) => unknown;
}

const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The value of a JSON text. Objects are plain objects whose keys are all own properties (a `__proto__`
 * key is data, not a prototype). Throws `JsonSyntaxError` naming the position of the first problem.
 */
export function readJson(text: string, options: JsonReadOptions): unknown {
  const reader = new JsonReader(text, options);
  reader.skipWhitespace();
  const value = reader.readValue(1);
  reader.skipWhitespace();
  if (!reader.atEnd()) reader.fail('the end of the text');
  return value;
}

class JsonReader {
  private position = 0;
  private values = 0;

  constructor(
    private readonly text: string,
    private readonly options: JsonReadOptions,
  ) {}

  atEnd(): boolean {
    return this.position >= this.text.length;
  }

  fail(expected: string): never {
    const found = this.atEnd()
      ? 'the end of the text'
      : JSON.stringify(this.text.slice(this.position, this.position + 12));
    throw new JsonSyntaxError(`Expected ${expected} at position ${this.position}, received ${found}.`);
  }

  skipWhitespace(): void {
    for (;;) {
      const char = this.text[this.position];
      if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return;
      this.position += 1;
    }
  }

  readValue(depth: number): unknown {
    this.values += 1;
    if (this.values > this.options.maxValues) {
      throw new JsonSyntaxError(`Expected at most ${this.options.maxValues} values, received more.`);
    }
    const char = this.text[this.position];
    if (char === '{' || char === '[') {
      if (depth > this.options.maxDepth) {
        throw new JsonSyntaxError(
          `Expected nesting at most ${this.options.maxDepth} deep, received deeper nesting at position ${this.position}.`,
        );
      }
      return char === '{' ? this.readObject(depth) : this.readArray(depth);
    }
    if (char === '"') return this.readString();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.readNumber();
    if (this.text.startsWith('true', this.position)) return this.literal(4, true);
    if (this.text.startsWith('false', this.position)) return this.literal(5, false);
    if (this.text.startsWith('null', this.position)) return this.literal(4, null);
    return this.fail('a JSON value');
  }

  private literal(length: number, value: boolean | null): boolean | null {
    this.position += length;
    return value;
  }

  private readObject(depth: number): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    this.position += 1;
    this.skipWhitespace();
    if (this.text[this.position] === '}') {
      this.position += 1;
      return object;
    }
    for (;;) {
      if (this.text[this.position] !== '"') this.fail('a key in double quotes');
      const keyPosition = this.position;
      const key = this.readString();
      if (Object.hasOwn(object, key)) {
        throw new JsonSyntaxError(
          `Expected each key once per object, received ${JSON.stringify(key)} again at position ${keyPosition}.`,
        );
      }
      this.skipWhitespace();
      if (this.text[this.position] !== ':') this.fail('":"');
      this.position += 1;
      this.skipWhitespace();
      const value = this.readValue(depth + 1);
      // Assigning `__proto__` would set the prototype; it is defined as data, as any other key.
      if (key === '__proto__') {
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      } else object[key] = value;
      this.skipWhitespace();
      const next = this.text[this.position];
      this.position += 1;
      if (next === '}') return object;
      if (next !== ',') {
        this.position -= 1;
        this.fail('"," or "}"');
      }
      this.skipWhitespace();
    }
  }

  private readArray(depth: number): unknown[] {
    const items: unknown[] = [];
    this.position += 1;
    this.skipWhitespace();
    if (this.text[this.position] === ']') {
      this.position += 1;
      return items;
    }
    for (;;) {
      items.push(this.readValue(depth + 1));
      this.skipWhitespace();
      const next = this.text[this.position];
      this.position += 1;
      if (next === ']') return items;
      if (next !== ',') {
        this.position -= 1;
        this.fail('"," or "]"');
      }
      this.skipWhitespace();
    }
  }

  private readString(): string {
    const start = this.position;
    let index = start + 1;
    let escaped = false;
    for (;;) {
      const code = this.text.charCodeAt(index);
      if (Number.isNaN(code)) {
        this.position = index;
        this.fail('a closing double quote');
      }
      if (code === 0x22) break;
      if (code < 0x20) {
        this.position = index;
        this.fail('no raw control character inside a string');
      }
      if (code === 0x5c) {
        escaped = true;
        index += 2;
      } else index += 1;
    }
    this.position = index + 1;
    // Without escapes the token's inside is the string itself.
    if (!escaped) return this.text.slice(start + 1, index);
    // The token is delimited; JSON.parse decodes its escapes exactly as the standard says.
    try {
      return JSON.parse(this.text.slice(start, this.position)) as string;
    } catch {
      this.position = start;
      return this.fail('a string with valid escapes');
    }
  }

  private readNumber(): unknown {
    numberToken.lastIndex = this.position;
    const match = numberToken.exec(this.text);
    if (match === null) return this.fail('a number');
    this.position += match[0].length;
    return this.options.number(match[0]);
  }
}
