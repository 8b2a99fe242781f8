import type { Redis } from 'ioredis';
import type { BudgetCharge, BudgetCounterStore, BudgetTotals, Reservation } from '../budget-counter-store.js';

/**
 * Each counter is two keys: `<prefix>budget:<name>` (the spent total, INCRBYFLOAT) and `<prefix>budget-holds:<name>`
 * (a sorted set of holds scored by their expiry, member `<holdId>|<amount>`). Held = the sum of unexpired members.
 */
const heldFunction = `
local function held(key, at)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', at)
  local total = 0
  for _, member in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    total = total + tonumber(string.match(member, '|([^|]+)$'))
  end
  return total
end
`;

/**
 * KEYS: spent1, holds1, spent2, holds2, … ARGV: at, holdMs, holdId, then per charge: amount, limit ('' = none), ttlMs.
 * Refuses (0, index) when a limited counter's spent + held reached its limit; otherwise holds every amount.
 * Totals come back as strings: Lua numbers returned to Redis are cut to integers.
 */
const reserveScript = `${heldFunction}
local at = tonumber(ARGV[1])
local holdMs = tonumber(ARGV[2])
local committed = {}
local count = #KEYS / 2
for index = 1, count do
  local spent = tonumber(redis.call('GET', KEYS[index * 2 - 1]) or '0')
  committed[index] = spent + held(KEYS[index * 2], at)
end
for index = 1, count do
  local limit = ARGV[3 + (index - 1) * 3 + 2]
  if limit ~= '' and committed[index] >= tonumber(limit) then
    local answer = {'0', tostring(index - 1)}
    for _, value in ipairs(committed) do table.insert(answer, tostring(value)) end
    return answer
  end
end
for index = 1, count do
  local amount = ARGV[3 + (index - 1) * 3 + 1]
  local holds = KEYS[index * 2]
  redis.call('ZADD', holds, at + holdMs, ARGV[3] .. '|' .. amount)
  if redis.call('PTTL', holds) < holdMs then redis.call('PEXPIRE', holds, holdMs) end
end
local answer = {'1', '-1'}
for _, value in ipairs(committed) do table.insert(answer, tostring(value)) end
return answer
`;

/** KEYS: holds… then spent… (counts in ARGV[1], ARGV[2]). ARGV: heldCount, spentCount, holdId, then amount, ttlMs per spent. */
const settleScript = `
local heldCount = tonumber(ARGV[1])
local spentCount = tonumber(ARGV[2])
local prefix = ARGV[3] .. '|'
for index = 1, heldCount do
  for _, member in ipairs(redis.call('ZRANGE', KEYS[index], 0, -1)) do
    if string.sub(member, 1, #prefix) == prefix then redis.call('ZREM', KEYS[index], member) end
  end
end
for index = 1, spentCount do
  local key = KEYS[heldCount + index]
  redis.call('INCRBYFLOAT', key, ARGV[3 + (index - 1) * 2 + 1])
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, ARGV[3 + (index - 1) * 2 + 2]) end
end
return 1
`;

const readScript = `${heldFunction}
local answer = {}
for index = 1, #KEYS / 2 do
  table.insert(answer, redis.call('GET', KEYS[index * 2 - 1]) or '0')
  table.insert(answer, tostring(held(KEYS[index * 2], tonumber(ARGV[1]))))
end
return answer
`;

/** Budget counters in Redis: every operation is one Lua script, so instances never interleave inside one. */
export class RedisBudgetCounterStore implements BudgetCounterStore {
  readonly specificationVersion = 'v1' as const;

  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
  ) {}

  async reserve(holdId: string, charges: readonly BudgetCharge[], holdMs: number, at: number): Promise<Reservation> {
    const keys = charges.flatMap((charge) => [this.#spentKey(charge.name), this.#holdsKey(charge.name)]);
    const values = charges.flatMap((charge) => [String(charge.amount), charge.limit === undefined ? '' : String(charge.limit), String(Math.max(1, Math.trunc(charge.ttlMs)))]);
    const answer = (await this.client.eval(reserveScript, keys.length, ...keys, at, Math.max(1, Math.trunc(holdMs)), holdId, ...values)) as string[];
    const committed = answer.slice(2).map(Number);
    if (answer[0] === '1') return { admitted: true, committed };
    return { admitted: false, refusedIndex: Number(answer[1]), committed };
  }

  async settle(holdId: string, held: readonly string[], spent: readonly BudgetCharge[]): Promise<void> {
    const adds = spent.filter((charge) => charge.amount > 0);
    if (held.length === 0 && adds.length === 0) return;
    const keys = [...held.map((name) => this.#holdsKey(name)), ...adds.map((charge) => this.#spentKey(charge.name))];
    const values = adds.flatMap((charge) => [String(charge.amount), String(Math.max(1, Math.trunc(charge.ttlMs)))]);
    await this.client.eval(settleScript, keys.length, ...keys, held.length, adds.length, holdId, ...values);
  }

  async read(names: readonly string[], at: number): Promise<BudgetTotals[]> {
    if (names.length === 0) return [];
    const keys = names.flatMap((name) => [this.#spentKey(name), this.#holdsKey(name)]);
    const answer = (await this.client.eval(readScript, keys.length, ...keys, at)) as string[];
    return names.map((_, index) => ({ spent: Number(answer[index * 2]), held: Number(answer[index * 2 + 1]) }));
  }

  async seed(name: string, amount: number, ttlMs: number): Promise<void> {
    await this.client.set(this.#spentKey(name), String(amount), 'PX', Math.max(1, Math.trunc(ttlMs)), 'NX');
  }

  async close(): Promise<void> {
    // The client belongs to the cluster stores, which close it once.
  }

  #spentKey(name: string): string {
    return `${this.keyPrefix}budget:${name}`;
  }

  #holdsKey(name: string): string {
    return `${this.keyPrefix}budget-holds:${name}`;
  }
}
