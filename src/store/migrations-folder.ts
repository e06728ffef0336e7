// Where a dialect's migrations are: migrations/<dialect>/ beside the nearest package.json above this file, so it is
// found from any working directory, and from src/ (tsx) or dist/src/ (compiled) alike.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const found = new Map<string, string>();

export function migrationsFolder(dialect: 'sqlite' | 'postgres'): string {
  let folder = found.get(dialect);
  if (folder) return folder;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`migrations: no package.json above ${dir}; pass migrationsFolder`);
    dir = parent;
  }
  folder = path.join(dir, 'migrations', dialect);
  found.set(dialect, folder);
  return folder;
}
