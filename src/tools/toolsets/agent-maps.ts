/**
 * The tools of the coding agents people put a gateway in front of, mapped onto Hermes Agent's toolset names
 * (`hermes-toolsets.json`), so the toolset classifier's labels and the catalog's lines apply to them unchanged.
 * Only tools whose Hermes toolset is the same capability are listed; anything else stays unowned, and an unowned
 * tool is on every surface. Tool-search tools (Claude Code `ToolSearch`, Qwen Code `tool_search`) are not here:
 * an agent that has one defers its tools itself and is left alone (`defers-tools.ts`).
 *
 * Names as sent by Claude Code 2.1, Codex CLI 0.171, opencode 1.18, Qwen Code 0.24 and Gemini CLI 0.61.
 */
const agentTools: Readonly<Record<string, string>> = {
  // Claude Code
  Bash: 'terminal',
  BashOutput: 'terminal',
  KillShell: 'terminal',
  Read: 'file',
  Write: 'file',
  Edit: 'file',
  MultiEdit: 'file',
  NotebookEdit: 'file',
  Glob: 'file',
  Grep: 'file',
  WebFetch: 'web',
  WebSearch: 'web',
  TodoWrite: 'todo',
  Agent: 'delegation',
  Task: 'delegation',
  Skill: 'skills',
  AskUserQuestion: 'clarify',
  // Codex CLI
  exec_command: 'terminal',
  write_stdin: 'terminal',
  shell: 'terminal',
  shell_command: 'terminal',
  local_shell: 'terminal',
  apply_patch: 'file',
  view_image: 'vision',
  update_plan: 'todo',
  request_user_input: 'clarify',
  // opencode
  bash: 'terminal',
  read: 'file',
  write: 'file',
  edit: 'file',
  multiedit: 'file',
  patch: 'file',
  glob: 'file',
  grep: 'file',
  list: 'file',
  webfetch: 'web',
  websearch: 'web',
  todowrite: 'todo',
  todoread: 'todo',
  task: 'delegation',
  skill: 'skills',
  question: 'clarify',
  // Qwen Code and Gemini CLI (Gemini CLI's names are Qwen Code's origin)
  run_shell_command: 'terminal',
  read_file: 'file',
  read_many_files: 'file',
  write_file: 'file',
  replace: 'file',
  list_directory: 'file',
  grep_search: 'file',
  search_file_content: 'file',
  web_fetch: 'web',
  google_web_search: 'web',
  todo_write: 'todo',
  write_todos: 'todo',
  save_memory: 'memory',
  agent: 'delegation',
};

export function agentToolsetOf(toolName: string): string | undefined {
  return Object.hasOwn(agentTools, toolName) ? agentTools[toolName] : undefined;
}
