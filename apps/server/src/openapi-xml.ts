// The XML form of the OpenAPI document's schemas, written with OpenAPI's `xml` object so that a generator
// which honours it reads and writes the service's XML: the root element of every request and answer is
// `xml`; a list is an element named by its field holding one child per entry, named by the singular
// (`<errors><error>…</error></errors>`, the envelope's `listEntryName`); everything else is an element
// named by its field, as JSON names it.

import { listEntryName } from '@topup/envelope';

export type JsonSchema = Record<string, unknown>;

const componentPrefix = '#/components/schemas/';

function componentName(schema: JsonSchema): string | undefined {
  const ref = schema.$ref;
  return typeof ref === 'string' && ref.startsWith(componentPrefix)
    ? ref.slice(componentPrefix.length)
    : undefined;
}

function subschemas(schema: JsonSchema): JsonSchema[] {
  const nested: unknown[] = [
    ...Object.values((schema.properties ?? {}) as Record<string, unknown>),
    schema.items,
    ...((schema.anyOf ?? []) as unknown[]),
    ...((schema.oneOf ?? []) as unknown[]),
    ...((schema.allOf ?? []) as unknown[]),
  ];
  return nested.filter((node): node is JsonSchema => typeof node === 'object' && node !== null);
}

/**
 * Adds the `xml` object to `schemas` (the document's named schemas, changed in place): `xml` as the
 * element name of each of `roots`, and every list wrapped, its entries named by the singular. A named
 * schema that is a list's entry takes the entry's name; it must then be used as a field only under that
 * same name, since a generator names a field's element after the schema it refers to.
 * @throws Error for a list field whose entry name the envelope does not know, or a schema named two ways.
 */
export function describeXml(schemas: Record<string, JsonSchema>, roots: readonly string[]): void {
  const entryNames = new Map<string, string>();
  const fieldNames = new Map<string, Set<string>>();

  function visit(schema: JsonSchema, where: string): void {
    for (const [field, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      const referred = componentName(property);
      if (referred !== undefined)
        fieldNames.set(referred, (fieldNames.get(referred) ?? new Set()).add(field));
      if (property.type !== 'array') continue;
      const entry = listEntryName(field);
      if (entry === undefined) {
        throw new Error(`Expected ${where}.${field}, a list, to have an XML entry name in @topup/envelope.`);
      }
      property.xml = { wrapped: true };
      const items = property.items as JsonSchema;
      const named = componentName(items);
      if (named === undefined) items.xml = { name: entry };
      else if ((entryNames.get(named) ?? entry) !== entry) {
        throw new Error(
          `Expected ${named} to be the entry of one kind of list, found ${entryNames.get(named)} and ${entry}.`,
        );
      } else entryNames.set(named, entry);
    }
    for (const nested of subschemas(schema)) visit(nested, where);
  }

  for (const [name, schema] of Object.entries(schemas)) visit(schema, name);
  for (const [name, entry] of entryNames) {
    const fields = [...(fieldNames.get(name) ?? [])].filter((field) => field !== entry);
    if (fields.length > 0) {
      throw new Error(
        `Expected ${name}, an XML list entry <${entry}>, not to be the field ${fields.join(', ')}.`,
      );
    }
    const schema = schemas[name];
    if (schema !== undefined) schema.xml = { name: entry };
  }
  for (const root of roots) {
    const schema = schemas[root];
    if (schema === undefined) throw new Error(`Expected a schema named ${root}.`);
    schema.xml = { name: 'xml' };
  }
}
