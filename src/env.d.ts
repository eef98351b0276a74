declare namespace App {
  interface Locals {
    /**
     * Set by src/middleware.ts when the edge refuses a page request before its route runs: the shop's
     * error page (src/pages/404.astro) is rendered with this status and says why (docs/decisions/176).
     */
    refusal?: { status: number; title: string; message: string };
  }
}
