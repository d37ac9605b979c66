// The headers every dashboard page carries. Scripts run only with this response's nonce
// (Next.js stamps it on its own scripts when it finds it in the request's CSP); 'strict-dynamic'
// lets those scripts load the app's chunks. Style attributes stay allowed (style-src-attr):
// React renders some on the server (a status's colour, skeleton widths) and they cannot run
// code, while <style> elements still need the nonce. Images come from this origin only, so a
// changelog cannot embed a tracking pixel. No site may frame a page (clickjacking).

const HSTS = "max-age=31536000";

export function contentSecurityPolicy(nonce: string, options: { https: boolean; development: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    // Development's style injection has no nonce; a nonce would make browsers ignore unsafe-inline.
    `style-src 'self' ${options.development ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

export function pageHeaders(policy: string, options: { https: boolean }): Record<string, string> {
  return {
    "Content-Security-Policy": policy,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    ...(options.https ? { "Strict-Transport-Security": HSTS } : {}),
  };
}
