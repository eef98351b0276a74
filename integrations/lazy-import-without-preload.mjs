// Vite wraps every dynamic import() of the client build in its preload helper, which first adds
// <link rel="modulepreload"> and stylesheet links for the imported chunk's own imports, then imports it.
// Here the only lazy import is SweetAlert2, one chunk with no imports and no CSS, so there is nothing to
// preload, yet the helper (about 0.7 KB gzip) was part of the JavaScript every catalog page loads, whose
// budget is 75 KB (docs/design.md section 15). This swaps in a helper that only imports, and keeps the one
// thing of the original that this shop uses: a failed import (an old page after a deploy removed its
// chunks) announces `vite:preloadError`, on which ProgressBar.astro reloads the page (decision 146).
const helperId = /^\0vite\/preload-helper\.js$/;

const helper = `export const __vitePreload = (load) =>
  load().catch((error) => {
    const event = new Event('vite:preloadError', { cancelable: true });
    event.payload = error;
    window.dispatchEvent(event);
    if (!event.defaultPrevented) throw error;
  });
`;

function importOnlyHelper() {
  return {
    name: 'shop-lazy-import-without-preload',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    // Without module preloading Vite also leaves out the list of each lazy chunk's imports that it writes
    // into the importing chunk for the helper (the shop chunk's name, about 0.1 KB gzip a page). Astro sets
    // the client's build.modulePreload itself, so a user config cannot.
    configEnvironment: (name) => (name === 'client' ? { build: { modulePreload: false } } : undefined),
    load: {
      filter: { id: helperId },
      handler: () => helper,
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
