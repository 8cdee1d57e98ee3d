// @ts-check
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = ['home', 'menu', 'product', 'search', 'store', 'location', 'account', 'address', 'cart', 'checkout', 'order', 'payment', 'tablet', 'member', 'coupon'];
const SHARED = ['./src/lib', './src/components', './src/hooks', './src/utils', './src/types'];

/**
 * Import zones (bulletproof-react): a feature imports no other feature and not `app`; shared folders
 * import no feature and not `app`. Composition happens in app/routes.
 */
const zones = [
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature may not import another feature: compose them in src/app.',
  })),
  { target: './src/features', from: './src/app', message: 'Features may not import the app layer.' },
  ...SHARED.map((dir) => ({
    target: dir,
    from: ['./src/features', './src/app'],
    message: 'Shared code (lib, components, hooks, utils, types) may not import features or the app.',
  })),
];

export default tseslint.config(
  // schema.gen.ts is openapi-typescript's output (npm run gen:api), checked only by the compiler.
  { ignores: ['dist', 'node_modules', 'e2e/artifacts', 'public', 'src/lib/api/schema.gen.ts'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.strict, ...tseslint.configs.stylistic],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
    },
    plugins: {
      import: importPlugin,
      'react-hooks': reactHooks,
    },
    settings: {
      'import/resolver': {
        typescript: { project: './tsconfig.app.json' },
        node: true,
      },
    },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import/no-restricted-paths': ['error', { zones }],
      'import/no-cycle': ['error', { maxDepth: 4 }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-definitions': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['*.{js,ts}', 'e2e/**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      // e2e callbacks run in the page as well.
      globals: { ...globals.node, ...globals.browser },
    },
  },
  {
    files: ['vite.config.ts', 'scripts/*.ts'],
    extends: [...tseslint.configs.recommended],
  },
);
