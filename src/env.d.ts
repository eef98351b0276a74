declare namespace App {
  interface Locals {
    /**
     * What the shop's error page (src/pages/404.astro) says instead of "page not found": set by
     * src/middleware.ts when the edge refuses a page request before its route runs, or by a page whose
     * thing is missing and which knows a better way on (an unknown order: My Purchase). docs/decisions/176.
     */
    errorPage?: { status: number; title: string; message: string; way?: { href: string; label: string } };
    /**
     * Given by runtime/main.ts with each request (the Node adapter's locals): src/middleware.ts writes the
     * matched route pattern into it, for the labels of GET /metrics (runtime/metrics.ts).
     */
    requestRoute?: { route: string };
  }
}
