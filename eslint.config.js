// @ts-check
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig([
  globalIgnores(["build/", "data/", "test-results/", "playwright-report/", "bench-results/", ".react-router/", "tests/tools/.tmp-*"]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      // Type information (the project's tsconfig) for the few rules below that need it.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "import-x": importX },
    settings: {
      // `~/…` is tsconfig's alias of app/: the resolver reads it from there.
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      // Modules depend one way (decision record 032). The rule does not count `import type`, which is
      // gone at run time; there are no type-only circles either.
      "import-x/no-cycle": "error",

      // Typed rules: only these few, about promises, where a slip is a real bug (a rejection nobody
      // handles, a lock or transaction not awaited). With type information a lint takes about the time
      // of `tsc` again; the rest of `recommendedTypeChecked` (no-unsafe-* on SQL rows and JSON answers,
      // only-throw-error against React Router's thrown responses) would be noise here.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",

      // A leading underscore marks what a signature or a destructuring must name but does not use.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // A `let` that closures read before its one assignment (a value known later in start-up) stays `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // Cairn's text rules match control characters on purpose (stripped from names, text and logs).
      "no-control-regex": "off",
    },
  },

  {
    files: ["app/**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat.recommended],
    rules: {
      // Cairn is not compiled by the React Compiler, whose rules these are; each flags a pattern Cairn
      // uses on purpose and that is right without it: a hook returning a ref beside values it renders
      // (refs), state reset when the router's navigation ends or its data comes (set-state-in-effect),
      // a layout effect setting an element's scrollTop (immutability).
      "react-hooks/refs": "off",
      "react-hooks/set-state-in-effect": "off",
      "react-hooks/immutability": "off",
    },
  },

  {
    // The HTTP host (app/host) stands above the app: only it and React Router's server entry use it.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/host/**", "app/entry.server.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^(~|\\.\\.?(/\\.\\.)*)/host/", message: "Domain modules and routes do not depend on the HTTP host (app/host)." }] }],
    },
  },

  {
    // Migrations run against the schema as it was when they were written, not today's `DB`:
    // Kysely<any> is Kysely's own way for them.
    files: ["migrations/**", "app/db/migrate.server.ts", "tests/support/migrations.ts", "tests/integration/*migration*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },

  {
    files: ["tests/**"],
    rules: {
      // Tests read JSON answers as they come and assert their shape.
      "@typescript-eslint/no-explicit-any": "off",
    },
  },

  {
    // Playwright reads a fixture's first parameter as a pattern of the fixtures it needs: `{}` is none.
    files: ["tests/e2e/**"],
    rules: { "no-empty-pattern": ["error", { allowObjectPatternsAsParameters: true }] },
  },
]);
