// Reading the served OpenAPI document in tests: a schema with its references followed, whole.

/** `node` with every local `$ref` replaced by what it points at in `document`. */
export function resolved(document: object, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((item) => resolved(document, item));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], document);
    return resolved(document, target);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolved(document, value)]));
}
