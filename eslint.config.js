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
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // One Zod for every schema: zod/mini through our one module (app/domain/zod.ts), which also gives
      // rules without a message plain words. Schemas stay on the server; the browser gets derived rules.
      "no-restricted-imports": [
        "error",
        {
          paths: ["zod", "zod/v4", "zod/mini", "zod/v4-mini", "zod/v3"].map((name) => ({
            name,
            message:
              'Use our Zod: `import * as z from "~/domain/zod"` (zod/mini, with plain-English default messages).',
          })),
        },
      ],
    },
  },
  {
    // The one module that imports Zod itself.
    files: ["app/domain/zod.ts"],
    rules: { "no-restricted-imports": "off" },
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
