// ESLint (flat config): TypeScript, React, hooks and accessibility rules, run by `npm test` and CI.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "public/build/", "node_modules/", ".cache/", "data/", "test-results/", "docs/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: { react: { version: "detect" } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      // The two classic hook rules; the React Compiler's stricter set does not apply (no compiler here).
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      ...jsxA11y.flatConfigs.recommended.rules,
      "react/prop-types": "off",
      // Copy is written with plain apostrophes and quotes; React escapes text itself.
      "react/no-unescaped-entities": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // `import { z }` keeps every locale of zod in the browser bundle (about 90 KB gzip per form page).
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportDeclaration[importKind!='type'][source.value='zod'] > ImportSpecifier[importKind!='type'][imported.name='z']",
          message: 'Use `import * as z from "zod"`: the named import ships all of zod to the browser.',
        },
      ],
    },
  },
  {
    // Test fixtures named use* (useBrowser, useTestDatabase) are vitest hooks, not React hooks.
    files: ["tests/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
);
