// TypeDoc plugin for `pnpm docs`: the documentation rule of the public API. Every function, class,
// interface and type alias a package exports has a doc comment with an `@example`; every exported
// constant has a doc comment. TypeDoc's own `notDocumented` check only looks at the package named in
// the root package.json, so the rule lives here; its findings are validation warnings, which
// `treatValidationWarningsAsErrors` (typedoc.json) turns into a failed run.
import { Application, ReflectionKind } from 'typedoc';

const needsExample =
  ReflectionKind.Function | ReflectionKind.Class | ReflectionKind.Interface | ReflectionKind.TypeAlias;
const needsComment = ReflectionKind.Variable | ReflectionKind.Enum;

function commentsOf(reflection) {
  return [reflection.comment, ...(reflection.signatures ?? []).map((signature) => signature.comment)].filter(
    (comment) => comment !== undefined,
  );
}

function problemOf(reflection) {
  const comments = commentsOf(reflection);
  if (comments.every((comment) => comment.summary.length === 0)) return 'has no doc comment';
  if (reflection.kindOf(needsExample) && !comments.some((comment) => comment.getTag('@example'))) {
    return 'has no @example in its doc comment';
  }
  return undefined;
}

/** Registers the rule with TypeDoc; TypeDoc calls it for each plugin listed in typedoc.json. */
export function load(app) {
  // With `entryPointStrategy: packages` TypeDoc validates each package and then the merged project:
  // each problem is reported once.
  const reported = new Set();
  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    for (const reflection of project.getReflectionsByKind(needsExample | needsComment)) {
      if (!reflection.parent?.kindOf(ReflectionKind.SomeModule | ReflectionKind.Project)) continue;
      const problem = problemOf(reflection);
      const symbol = project.getSymbolIdFromReflection(reflection);
      const name = symbol
        ? `${symbol.packageName}.${symbol.qualifiedName}`
        : reflection.getFriendlyFullName();
      if (problem === undefined || reported.has(name)) continue;
      reported.add(name);
      const kind = ReflectionKind.singularString(reflection.kind).toLowerCase();
      app.logger.validationWarning(`${name} (${kind}) ${problem}`);
    }
  });
}
