// The house rules of docs/ARCHITECTURE.md as ESLint rules (eslint.config.js turns them on per
// folder). Each resolves a relative import against the importing file, so `../../auth/x`,
// `../features/auth/x` and a dynamic `import()` or `vi.mock()` of the same file are one case.
import path from 'node:path';

const WEB_FEATURES = 'apps/web/src/features/';
const SERVER_MODULES = 'apps/server/src/modules/';
const REPOSITORY_FILE = /\.repository(\.[cm]?[jt]sx?)?$/;

/** The imported file's path from the repository root (forward slashes), or null for packages. */
function importedPath(context, source) {
  if (typeof source !== 'string' || !source.startsWith('.')) return null;
  const from = path.dirname(context.physicalFilename ?? context.filename);
  return toPosix(path.relative(context.cwd, path.resolve(from, source)));
}

/** The importing file's path from the repository root. */
function ownPath(context) {
  return toPosix(path.relative(context.cwd, context.physicalFilename ?? context.filename));
}

function toPosix(p) {
  return p.split(path.sep).join('/');
}

/** The folder right under `prefix` that `file` lives in (`features/<name>/…` → name). */
function folderUnder(prefix, file) {
  if (!file.startsWith(prefix)) return null;
  const rest = file.slice(prefix.length);
  const slash = rest.indexOf('/');
  return slash > 0 ? rest.slice(0, slash) : null;
}

/** Calls `check(node, source)` for every static, dynamic, re-export, type and mock import. */
function onImports(check) {
  const literal = (node) => (node && node.type === 'Literal' && typeof node.value === 'string' ? node : null);
  return {
    ImportDeclaration: (node) => check(node.source, node.source.value),
    ExportAllDeclaration: (node) => check(node.source, node.source.value),
    ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
    ImportExpression: (node) => literal(node.source) && check(node.source, node.source.value),
    TSImportType: (node) => {
      // typescript-eslint 8.x: `source` (newer) or `argument` (a TSLiteralType, older).
      const arg =
        'source' in node
          ? literal(node.source)
          : node.argument?.type === 'TSLiteralType'
            ? literal(node.argument.literal)
            : null;
      if (arg) check(arg, arg.value);
    },
    CallExpression: (node) => {
      const callee = node.callee;
      const isMock =
        callee.type === 'MemberExpression' &&
        callee.object.type === 'Identifier' &&
        callee.object.name === 'vi' &&
        callee.property.type === 'Identifier' &&
        ['mock', 'doMock', 'importActual', 'importMock'].includes(callee.property.name);
      const isRequire = callee.type === 'Identifier' && callee.name === 'require';
      const arg = literal(node.arguments[0]);
      if ((isMock || isRequire) && arg) check(arg, arg.value);
    },
  };
}

const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    docs: { description: 'A web feature never imports another feature (apps/web/src/features/<name>/).' },
    messages: {
      crossFeature:
        "Feature '{{own}}' imports feature '{{other}}'. Move the shared piece into lib/ or components/, or pass it in from app/routes/ (props, render props).",
    },
    schema: [],
  },
  create(context) {
    const own = folderUnder(WEB_FEATURES, ownPath(context));
    if (!own) return {};
    return onImports((node, source) => {
      const target = importedPath(context, source);
      const other = target && folderUnder(WEB_FEATURES, target + '/');
      if (other && other !== own) context.report({ node, messageId: 'crossFeature', data: { own, other } });
    });
  },
};

const noFeatureImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Shared web code (lib/, components/) never imports a feature.' },
    messages: {
      featureImport:
        "Shared code imports feature '{{other}}'. lib/ and components/ sit below the features: move the piece here, or let the feature pass it in.",
    },
    schema: [],
  },
  create(context) {
    return onImports((node, source) => {
      const target = importedPath(context, source);
      const other = target && folderUnder(WEB_FEATURES, target + '/');
      if (other) context.report({ node, messageId: 'featureImport', data: { other } });
    });
  },
};

const noForeignRepositoryImports = {
  meta: {
    type: 'problem',
    docs: { description: "A server module never imports another module's repository." },
    messages: {
      foreignRepository:
        "Module '{{own}}' imports the repository of module '{{other}}'. Use what '{{other}}' exposes in its service or its index.ts.",
    },
    schema: [],
  },
  create(context) {
    const own = folderUnder(SERVER_MODULES, ownPath(context));
    if (!own) return {};
    return onImports((node, source) => {
      const target = importedPath(context, source);
      const other = target && folderUnder(SERVER_MODULES, target);
      if (other && other !== own && REPOSITORY_FILE.test(target))
        context.report({ node, messageId: 'foreignRepository', data: { own, other } });
    });
  },
};

export default {
  meta: { name: 'reverie-boundaries' },
  rules: {
    'no-cross-feature-imports': noCrossFeatureImports,
    'no-feature-imports': noFeatureImports,
    'no-foreign-repository-imports': noForeignRepositoryImports,
  },
};
