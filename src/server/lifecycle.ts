/**
 * Shutdown hooks shared between the Node server and the Astro bundle. They are separate module graphs
 * (the server loads the built bundle), so the registry lives on globalThis under a registered symbol.
 */
type ShutdownHook = () => Promise<void> | void;

const registryKey = Symbol.for('yimlamai.shutdownHooks');

function hooks(): Map<string, ShutdownHook> {
  const holder = globalThis as unknown as Record<symbol, Map<string, ShutdownHook> | undefined>;
  holder[registryKey] ??= new Map();
  return holder[registryKey];
}

export function onShutdown(name: string, hook: ShutdownHook): void {
  hooks().set(name, hook);
}

export async function runShutdownHooks(log: (message: string) => void = () => {}): Promise<void> {
  const registered = [...hooks().entries()].reverse();
  hooks().clear();
  for (const [name, hook] of registered) {
    try {
      await hook();
      log(`closed ${name}`);
    } catch (error) {
      log(`failed to close ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
