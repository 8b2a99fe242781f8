import { setFlagsFromString } from 'node:v8';
import { compactHeapApplied } from './heap-settings.js';

let held = false;

/**
 * Keeps V8's young generation at its initial size while the gateway starts (`release` hands growth back once it
 * listens, or when the start fails). A start allocates mostly what it keeps (modules, schemas, the catalog, the
 * ledger's statements), and at V8's default growth factor (2) that long-lived allocation grew the young
 * generation to its 16 MB maximum, of which ~5 MB stayed resident, empty, in an idle gateway. Under request load
 * it grows again as before. Left alone when the user set the growth factor themselves, and when the compact heap
 * settings keep the young generation at that size for good (HERMES_ROUTER_NODE_HEAP=compact, heap-settings.ts).
 */
export function holdYoungGeneration(): void {
  const userSettings = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (held || compactHeapApplied() || userSettings.includes('semi-space-growth-factor')) return;
  held = true;
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** V8's default growth again; does nothing unless `holdYoungGeneration` changed it. */
export function releaseYoungGeneration(): void {
  if (!held) return;
  held = false;
  setFlagsFromString('--semi-space-growth-factor=2');
}
