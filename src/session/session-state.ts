/** What the gateway remembers about one conversation between its requests. */
export interface SessionState {
  /** Tool routing: the toolsets of the session's surface (grows, never shrinks). */
  toolsets?: string[];
  /**
   * The toolsets of `toolsets` added after the first surface, in the order they joined: their tools are sent
   * after the first surface's, so the provider's cached prefix survives a growth (see buildSurface).
   */
  grownToolsets?: string[];
  /**
   * Whether the narrowed surface is being sent. False for sessions decided in shadow mode or restored to the full
   * surface by `router off`: those stay on the full surface, because narrowing a session midway could take away
   * a tool the model is using.
   */
  narrowed?: boolean;
  /** request_toolset re-issues served in this session. */
  recoveries?: number;
  /** Later user turns whose surface was grown before the call (anticipation). */
  anticipations?: number;
  updatedAt: number;
}
