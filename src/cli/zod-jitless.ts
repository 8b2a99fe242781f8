import { config } from 'zod';

/**
 * Makes zod validate without generated code: zod 4 compiles a parser for each object schema (`new Function`) at
 * its first parse, which pays back over many parses of one schema. `start` parses its config once (some config
 * modules parse their defaults as they load, so this runs before they load) and the request path does not use
 * zod; code made by `new Function` is also code the compile cache (compile-cache.ts) cannot keep. Same results.
 */
export function validateWithoutGeneratedCode(): void {
  config({ jitless: true });
}
