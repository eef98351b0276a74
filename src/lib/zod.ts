import { z } from 'zod';

/**
 * zod for code both sides run (the shop's shared schemas import it from here). In the browser the
 * Content-Security-Policy allows no eval (docs/decisions/198); zod's faster parsers are built with
 * `new Function`, and its first object parse would try one, which the browser blocks and reports as a
 * violation. Jitless there: the same results, without the attempt. The server keeps zod's fast path.
 */
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
