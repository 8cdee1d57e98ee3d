import type { Plugin } from 'vite';

/** The dictionaries themselves: their keys are words, not uses of words. */
const DICTIONARY = /[\\/]src[\\/]lib[\\/]i18n[\\/](zh|en)\w*\.ts$/;
/** A string that looks like a key, or a key's prefix before an expression (`store.status.${s}`, 'x.' + n). */
const KEY_LIKE = /["'`]([A-Za-z]\w*(?:\.\w+)*\.?)(?=["'`]|\$\{)/g;

/** The keys of `keys` that `code` names in a string, or completes at run time from a named prefix. */
export function keysUsed(code: string, keys: ReadonlySet<string>): string[] {
  const used: string[] = [];
  for (const [, text] of code.matchAll(KEY_LIKE)) {
    if (!text) continue;
    if (text.endsWith('.') ? [...keys].some((k) => k.startsWith(text)) : keys.has(text)) used.push(text);
  }
  return used;
}

/**
 * Fails the build when the home page's first load (the entry chunk and the chunks it imports
 * statically) uses a word of the pages' dictionaries (src/lib/i18n/zhPages.ts), which come later
 * with the page chunks: the first screen would show the key itself. Scans the string literals of
 * every module of the first load except the dictionaries for a page key, or for the prefix of one
 * that is completed at run time.
 */
export function firstLoadWords(pageKeys: readonly string[]): Plugin {
  const keys = new Set(pageKeys);
  return {
    name: 'first-load-words',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
      const first = new Set<string>();
      const walk = (file: string) => {
        const chunk = chunks.get(file);
        if (!chunk || first.has(file)) return;
        first.add(file);
        chunk.imports.forEach(walk);
      };
      for (const chunk of chunks.values()) if (chunk.isEntry) walk(chunk.fileName);

      const found: string[] = [];
      for (const file of first) {
        for (const [id, module] of Object.entries(chunks.get(file)?.modules ?? {})) {
          if (DICTIONARY.test(id) || !module.code) continue;
          for (const text of keysUsed(module.code, keys)) found.push(`${text} (${id.replace(/.*[\\/]src[\\/]/, 'src/')})`);
        }
      }
      if (found.length > 0) {
        this.error(
          `the first load uses words of src/lib/i18n/zhPages.ts, which come only with the page chunks; ` +
            `move them to zh.ts and en.ts, or the code that uses them out of the first load:\n  ${[...new Set(found)].join('\n  ')}`,
        );
      }
    },
  };
}
