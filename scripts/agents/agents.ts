import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where one run of an agent happens: the gateway, the model it asks for, a private HOME and a work directory. */
export interface AgentRunPlace {
  gatewayUrl: string;
  model: string;
  home: string;
  workdir: string;
}

export interface AgentCommand {
  args: string[];
  env: Record<string, string>;
}

/** One agent CLI: its pinned npm package and how to run it once, non-interactively, against the gateway. */
export interface AgentSpec {
  name: string;
  packageName: string;
  version: string;
  bin: string;
  /**
   * A package's own install script that fetches or links its native binary; npm skips install scripts of
   * dependencies it was not told to trust, so the suite runs it by hand (path relative to the package).
   */
  postinstall?: string;
  /** The API it speaks to the gateway. */
  speaks: string;
  /** Model names to run it with (each a row): the gateway's fake provider serves them all. */
  models: string[];
  command(place: AgentRunPlace, prompt: string): AgentCommand;
}

const apiKey = 'sk-agent-suite';

export const agents: AgentSpec[] = [
  {
    name: 'claude-code',
    packageName: '@anthropic-ai/claude-code',
    version: '2.1.332',
    bin: 'claude',
    postinstall: 'install.cjs',
    speaks: 'Anthropic messages',
    // A Claude model name (Anthropic upstream) and any other (an OpenAI-compatible upstream behind the gateway).
    models: ['claude-agent', 'local-agent'],
    command: (place, prompt) => ({
      args: ['-p', prompt, '--model', place.model, '--allowedTools', 'Bash', '--output-format', 'text'],
      env: {
        ANTHROPIC_BASE_URL: place.gatewayUrl,
        ANTHROPIC_API_KEY: apiKey,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    }),
  },
  {
    name: 'codex',
    packageName: '@openai/codex',
    version: '0.171.0',
    bin: 'codex',
    speaks: 'OpenAI Responses',
    models: ['local-agent', 'claude-agent'],
    command: (place, prompt) => ({
      args: [
        'exec',
        '--skip-git-repo-check',
        '-s',
        'danger-full-access',
        '-c',
        'model_provider=gateway',
        '-c',
        `model_providers.gateway={name="gateway",base_url="${place.gatewayUrl}/v1",env_key="GATEWAY_KEY",wire_api="responses"}`,
        '-m',
        place.model,
        prompt,
      ],
      env: { GATEWAY_KEY: apiKey },
    }),
  },
  {
    name: 'opencode',
    packageName: 'opencode-ai',
    version: '1.18.33',
    bin: 'opencode',
    postinstall: 'postinstall.mjs',
    speaks: 'OpenAI chat',
    models: ['local-agent'],
    command: (place, prompt) => {
      const configDir = join(place.home, '.config', 'opencode');
      mkdirSync(configDir, { recursive: true });
      const config = {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          gateway: {
            npm: '@ai-sdk/openai-compatible',
            name: 'gateway',
            options: { baseURL: `${place.gatewayUrl}/v1`, apiKey },
            models: { [place.model]: { name: place.model } },
          },
        },
      };
      writeFileSync(join(configDir, 'opencode.json'), JSON.stringify(config));
      return { args: ['run', '-m', `gateway/${place.model}`, prompt], env: {} };
    },
  },
  {
    name: 'qwen-code',
    packageName: '@qwen-code/qwen-code',
    version: '0.24.4',
    bin: 'qwen',
    speaks: 'OpenAI chat',
    models: ['local-agent'],
    command: (place, prompt) => ({
      args: ['-p', prompt, '--yolo'],
      env: { OPENAI_BASE_URL: `${place.gatewayUrl}/v1`, OPENAI_API_KEY: apiKey, OPENAI_MODEL: place.model },
    }),
  },
  {
    name: 'gemini-cli',
    packageName: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    speaks: 'Gemini generateContent',
    // Also through two translations: Gemini → chat completions → Anthropic Messages.
    models: ['local-agent', 'claude-agent'],
    command: (place, prompt) => {
      const settingsDir = join(place.home, '.gemini');
      mkdirSync(settingsDir, { recursive: true });
      writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
      return {
        args: ['-p', prompt, '--yolo', '-m', place.model],
        env: { GEMINI_API_KEY: apiKey, GOOGLE_GEMINI_BASE_URL: place.gatewayUrl, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
      };
    },
  },
];
