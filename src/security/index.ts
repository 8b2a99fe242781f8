// What other parts of the gateway use from security; see ARCHITECTURE.md.
export { GatewaySecurity, attachSecurity, authorizeRequest, securityOf } from './gateway-security.js';
export type { AuthDenial, GatewaySecurityOptions } from './gateway-security.js';
export { openSecurity, StartupRefused } from './open-security.js';
export { authConfigSchema } from './config.js';
export type { AuthConfig } from './config.js';
export { clientKeyIdOf, principalOf } from './principal.js';
export type { Principal } from './principal.js';
export { restrictCandidates } from './restrict-candidates.js';
export { redactJson, redactSecrets } from './redact.js';
export { isLoopbackHost } from './loopback.js';
export { allowedHostNames, hostAllowed, originAllowed } from './host-origin.js';
export { dashboardContentSecurityPolicy, dashboardSecurityHeaders } from './dashboard/csp.js';
export { DashboardSessions, csrfHeaderName, sessionCookieName } from './dashboard/sessions.js';
export type { DashboardSession, DashboardSessionStore } from './dashboard/dashboard-session-store.js';
export { MemoryDashboardSessionStore } from './dashboard/memory-dashboard-session-store.js';
export { dashboardAuthRoute, loginPath, logoutPath, sessionPath } from './dashboard/login-route.js';
export { scopes } from './scopes.js';
export type { Scope } from './scopes.js';
