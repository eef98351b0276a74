import { escapeHtml } from '../../lib/html.ts';

/**
 * The page a browser gets when the edge refuses a request before any route runs (bad characters in
 * the address, a cross-site form post). It needs no database and no built asset, so it renders
 * whatever else is wrong; it keeps the shop's logo, colours and Thai wording.
 */
export function refusalPage(status: number, title: string, message: string): Response {
  const html = `<!doctype html>
<html lang="th">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml" />
<style>
body{margin:0;font-family:Kanit,Roboto,"Noto Sans Thai",sans-serif;color:#212529;background:#fff;display:flex;flex-direction:column;min-height:100vh}
header{background:#fff;border-bottom:4px solid #ffd000;padding:.5rem 1rem}
main{flex:1;text-align:center;padding:3rem 1rem}
.code{font-size:3.5rem;font-weight:700;color:#b02a37;margin:0}
h1{font-size:1.5rem;margin:.5rem 0}
p{color:#495057}
a.home{display:inline-block;margin-top:1rem;padding:.5rem 1.25rem;border-radius:.375rem;background:#1e7b2c;color:#fff;text-decoration:none}
</style>
</head>
<body>
<header><a href="/"><img src="/logo.svg" alt="หน้าแรก" width="40" height="40" /></a></header>
<main id="main">
<p class="code">${status}</p>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<a class="home" href="/">กลับหน้าแรก</a>
</main>
</body>
</html>`;
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}
