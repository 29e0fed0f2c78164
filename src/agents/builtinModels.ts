/**
 * The built-in model lists, served when an organization has no key for a catalog's provider
 * or the provider has never answered. `source_b` starts with the model-router models the
 * original service is known to offer agent_4 and agent_5 (docs/decisions/agents.md, "Model
 * catalog").
 */
import type { ModelSource } from './catalog';

export interface CatalogModel {
  id: string;
  displayName: string;
  description?: string;
}

export const BUILTIN_MODELS: Readonly<Record<ModelSource, readonly CatalogModel[]>> = {
  source_a: [
    { id: 'a1-large', displayName: 'A1 Large', description: 'Flagship general model for complex coding tasks' },
    { id: 'a1-medium', displayName: 'A1 Medium', description: 'Balanced speed and quality for everyday coding' },
    { id: 'a1-small', displayName: 'A1 Small', description: 'Fast, low-cost model for simple edits' },
    { id: 'a1-coder', displayName: 'A1 Coder', description: 'Tuned for code generation and refactoring' },
    { id: 'a1-coder-mini', displayName: 'A1 Coder Mini', description: 'Lightweight code model for quick completions' },
    { id: 'a1-reasoning', displayName: 'A1 Reasoning', description: 'Extended reasoning for planning and debugging' },
    { id: 'a1-reasoning-mini', displayName: 'A1 Reasoning Mini', description: 'Smaller reasoning model with lower latency' },
    { id: 'a1-vision', displayName: 'A1 Vision', description: 'Reads screenshots and diagrams alongside code' },
    { id: 'a1-large-long-context', displayName: 'A1 Large Long Context', description: 'Large model with a one-million-token context window' },
    { id: 'a1-legacy', displayName: 'A1 Legacy', description: 'Previous generation, kept for reproducible runs' },
  ],
  source_b: [
    { id: 'z-ai/glm-5.2', displayName: 'GLM 5.2', description: 'Z.ai general model with strong agentic coding' },
    { id: 'minimax/minimax-m3', displayName: 'MiniMax M3', description: 'MiniMax mixture-of-experts model for long tasks' },
    { id: 'xiaomi/mimo-v2.5-pro', displayName: 'MiMo V2.5 Pro', description: 'Xiaomi reasoning model for code and math' },
    { id: 'moonshotai/kimi-k2.6', displayName: 'Kimi K2.6', description: 'Moonshot AI agentic model with tool use' },
    { id: 'qwen/qwen3-coder', displayName: 'Qwen3 Coder', description: 'Alibaba Qwen model specialised for code' },
    { id: 'deepseek/deepseek-v3.2', displayName: 'DeepSeek V3.2', description: 'DeepSeek general model with long context' },
    { id: 'mistralai/devstral-medium', displayName: 'Devstral Medium', description: 'Mistral model for software-engineering agents' },
    { id: 'openai/gpt-oss-120b', displayName: 'gpt-oss-120b', description: 'Open-weight reasoning model' },
  ],
};
