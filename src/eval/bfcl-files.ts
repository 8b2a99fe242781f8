import { readFileSync } from 'node:fs';
import { z } from 'zod';

const classesSchema = z.record(
  z.string(),
  z.array(z.object({ name: z.string().min(1), description: z.string().default(''), parameters: z.unknown().optional() })),
);

const rowSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  user_turns: z.array(z.string()),
  classes_per_turn: z.array(z.array(z.string())),
  first_turn_classes: z.array(z.string()),
  involved_classes: z.array(z.string()),
});

export type BfclClasses = z.infer<typeof classesSchema>;
export type BfclRowFile = z.infer<typeof rowSchema>;

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid';
}

function readText(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`${flag} ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (code ?? String(error))}`);
  }
}

/** `--bfcl-toolsets`: `{Class: [{name, description?, parameters?}]}`; a wrong file is named with what is wrong. */
export function readBfclClasses(path: string): BfclClasses {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readText(path, '--bfcl-toolsets'));
  } catch (error) {
    if (error instanceof SyntaxError) throw new Error(`--bfcl-toolsets ${path}: not JSON; it wants {"Class": [{"name": …}, …]}`);
    throw error;
  }
  const checked = classesSchema.safeParse(parsed);
  if (!checked.success) throw new Error(`--bfcl-toolsets ${path}: not a BFCL class file (${firstIssue(checked.error)}); it wants {"Class": [{"name": …}, …]}`);
  return checked.data;
}

/** `--bfcl`: one multi-turn row per line; a wrong line is named by its number and what is wrong. */
export function readBfclRows(path: string): BfclRowFile[] {
  return readText(path, '--bfcl')
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, number }) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`--bfcl ${path}:${number}: not JSON; it wants one BFCL multi-turn row per line`);
      }
      const checked = rowSchema.safeParse(parsed);
      if (!checked.success) throw new Error(`--bfcl ${path}:${number}: not a BFCL multi-turn row (${firstIssue(checked.error)})`);
      return checked.data;
    });
}
