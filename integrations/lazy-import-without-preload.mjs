// Vite wraps every dynamic import() of the client build in its preload helper, which first adds
// <link rel="modulepreload"> and stylesheet links for the imported chunk's own imports, then imports it.
// Here the only lazy import is SweetAlert2, one chunk with no imports and no CSS, so there is nothing to
// preload, yet the helper (about 0.7 KB gzip) was part of the JavaScript every catalog page loads, whose
// budget is 75 KB (docs/design.md section 15). This swaps in a helper that only imports, and keeps the one
// thing of the original that this shop uses: a failed import (an old page after a deploy removed its
// chunks) announces `vite:preloadError`, on which ProgressBar.astro reloads the page (decision 146).
//
// Like the patches of Astro's runtime (astro-source-patch.mjs), the swap is guarded: it fails the build
// when Vite's helper no longer reads the way the replacement assumes (its name, its loader as first
// argument, its preload-error event), and when the client build never loaded the helper (Vite moved
// it, or the shop has no lazy import any more), rather than quietly keeping or breaking the old one.
const owner = 'integrations/lazy-import-without-preload.mjs';
const helperId = /^\0vite\/preload-helper\.js$/;
/** What this swap relies on in Vite's own helper (Vite 8: `getPreloadCode` in vite/dist/node). */
const expected = ['export const __vitePreload = function preload(baseModule, deps, importerUrl)', "new Event(\"vite:preloadError\""];

const helper = `export const __vitePreload = (load) =>
  load().catch((error) => {
    const event = new Event('vite:preloadError', { cancelable: true });
    event.payload = error;
    window.dispatchEvent(event);
    if (!event.defaultPrevented) throw error;
  });
`;

/** Vite's helper with the import-only one in its place; throws when Vite's no longer reads as expected. */
export function swapHelper(code) {
  for (const text of expected) {
    if (!code.includes(text)) throw new Error(`Vite's preload helper no longer has "${text}": update ${owner}`);
  }
  return helper;
}

function importOnlyHelper() {
  let swapped = false;
  return {
    name: 'shop-lazy-import-without-preload',
    enforce: 'pre',
    // The build only: the dev server imports lazily without this helper.
    apply: 'build',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    // Without module preloading Vite also leaves out the list of each lazy chunk's imports that it writes
    // into the importing chunk for the helper (the shop chunk's name, about 0.1 KB gzip a page). Astro sets
    // the client's build.modulePreload itself, so a user config cannot.
    configEnvironment: (name) => (name === 'client' ? { build: { modulePreload: false } } : undefined),
    // A transform, not a load: it sees Vite's helper, so the check above has something to read.
    transform: {
      filter: { id: helperId },
      handler(code) {
        swapped = true;
        return { code: swapHelper(code), map: null };
      },
    },
    buildEnd(error) {
      if (!error && !swapped) this.error(`Vite's preload helper was not in the client build: update ${owner}`);
    },
  };
}

export default function lazyImportWithoutPreload() {
  return {
    name: 'shop-lazy-import-without-preload',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [importOnlyHelper()] } });
      },
    },
  };
}
