// Astro asks each renderer's `check` whether it owns a framework component, and @astrojs/react's check
// answers by rendering the component once and looking at what it returns. So every island was rendered
// twice on every uncached page (five on a product page). The components under src/components are all
// React, so the server build tags each one's default export with the React renderer's name, as Astro's
// own MDX integration tags its components, and Astro goes straight to the renderer (decision 125).
import { init, parse } from 'es-module-lexer';

const islandModule = /\/src\/components\/.+\.tsx$/;

function tagDefaultExport() {
  return {
    name: 'shop-react-islands-tagged',
    enforce: 'post',
    async transform(code, id, options) {
      const onServer = this.environment ? this.environment.config.consumer === 'server' : options?.ssr === true;
      if (!onServer || !islandModule.test(id.split('?')[0])) return null;
      await init;
      const [, exports] = parse(code);
      const local = exports.find((entry) => entry.n === 'default')?.ln;
      if (!local) return null;
      return {
        code: `${code}\nimport { __astro_tag_component__ as __shopTagComponent } from 'astro/runtime/server/index.js';\n__shopTagComponent(${local}, '@astrojs/react');\n`,
        map: null,
      };
    },
  };
}

export default function reactIslandsTagged() {
  return {
    name: 'shop-react-islands-tagged',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [tagDefaultExport()] } });
      },
    },
  };
}
