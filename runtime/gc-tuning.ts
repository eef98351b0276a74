import v8 from 'node:v8';

/**
 * Imported first by runtime/main.ts, so the flag is set before the rest of the server is loaded.
 *
 * V8 "pretenures" an allocation site (makes its objects directly in the old generation) when most of
 * what the site made was still alive at a young collection. Under load, with ten pages being rendered
 * at every young collection, it pretenured dozens of sites whose objects live for one request. Old
 * objects pointing at young ones made each young collection slower, and only full collections
 * reclaimed what the pretenured sites made. Without pretenuring, young collections cost the process
 * a third of the CPU they did, and a warm server rendered 15 % more listing pages (docs/decisions/159).
 */
v8.setFlagsFromString('--no-allocation-site-pretenuring');
