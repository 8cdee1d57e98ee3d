/**
 * Inline icons (no icon fonts or CDNs: everything ships in the bundle). Two modules behind this
 * one: a module the entry uses goes into the entry whole, so the first screen's icons are apart
 * from the ones only other pages show (frontend/README.md "Chunks"). An icon of IconsPages.tsx
 * shown on the home page, its side navigation or the layout would bring all of them into the
 * first load: move that icon to IconsFirstScreen.tsx instead.
 */
export * from './IconsFirstScreen';
export * from './IconsPages';
