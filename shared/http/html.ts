/**
 * Minimal server-rendered HTML (the OAuth sign-in and consent pages): no framework, no script,
 * every interpolated value escaped. Pages refuse to be framed (clickjacking) and load nothing
 * but their inline style. No `form-action`: browsers apply it to the redirect that follows a
 * form post, and the consent form's answer redirects to the client, wherever it is.
 */

const htmlEscapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEscapes[character] as string);
}

/** Headers of every page: HTML, never framed, never cached, nothing loaded from elsewhere. */
export const pageHeaders: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const style = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
h1{font-size:1.4rem}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=text],select{font-size:1rem;padding:.5rem;width:100%;box-sizing:border-box}
button{font-size:1rem;padding:.5rem 1.25rem;margin:.75rem .5rem 0 0;cursor:pointer}
.notice{padding:.5rem .75rem;border-left:4px solid #b35c00;background:#fff4e5}
.unverified{color:#8a1c1c;font-weight:600}ul{padding-left:1.25rem}
button:focus,input:focus,select:focus{outline:3px solid #1a5fb4;outline-offset:2px}`;

/** A whole page: `body` is HTML the caller built with `escapeHtml`. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The page of a refused request: its status's words and the message, nothing else. */
export function errorPage(title: string, message: string): string {
  return htmlPage(title, `<h1>${escapeHtml(title)}</h1>\n<p role="alert">${escapeHtml(message)}</p>`);
}
