import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../policy/atomic-write.js';

export const probeResultSchema = z.object({
  supportsTools: z.boolean().optional(),
  supportsVision: z.boolean().optional(),
  probedAt: z.string(),
});

const fileSchema = z.object({
  version: z.literal(1),
  probes: z.record(z.string(), probeResultSchema),
});

export type ProbeResult = z.infer<typeof probeResultSchema>;
export type ProbeFile = z.infer<typeof fileSchema>;

export const probeFileName = 'model-probes.json';

export function probeFilePath(dataDir: string): string {
  return join(dataDir, probeFileName);
}

/**
 * Results of `hermes-router models probe`, keyed `provider/model`, cached in the data directory. A missing or
 * unreadable file is an empty cache: probing is an optimisation, never a reason not to start.
 */
export function readProbeResults(path: string): ProbeFile {
  if (!existsSync(path)) return { version: 1, probes: {} };
  try {
    return fileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return { version: 1, probes: {} };
  }
}

export function writeProbeResults(path: string, results: ProbeFile): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify(results, null, 2)}\n`);
}

/** The probe result for a deployment if it is younger than `ttlMs`. */
export function freshProbe(results: ProbeFile, qualifiedName: string, ttlMs: number, now: number): ProbeResult | undefined {
  const probe = results.probes[qualifiedName];
  if (!probe) return undefined;
  const age = now - Date.parse(probe.probedAt);
  return Number.isFinite(age) && age <= ttlMs ? probe : undefined;
}

/** `next` over `previous`, field by field: a capability `next` leaves undefined keeps the earlier verdict. */
export function mergeProbeResult(previous: ProbeResult | undefined, next: ProbeResult): ProbeResult {
  const defined = Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)) as ProbeResult;
  return { ...previous, ...defined };
}
