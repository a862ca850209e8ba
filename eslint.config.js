// Lint rules: typescript-eslint recommended plus the layering rule from docs/architecture.md:
// api -> controller -> runtime -> core; no layer imports one above it.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const layer = (dir, forbidden) => ({
  files: [`${dir}/**/*.ts`],
  rules: {
    "no-restricted-imports": ["error", {
      patterns: forbidden.map((f) => ({ group: [`**/${f}/**`, `../${f}/*`, `../../${f}/*`], message: `${dir}/ must not import ${f}/ (layering: cmd -> api -> controller -> runtime -> core)` })),
    }],
  },
});

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", ".venv/**", "api/generated/**", ".build/**", ".cluster/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
      eqeqeq: ["error", "smart"],
      // Validation deliberately matches NUL and other control characters in user input.
      "no-control-regex": "off",
    },
  },
  { files: ["scripts/**/*.mjs", "bench/**/*.mjs", "*.js"], languageOptions: { globals: { process: "readonly", console: "readonly", setTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", Buffer: "readonly" } } },
  layer("core", ["api", "controller", "runtime", "cmd"]),
  layer("runtime", ["api", "controller", "cmd"]),
  layer("controller", ["api", "cmd"]),
  layer("api", ["cmd"]),
  { files: ["scripts/**", "test/**", "bench/**"], rules: { "no-console": "off" } },
);
