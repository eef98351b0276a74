import { describe, expect, it } from 'vitest';
import { swapHelper } from '../../integrations/lazy-import-without-preload.mjs';

// Vite 8's helper as getPreloadCode writes it, shortened to the parts the swap relies on.
const viteHelper = [
  'const scriptRel = "modulepreload";const seen = {};',
  'export const __vitePreload = function preload(baseModule, deps, importerUrl) {',
  '  function handlePreloadError(err) { const e = new Event("vite:preloadError", { cancelable: true }); }',
  '}',
].join('\n');

describe('integrations/lazy-import-without-preload.mjs', () => {
  it("swaps Vite's helper for one that only imports and still announces vite:preloadError", () => {
    const code = swapHelper(viteHelper);
    expect(code).toContain('export const __vitePreload = (load) =>');
    expect(code).toContain("new Event('vite:preloadError', { cancelable: true })");
    expect(code).not.toContain('modulepreload');
  });

  it('fails the build, naming the integration, when Vite changes its helper', () => {
    expect(() => swapHelper(viteHelper.replace('preload(baseModule, deps, importerUrl)', 'preload(deps, baseModule)'))).toThrow(
      /no longer has "export const __vitePreload = function preload\(baseModule, deps, importerUrl\)": update integrations\/lazy-import-without-preload\.mjs/,
    );
    expect(() => swapHelper(viteHelper.replace('vite:preloadError', 'vite:preloadFailed'))).toThrow(/vite:preloadError/);
  });
});
