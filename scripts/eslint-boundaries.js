// The house rules of docs/ARCHITECTURE.md as ESLint rules (eslint.config.js turns them on per
// folder). Each resolves a relative import against the importing file, so `../../auth/x`,
// `../features/auth/x` and a dynamic `import()` or `vi.mock()` of the same file are one case.
import path from 'node:path';

const WEB_FEATURES = 'apps/web/src/features/';
const WEB_APP = 'apps/web/src/app/';
const SERVER_SRC = 'apps/server/src/';
const SERVER_MODULES = 'apps/server/src/modules/';
const REPOSITORY_FILE = /\.repository(\.[cm]?[jt]sx?)?$/;
const MODULE_DOOR = /^index(\.[cm]?[jt]s)?$/;
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;
const SQL_PACKAGE = /^drizzle-orm(\/|$)/;
// The schema and the prepared statements are SQL by another name: importing their values
// outside the repositories would let a service build queries again.
const SQL_FILES = /^apps\/server\/src\/db\/(schema|prepared)(\.[cm]?[jt]s)?$/;

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

/** True when `target` is exactly the folder `prefix` or a file inside it. */
function inside(prefix, target) {
  return target === prefix.slice(0, -1) || target.startsWith(prefix);
}

/**
 * A rule on relative imports: `scope(file)` says what the importing file is (null: the rule
 * does not apply to it); `violation(target, own)` gives the message's data for a forbidden
 * import of `target`, or null.
 */
function importRule({ description, messageId, message, scope = () => ({}), violation }) {
  return {
    meta: { type: 'problem', docs: { description }, messages: { [messageId]: message }, schema: [] },
    create(context) {
      const own = scope(ownPath(context));
      if (!own) return {};
      return onImports((node, source) => {
        const target = importedPath(context, source);
        const data = target && violation(target, own);
        if (data) context.report({ node, messageId, data });
      });
    },
  };
}

const noCrossFeatureImports = importRule({
  description: 'A web feature never imports another feature (apps/web/src/features/<name>/).',
  messageId: 'crossFeature',
  message:
    "Feature '{{own}}' imports feature '{{other}}'. Move the shared piece into lib/ or components/, or pass it in from app/routes/ (props, render props).",
  scope: (file) => folderUnder(WEB_FEATURES, file),
  violation: (target, own) => {
    const other = folderUnder(WEB_FEATURES, target + '/');
    return other && other !== own ? { own, other } : null;
  },
});

const noFeatureImports = importRule({
  description: 'Shared web code (lib/, components/) never imports a feature.',
  messageId: 'featureImport',
  message:
    "Shared code imports feature '{{other}}'. lib/ and components/ sit below the features: move the piece here, or let the feature pass it in.",
  violation: (target) => {
    const other = folderUnder(WEB_FEATURES, target + '/');
    return other ? { other } : null;
  },
});

const noForeignRepositoryImports = importRule({
  description: "A server module never imports another module's repository.",
  messageId: 'foreignRepository',
  message:
    "Module '{{own}}' imports the repository of module '{{other}}'. Use what '{{other}}' exposes in its service or its index.ts.",
  scope: (file) => folderUnder(SERVER_MODULES, file),
  violation: (target, own) => {
    const other = folderUnder(SERVER_MODULES, target);
    return other && other !== own && REPOSITORY_FILE.test(target) ? { own, other } : null;
  },
});

const moduleImportsThroughIndex = importRule({
  description:
    "A server module imports another module only through its door, '../<name>/index.js' (covers no-foreign-repository-imports).",
  messageId: 'notThroughIndex',
  message:
    "Module '{{own}}' imports '{{file}}' of module '{{other}}'. Import '../{{other}}/index.js' only; if what you need is not there, '{{other}}' adds it to its public API.",
  scope: (file) => folderUnder(SERVER_MODULES, file),
  violation: (target, own) => {
    const other = folderUnder(SERVER_MODULES, `${target}/`);
    if (!other || other === own) return null;
    const file = target.slice(SERVER_MODULES.length + other.length + 1);
    return MODULE_DOOR.test(file) ? null : { own, other, file };
  },
});

const noModuleImports = importRule({
  description: "The server's db/, lib/, plugins/ and providers/ never import a module (apps/server/src/modules/).",
  messageId: 'moduleImport',
  message:
    "'{{layer}}/' imports module '{{other}}'. db/, lib/, plugins/ and providers/ sit below the modules: move the piece down here, or let the module pass it in.",
  scope: (file) => {
    const layer = folderUnder(SERVER_SRC, file);
    return ['db', 'lib', 'plugins', 'providers'].includes(layer) ? layer : null;
  },
  violation: (target, layer) =>
    inside(SERVER_MODULES, target) ? { layer, other: folderUnder(SERVER_MODULES, target) ?? 'modules' } : null,
});

/** Whether the server file is allowed SQL: a repository, db/ itself, or a test. */
function mayHoldSql(file) {
  return (
    !file.startsWith(SERVER_SRC) ||
    file.startsWith(`${SERVER_SRC}db/`) ||
    REPOSITORY_FILE.test(file) ||
    TEST_FILE.test(file)
  );
}

const noSqlOutsideRepositories = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Only repositories (*.repository.ts) and db/ hold SQL and know the tables: elsewhere in apps/server/src (tests aside) no import of drizzle-orm, db/schema or db/prepared, types included.',
    },
    messages: {
      sqlOutside:
        "'{{source}}' is the database's own (SQL, tables, their types), which lives in a *.repository.ts (or db/). Call a repository function here, and take a row's type from the module's repository or index.ts.",
    },
    schema: [],
  },
  create(context) {
    const file = ownPath(context);
    if (mayHoldSql(file)) return {};
    return onImports((node, source) => {
      if (typeof source !== 'string') return;
      const target = importedPath(context, source);
      if (SQL_PACKAGE.test(source) || (target !== null && SQL_FILES.test(target)))
        context.report({ node, messageId: 'sqlOutside', data: { source } });
    });
  },
};

const noAppImports = importRule({
  description: 'A web feature never imports the app shell (apps/web/src/app/).',
  messageId: 'appImport',
  message:
    "Feature '{{own}}' imports the app shell ('{{file}}'). app/ composes the features, not the other way round: move the piece into lib/ or components/, or let app/ pass it in.",
  scope: (file) => folderUnder(WEB_FEATURES, file),
  violation: (target, own) => (inside(WEB_APP, target) ? { own, file: target.slice(WEB_APP.length) || '.' } : null),
});

export default {
  meta: { name: 'reverie-boundaries' },
  rules: {
    'no-cross-feature-imports': noCrossFeatureImports,
    'no-feature-imports': noFeatureImports,
    'no-foreign-repository-imports': noForeignRepositoryImports,
    'module-imports-through-index': moduleImportsThroughIndex,
    'no-module-imports': noModuleImports,
    'no-sql-outside-repositories': noSqlOutsideRepositories,
    'no-app-imports': noAppImports,
  },
};
