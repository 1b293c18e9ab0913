// One tool lints and formats: typescript-eslint (type-aware) plus @stylistic for layout (`npm run format` fixes it).
import js from '@eslint/js'
import stylistic from '@stylistic/eslint-plugin'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'bin/', 'reports/', '.stryker-tmp/', 'dashboard/src/api/schema.d.ts', 'clients/typescript/src/schema.ts', 'clients/typescript/dist/', 'clients/typescript/consumer/'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  stylistic.configs.customize({ indent: 2, quotes: 'single', semi: false, commaDangle: 'always-multiline', braceStyle: '1tbs' }),
  {
    languageOptions: {
      // The configuration files and the scripts (build, install, and the measurements that run against dist/) are in no
      // tsconfig: they are read with the default project, which typescript-eslint limits to 8 files unless told otherwise.
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js', 'stryker.config.mjs', '.dependency-cruiser.cjs', 'scripts/*.js'],
        maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16 }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@stylistic/max-len': ['error', { code: 130, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true }],
      '@stylistic/arrow-parens': ['error', 'always'],
    },
  },
  // Size limits for the source (tests and the generated API types, ignored above, are exempt): files and functions stay readable.
  {
    files: ['src/**/*.ts', 'widget/src/**/*.ts', 'dashboard/src/**/*.ts', 'clients/typescript/src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120 }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // json<T>() helpers: the type argument is how a test states what it expects to parse.
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
    },
  },
)
