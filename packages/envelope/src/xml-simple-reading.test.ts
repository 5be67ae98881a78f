import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSimpleXml } from './xml-simple-reading.js';
import { readWithParser } from './xml-reading.js';

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9._-]{0,8}$/);
// Text with the characters that matter to a reader: markup, references (good and bad), whitespace.
const text = fc
  .array(
    fc.constantFrom(
      'a',
      'Z',
      '0',
      ' ',
      '\n',
      '\t',
      '>',
      '&amp;',
      '&lt;',
      '&#65;',
      '&#x1F600;',
      '&bogus;',
      '&',
      'é',
      '✓',
    ),
    { maxLength: 8 },
  )
  .map((pieces) => pieces.join(''));

interface Tree {
  name: string;
  children: readonly Tree[];
  text: string;
}

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.record({
    name,
    text,
    children: fc.oneof({ maxDepth: 3 }, fc.constant([]), fc.array(tie('node'), { maxLength: 4 })),
  }),
})).node;

const spacing = fc.constantFrom('', ' ', '\n  ', '\t');

function written(node: Tree, gap: string): string {
  const inner =
    node.children.length === 0
      ? node.text
      : node.children.map((child) => gap + written(child, gap)).join('') + gap;
  return `<${node.name}>${inner}</${node.name}>`;
}

const declaration = fc.constantFrom('', '<?xml version="1.0" encoding="utf-8"?>', '<?xml version="1.0"?>\n');

// Small edits that take a document out of the simple subset or break it: the full reader decides those.
const breaking = fc.constantFrom(
  (doc: string) => doc.replace('>', ' a="1">'),
  (doc: string) => doc.replace('</', '<!-- c --></'),
  (doc: string) => doc.replace(/<([A-Za-z_][^>]*)><\/\1>/, '<$1/>'),
  (doc: string) => doc.replace('</', '<![CDATA[x]]></'),
  (doc: string) => doc.replace(/<\/[^>]*>$/, ''),
  (doc: string) => `${doc}<extra></extra>`,
  (doc: string) => `text${doc}`,
  (doc: string) => doc.replace('>', '>\r\n'),
  (doc: string) => doc.replace(/<\/([^>]*)>/, '</$1x>'),
);
const unchanged = fc.constant((doc: string) => doc);
const mutation = fc.oneof({ arbitrary: unchanged, weight: 3 }, { arbitrary: breaking, weight: 2 });

describe('readSimpleXml', () => {
  it('reads every simple document as the full reader does, and leaves every other to it', () => {
    let read = 0;
    fc.assert(
      fc.property(declaration, tree, spacing, mutation, (head, root, gap, mutate) => {
        const document = mutate(head + written(root, gap));
        const simple = readSimpleXml(document);
        if (simple === undefined) return;
        read += 1;
        expect(readWithParser(document)).toEqual({ ok: true, root: simple });
      }),
      { numRuns: 3_000 },
    );
    // The comparison must have happened often enough to mean something.
    expect(read).toBeGreaterThan(300);
  });

  it('reads the requests callers send without the full reader', () => {
    const request =
      '<?xml version="1.0" encoding="utf-8"?><xml><mobile>254733000123</mobile><amount>50</amount>' +
      '<name>Otieno &amp; Sons</name><note></note></xml>';
    expect(readSimpleXml(request)).toEqual({
      name: 'xml',
      text: '',
      children: [
        { name: 'mobile', children: [], text: '254733000123' },
        { name: 'amount', children: [], text: '50' },
        { name: 'name', children: [], text: 'Otieno & Sons' },
        { name: 'note', children: [], text: '' },
      ],
    });
  });

  it('leaves attributes, comments, CDATA, self-closing tags, mixed content and bad references to the full reader', () => {
    for (const document of [
      '<xml a="1"><b>1</b></xml>',
      '<xml><!-- c --><b>1</b></xml>',
      '<xml><b><![CDATA[x]]></b></xml>',
      '<xml><b/></xml>',
      '<xml>text<b>1</b></xml>',
      '<xml><b>&bogus;</b></xml>',
      '<xml><b>1</c></xml>',
      '<xml><b>1</b></xml><xml></xml>',
    ]) {
      expect(readSimpleXml(document), document).toBeUndefined();
    }
  });
});
