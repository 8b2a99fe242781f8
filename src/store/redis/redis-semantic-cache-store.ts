import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SemanticCacheEntry, SemanticCacheLimits, SemanticCacheStore } from '../semantic-cache-store.js';
import { type MirroredEntry, type MirroredNamespace, SemanticCacheMirror, defaultSemanticMirrorBytes } from './semantic-cache-mirror.js';

/** What one list element holds after its `<sequence>:` tag; the vector as little-endian float32 in base64 (a third of its JSON size). */
interface StoredEntry {
  answerKey: string;
  storedAt: number;
  expiresAt: number;
  vector: string;
}

/**
 * One add, atomically: the next sequence number, the element tagged with it at the head, the list trimmed, both
 * keys' time to live renewed. A new sequence hash starts a new generation (`epoch`, random from the caller) and
 * drops any list left without one, so within a generation element `i` always carries `sequence - i`.
 *
 * KEYS: list, sequence hash. ARGV: element without its tag, maxEntries, ttlMs, epoch for a new generation.
 */
const addScript = `
local sequence = redis.call('HINCRBY', KEYS[2], 'sequence', 1)
if sequence == 1 then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[2], 'epoch', ARGV[4])
end
redis.call('LPUSH', KEYS[1], sequence .. ':' .. ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return sequence
`;

/**
 * One lookup, atomically, given what the caller already holds (its epoch, '' for nothing, and sequence): an empty
 * reply when the namespace is gone, else {epoch, sequence, list length, full (1) or since (0), elements…} where
 * the elements are the whole list, or only those added after the caller's sequence when that is the same
 * generation and the gap still fits in the list.
 *
 * KEYS: list, sequence hash. ARGV: held epoch, held sequence.
 */
const lookupScript = `
local state = redis.call('HMGET', KEYS[2], 'epoch', 'sequence')
if not state[1] or not state[2] then return {} end
local sequence = tonumber(state[2])
local length = redis.call('LLEN', KEYS[1])
local count = sequence - tonumber(ARGV[2])
local full = 0
if state[1] ~= ARGV[1] or count < 0 or count > length then
  full = 1
  count = length
end
local reply = {state[1], sequence, length, full}
if count > 0 then
  local elements = redis.call('LRANGE', KEYS[1], 0, count - 1)
  for index = 1, #elements do reply[#reply + 1] = elements[index] end
end
return reply
`;

function encodeVector(vector: ArrayLike<number>): string {
  return Buffer.from(Float32Array.from(vector).buffer).toString('base64');
}

/** A copy into its own buffer: a pooled Buffer's offset need not be a multiple of 4. No per-element JS (256 × 1536 floats per full read). */
function decodeVector(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length - (bytes.length % 4)));
}

/** A malformed element still takes its place (never live), so the mirror's positions match the list's. */
function decodeElement(element: unknown, expectedSequence: number): MirroredEntry {
  const text = typeof element === 'string' ? element : '';
  const colon = text.indexOf(':');
  const sequence = colon > 0 ? Number(text.slice(0, colon)) : Number.NaN;
  try {
    const stored = JSON.parse(text.slice(colon + 1)) as StoredEntry;
    return {
      entry: { vector: decodeVector(stored.vector), answerKey: stored.answerKey, storedAt: stored.storedAt },
      expiresAt: Number(stored.expiresAt),
      sequence,
    };
  } catch {
    return { entry: { vector: new Float32Array(0), answerKey: '', storedAt: 0 }, expiresAt: 0, sequence: expectedSequence };
  }
}

export interface RedisSemanticCacheStoreOptions {
  now?: () => number;
  /** The per-instance mirror's budget; 0 turns the mirror off (every lookup reads the whole list). */
  mirrorBytes?: number;
}

/**
 * The vectors shared by several instances: one list per namespace under `<prefix>semantic-entries:<namespace>`,
 * newest first, trimmed to `maxEntries`, and a hash `<prefix>semantic-seq:<namespace>` counting its adds; both
 * expire `ttlMs` after the last add (each element also carries its own expiry). Each instance mirrors the lists
 * it read (semantic-cache-mirror.ts), so a steady-state lookup is one script call that returns the sequence and
 * nothing else, and a lookup after k adds fetches and decodes k elements, not the whole list. See
 * src/cache/ARCHITECTURE.md for the numbers and the rules that keep the mirror exact.
 */
export class RedisSemanticCacheStore implements SemanticCacheStore {
  readonly specificationVersion = 'v1' as const;
  private readonly now: () => number;
  private readonly mirror: SemanticCacheMirror;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    options: RedisSemanticCacheStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.mirror = new SemanticCacheMirror(options.mirrorBytes ?? defaultSemanticMirrorBytes, this.now);
  }

  /** A Redis error rejects (the semantic cache counts it a miss); the mirror is never served without Redis's sequence. */
  async entries(namespace: string): Promise<SemanticCacheEntry[]> {
    const held = this.mirror.get(namespace);
    let state = await this.read(namespace, held);
    // A gap that does not line up (someone else wrote the keys) costs one full read, never a mixed copy.
    if (state === 'broken') state = await this.read(namespace, undefined);
    if (state === 'broken' || state === undefined) return [];
    const now = this.now();
    const live: SemanticCacheEntry[] = [];
    for (const mirrored of state.entries) if (mirrored.expiresAt > now) live.push(mirrored.entry);
    return live;
  }

  async add(namespace: string, entry: SemanticCacheEntry, limits: SemanticCacheLimits): Promise<void> {
    const ttlMs = Math.max(1, Math.trunc(limits.ttlMs));
    const stored: StoredEntry = { answerKey: entry.answerKey, storedAt: entry.storedAt, expiresAt: this.now() + ttlMs, vector: encodeVector(entry.vector) };
    await this.client.eval(
      addScript,
      2,
      this.listKey(namespace),
      this.sequenceKey(namespace),
      JSON.stringify(stored),
      Math.max(1, Math.trunc(limits.maxEntries)),
      ttlMs,
      randomBytes(8).toString('hex'),
    );
  }

  async close(): Promise<void> {
    // The connection belongs to the cluster stores, which close it.
    this.mirror.clear();
  }

  /** The namespace's list as of now (undefined when its keys are gone), held in the mirror when it fits. */
  private async read(namespace: string, held: MirroredNamespace | undefined): Promise<MirroredNamespace | undefined | 'broken'> {
    const reply = (await this.client.eval(
      lookupScript,
      2,
      this.listKey(namespace),
      this.sequenceKey(namespace),
      held?.epoch ?? '',
      held?.sequence ?? 0,
    )) as unknown[];
    if (reply.length < 4) {
      this.mirror.replace(namespace, held, undefined);
      return undefined;
    }
    const [epoch, sequence, length, full] = [String(reply[0]), Number(reply[1]), Number(reply[2]), Number(reply[3])];
    const fetched: MirroredEntry[] = [];
    for (let index = 4; index < reply.length; index += 1) fetched.push(decodeElement(reply[index], sequence - (index - 4)));
    let next: MirroredNamespace;
    if (full === 1 || !held) {
      next = { epoch, sequence, entries: fetched };
    } else {
      const lined = fetched.length === sequence - held.sequence && fetched.every((mirrored, index) => mirrored.sequence === sequence - index);
      if (!lined) {
        this.mirror.replace(namespace, held, undefined);
        return 'broken';
      }
      next = { epoch, sequence, entries: [...fetched, ...held.entries].slice(0, length) };
    }
    if (this.mirror.budgetBytes > 0) this.mirror.replace(namespace, held, next);
    return next;
  }

  private listKey(namespace: string): string {
    return `${this.keyPrefix}semantic-entries:${namespace}`;
  }

  private sequenceKey(namespace: string): string {
    return `${this.keyPrefix}semantic-seq:${namespace}`;
  }
}
