// The client under test in these examples: one query through the official TypeScript Agent SDK
// whose permission callback answers every tool with `behavior` ('allow' or 'deny'), as an app's
// own code would. The scenario decides what the CLI side says; the helper grades what this sent.
import { query } from '@anthropic-ai/claude-agent-sdk';

export async function createMarker(claudePath, behavior) {
  const canUseTool = async () =>
    behavior === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: 'not in this app' };
  const messages = [];
  const q = query({
    prompt: 'Create the allowed marker file',
    options: { pathToClaudeCodeExecutable: claudePath, canUseTool },
  });
  try {
    for await (const message of q) messages.push(message);
  } catch (error) {
    // The CLI ending early is the verdict's business; the test asserts on the verdict.
    messages.push({ type: 'error', error: String(error) });
  }
  return messages;
}
