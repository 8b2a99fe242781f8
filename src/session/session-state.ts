/** What the gateway remembers about one conversation between its requests. */
export interface SessionState {
  /** Tool routing: the toolsets of the session's surface (grows, never shrinks). */
  toolsets?: string[];
  /**
   * Whether the narrowed surface is being sent. False for sessions decided in shadow mode or restored to the full
   * surface by `router off`: those stay on the full surface, because narrowing a session midway could take away
   * a tool the model is using.
   */
  narrowed?: boolean;
  /** request_toolset re-issues served in this session. */
  recoveries?: number;
  updatedAt: number;
}
