// Writes a value as XML the way a generator that honours OpenAPI's `xml` object would, from the served
// document alone: the root element named by the schema's `xml.name`, each field an element of its name,
// a list wrapped (or not) as its `xml.wrapped` says with entries named by `items.xml.name`, scalars as
// text. Tests compare what it writes with the service's own XML, so the document's XML description is
// checked against the wire, and send what it writes, so a generated XML request is known to work.

export interface OpenApiDocument {
  readonly components: { readonly schemas: Readonly<Record<string, Schema>> };
}

interface Schema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
  readonly anyOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly xml?: { readonly name?: string; readonly wrapped?: boolean };
}

// Written here, not taken from @topup/envelope: the writer stands for a generator that knows only the
// document and XML, so the comparison never checks the envelope's codec against itself.
const escapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
};

function target(document: OpenApiDocument, schema: Schema): Schema {
  if (schema.$ref === undefined) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const found = document.components.schemas[name];
  if (found === undefined) throw new Error(`Expected the document to name the schema ${name}.`);
  return target(document, found);
}

/** The schema of a field, looked up in the object's properties or in any of its alternatives. */
function fieldSchema(document: OpenApiDocument, schema: Schema, field: string): Schema | undefined {
  const resolved = target(document, schema);
  const own = resolved.properties?.[field];
  if (own !== undefined) return own;
  for (const alternative of [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) {
    const found = fieldSchema(document, alternative, field);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The element name of a schema: its own `xml.name`, else that of the schema it refers to, else `fallback`. */
function elementName(document: OpenApiDocument, schema: Schema, fallback: string): string {
  return schema.xml?.name ?? target(document, schema).xml?.name ?? fallback;
}

function element(document: OpenApiDocument, schema: Schema, value: unknown, name: string): string {
  if (Array.isArray(value)) {
    const resolved = target(document, schema);
    const items = resolved.items;
    if (items === undefined) throw new Error(`Expected <${name}> to be documented as a list.`);
    const entries = value
      .map((entry) => element(document, items, entry, elementName(document, items, name)))
      .join('');
    return resolved.xml?.wrapped === true ? `<${name}>${entries}</${name}>` : entries;
  }
  if (typeof value === 'object' && value !== null) {
    const children = Object.entries(value).map(([field, child]) => {
      const property = fieldSchema(document, schema, field);
      if (property === undefined) throw new Error(`Expected <${name}> to document the field ${field}.`);
      return element(document, property, child, elementName(document, property, field));
    });
    return `<${name}>${children.join('')}</${name}>`;
  }
  const text = String(value).replace(/[&<>"'\r]/g, (char) => escapes[char] ?? char);
  return `<${name}>${text}</${name}>`;
}

/** `value` as the XML document the named schema describes, with the XML declaration the service writes. */
export function xmlFromDocument(document: OpenApiDocument, schemaName: string, value: unknown): string {
  const schema = { $ref: `#/components/schemas/${schemaName}` };
  const root = elementName(document, schema, schemaName);
  return `<?xml version="1.0" encoding="utf-8"?>${element(document, schema, value, root)}`;
}
