// ESLint with the project's own config, for code linted as if it were a file that does not exist (lintText): the
// type-aware rules need the file in the TypeScript project, so only they are left out; every boundary rule stays.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const TYPE_AWARE = [
  '@typescript-eslint/no-floating-promises',
  '@typescript-eslint/no-misused-promises',
  '@typescript-eslint/await-thenable',
  '@typescript-eslint/return-await',
  '@typescript-eslint/restrict-template-expressions',
];

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export function projectEslint(): ESLint {
  return new ESLint({
    cwd: projectRoot,
    overrideConfig: {
      files: ['**/*.ts'],
      languageOptions: { parserOptions: { projectService: false } },
      rules: Object.fromEntries(TYPE_AWARE.map((rule) => [rule, 'off'])),
    },
  });
}
