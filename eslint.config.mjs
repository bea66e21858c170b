// Lint: type-aware rules that catch floating promises and misused async code.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/**", "reports/**", "test-results/**"] },
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-properties": [
        "error",
        { object: "it", property: "only", message: ".only is forbidden in committed tests" },
        { object: "describe", property: "only", message: ".only is forbidden in committed tests" },
        { object: "test", property: "only", message: ".only is forbidden in committed tests" },
      ],
    },
  },
  {
    files: ["**/*.mjs", "bin/**/*.js"],
    ...tseslint.configs.disableTypeChecked,
  },
);
