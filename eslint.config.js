// Lint rules: typescript-eslint recommended plus the layering rule from docs/architecture.md:
// cmd -> api -> controller -> runtime -> core; no layer imports one above it; and the habits of ADR 0035.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

const layer = (dir, forbidden) => ({
  files: [`${dir}/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: forbidden.map((f) => ({
          group: [`**/${f}/**`, `../${f}/*`, `../../${f}/*`],
          message: `${dir}/ must not import ${f}/ (layering: cmd -> api -> controller -> runtime -> core)`,
        })),
      },
    ],
  },
});

const layerPatterns = (dir, forbidden) =>
  forbidden.map((f) => ({
    group: [`**/${f}/**`, `../${f}/*`, `../../${f}/*`],
    message: `${dir}/ must not import ${f}/ (layering: cmd -> api -> controller -> runtime -> core)`,
  }));
const restrict = (files, patterns) => ({ files, rules: { "no-restricted-imports": ["error", { patterns }] } });
const RUNTIME_LAYER = layerPatterns("runtime", ["api", "console", "controller", "cmd"]);
const NOT_KUBERNETES = {
  group: ["**/kubernetes/**"],
  message: "runtime/local/ must not import runtime/kubernetes/ (shared code lives in runtime/)",
};
const NOT_LOCAL = { group: ["**/local/**"], message: "runtime/kubernetes/ must not import runtime/local/ (shared code lives in runtime/)" };
const SUB_ROOMS = ["exec", "egress", "stores", "pool", "nodes", "fork", "routes", "pod", "identity"];
const NOT_ASSEMBLY = {
  group: ["**/lifecycle/**", "**/kube-runtime.js"],
  message: "a runtime/kubernetes sub-room must not import lifecycle/ or kube-runtime.ts, which assemble it",
};

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
  {
    files: ["scripts/**/*.mjs", "bench/**/*.mjs", "*.js"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        setTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        Buffer: "readonly",
      },
    },
  },
  // Habits that keep the rooms small (issue 41, docs/architecture.md): no import circles, no
  // function over 80 lines and no file over 300 (blank lines and comments not counted) in product code.
  {
    files: ["{api,console,controller,runtime,core,cmd}/**/*.ts"],
    ignores: ["api/generated/**"],
    plugins: { "import-x": importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "max-lines": ["error", { max: 300, skipBlankLines: true, skipComments: true }],
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  layer("core", ["api", "console", "controller", "runtime", "cmd"]),
  layer("controller", ["api", "console", "cmd"]),
  layer("api", ["console", "cmd"]),
  // The web console (ADR 0039) stands beside api/: it reaches sandboxes through the controller only.
  layer("console", ["runtime", "cmd"]),
  // The console's page scripts run in the browser (ES modules, no Node).
  { files: ["console/static/**/*.js"], languageOptions: { sourceType: "module", globals: { ...globals.browser } } },
  // The runtime's rooms (docs/architecture.md). A later no-restricted-imports replaces an earlier one
  // for the files both match, so each block below carries the runtime layer rule and every rule of the
  // rooms around it.
  restrict(["runtime/**/*.ts"], RUNTIME_LAYER),
  // The two runtimes share runtime/*.ts and core/, never each other.
  restrict(["runtime/local/**/*.ts"], [...RUNTIME_LAYER, NOT_KUBERNETES]),
  restrict(["runtime/kubernetes/**/*.ts"], [...RUNTIME_LAYER, NOT_LOCAL]),
  // The Kubernetes runtime's sub-rooms serve lifecycle/ and kube-runtime.ts, which assemble them, and
  // never import those.
  restrict([`runtime/kubernetes/{${SUB_ROOMS.join(",")}}/**/*.ts`], [...RUNTIME_LAYER, NOT_LOCAL, NOT_ASSEMBLY]),
  // The pod room has no I/O, lint holds it (issue 41): runtime/kubernetes/pod/ is the pure pod shape and
  // every hangar.dev/* key. No node: module but node:crypto (a hash is no I/O), no @kubernetes/client-node
  // value (its types are fine) and no other runtime/kubernetes room (they do I/O); types from them are fine.
  restrict(
    ["runtime/kubernetes/pod/**/*.ts"],
    [
      ...RUNTIME_LAYER,
      NOT_LOCAL,
      NOT_ASSEMBLY,
      {
        regex: "^(node:(?!crypto$)|(fs|net|dns|dgram|http|http2|https|os|child_process|stream|tls|worker_threads)(/|$))",
        message: "runtime/kubernetes/pod/ has no I/O: no node: modules (but node:crypto)",
      },
      {
        group: ["@kubernetes/client-node"],
        allowTypeImports: true,
        message: "runtime/kubernetes/pod/ has no I/O: only types from @kubernetes/client-node",
      },
      {
        regex: "^\\.\\./(?!\\.\\./)",
        allowTypeImports: true,
        message: "runtime/kubernetes/pod/ has no I/O: no values from the other runtime/kubernetes rooms (types are fine)",
      },
    ],
  ),
  { files: ["scripts/**", "test/**", "bench/**"], rules: { "no-console": "off" } },
);
