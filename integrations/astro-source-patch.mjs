// The shop changes a few lines of Astro's server runtime where measurements showed the time going
// (docs/decisions/161, 167). Each change is a Vite transform of one file of Astro's, in the server build
// only, and each fails the build when Astro's file no longer reads the way it expects, rather than
// quietly keeping the slower code.

/**
 * Replaces `find` (which must occur exactly once) with `replacement` in `code`; throws, naming the
 * integration to update, when it does not.
 */
export function replaceOnce(code, find, replacement, owner) {
  const first = code.indexOf(find);
  if (first === -1 || code.indexOf(find, first + find.length) !== -1) {
    throw new Error(`Astro's code no longer has exactly one "${find.split('\n')[0].trim()}": update ${owner}`);
  }
  return code.slice(0, first) + replacement + code.slice(first + find.length);
}

/**
 * A Vite plugin for the server build that gives each file of Astro's runtime matching a key of
 * `patches` (a path ending such as `/astro/dist/core/environment/production.js`) to its function.
 * The build fails if one of those files was not part of it.
 */
export function astroSourcePatchPlugin(name, patches) {
  const done = new Set();
  const entries = Object.entries(patches);
  return {
    name,
    // The build only: the dev server may load Astro's runtime without bundling it, and speed is not its job.
    apply: 'build',
    applyToEnvironment: (environment) => environment.config.consumer === 'server',
    transform(code, id) {
      const file = id.split('?')[0].replaceAll('\\', '/');
      const match = entries.find(([ending]) => file.endsWith(ending));
      if (!match) return null;
      done.add(match[0]);
      return { code: match[1](code), map: null };
    },
    buildEnd(error) {
      const missing = entries.map(([ending]) => ending).filter((ending) => !done.has(ending));
      if (!error && missing.length > 0) this.error(`${missing.join(', ')} not in the server build: update the ${name} integration`);
    },
  };
}

/** An Astro integration adding `astroSourcePatchPlugin(name, patches)` to the build. */
export function astroSourcePatch(name, patches) {
  return {
    name,
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [astroSourcePatchPlugin(name, patches)] } });
      },
    },
  };
}
