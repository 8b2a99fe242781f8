/**
 * The Content-Security-Policy for dashboard pages: scripts, styles, fonts and fetches from the gateway itself
 * only; no inline script or style, no eval, no external origin, no framing.
 */
export const dashboardContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every dashboard response (HTML, scripts, JSON) should carry. */
export function dashboardSecurityHeaders(): Record<string, string> {
  return {
    'content-security-policy': dashboardContentSecurityPolicy,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}
