import { FRONTIER_KEY_NAMES } from './keys.js';

/**
 * Lua scripts of the Redis frontier store. Each runs atomically on the server, so each is one step of the state
 * machine in frontier-store.ts. Rules they all keep:
 * - every loop is bounded (by the batch the client sends, or by a window or batch size passed in ARGV), because a
 *   script blocks the server while it runs;
 * - every clock reading is the server's `TIME` (allowed before writes: Redis 7 replicates effects, not scripts);
 * - numbers that go back to the client are strings, as Redis truncates Lua numbers in replies to integers;
 * - scores travel as the client's decimal strings, so they are stored exactly.
 */

/** Names the keys (KEYS in {@link FRONTIER_KEY_NAMES} order) and the helpers the scripts share. */
const SCRIPT_PRELUDE = `
local ${FRONTIER_KEY_NAMES.map((name) => `K_${name}`).join(', ')} = unpack(KEYS)

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- ARGV limits: a negative number means none.
local function limit(value)
  local n = tonumber(value)
  if n < 0 then return math.huge end
  return n
end

local function counter(name)
  return tonumber(redis.call('HGET', K_counters, name) or '0')
end

local function end_lease(key)
  redis.call('ZREM', K_leases, key)
  redis.call('HDEL', K_leaseToken, key)
  redis.call('HDEL', K_leaseWorker, key)
  local host = redis.call('HGET', K_host, key)
  if redis.call('HINCRBY', K_hostInFlight, host, -1) <= 0 then redis.call('HDEL', K_hostInFlight, host) end
  return host
end

-- Back in the queue with its charge, at the score it was leased with.
local function requeue(key)
  redis.call('SADD', K_leasedAgain, key)
  redis.call('HSET', K_state, key, 'r')
  redis.call('ZADD', K_requeued, redis.call('HGET', K_score, key), key)
end

-- The URL stays in the dedup set; what was kept to hand it out again goes.
local STATE_OF = { done = 'd', failed = 'f', dropped = 'x' }

local function finish(key, outcome)
  redis.call('HSET', K_state, key, STATE_OF[outcome])
  redis.call('HINCRBY', K_counters, outcome, 1)
  -- a URL dropped unfetched on its first lease gives its charge back; an earlier holder may have fetched it
  if redis.call('SREM', K_leasedAgain, key) == 0 and outcome == 'dropped' then redis.call('HINCRBY', K_counters, 'charged', -1) end
  redis.call('HDEL', K_entry, key)
  redis.call('HDEL', K_host, key)
  redis.call('HDEL', K_score, key)
  redis.call('HDEL', K_attempts, key)
  redis.call('HDEL', K_discovery, key)
end

-- The best n of a queue as {key, score} pairs, best first, and ties in score in discovery order (FIFO, as the
-- in-process store): a ZSET orders equal scores by member, and a listing's next and previous pages, which promise
-- the same, then went by their URLs' spelling (page=21 before page=1).
local function best_first(queue, n)
  local flat = redis.call('ZREVRANGE', queue, 0, n - 1, 'WITHSCORES')
  local items, tied = {}, false
  for i = 1, #flat, 2 do
    items[#items + 1] = { key = flat[i], score = flat[i + 1], rank = #items + 1 }
    if i > 1 and flat[i + 1] == flat[i - 1] then tied = true end
  end
  if tied then
    for _, item in ipairs(items) do
      item.value = tonumber(item.score)
      item.seq = tonumber(redis.call('HGET', K_discovery, item.key) or '0')
    end
    table.sort(items, function(a, b)
      if a.value ~= b.value then return a.value > b.value end
      if a.seq ~= b.seq then return a.seq < b.seq end
      return a.rank < b.rank
    end)
  end
  return items
end

local function reclaim(now, batch)
  local expired = redis.call('ZRANGEBYSCORE', K_leases, '-inf', now, 'LIMIT', 0, batch)
  for i = 1, #expired do
    end_lease(expired[i])
    requeue(expired[i])
  end
  if #expired > 0 then redis.call('HINCRBY', K_counters, 'reclaimed', #expired) end
  return #expired
end

local function holds(key, token)
  return redis.call('HGET', K_leaseToken, key) == token
end

local function owes(key, token)
  return redis.call('HGET', K_owedToken, key) == token
end

-- Appends ARGV[first..] to the event log, one JSON event each.
local function log_events(first)
  for i = first, #ARGV do redis.call('XADD', K_events, '*', 'e', ARGV[i]) end
end

-- The fence of commit and retry: a worker whose lease was handed out again changes nothing, and is counted.
local function fenced_out(key, token)
  if holds(key, token) then return false end
  redis.call('HINCRBY', K_counters, 'stale', 1)
  return true
end
`;

/**
 * ARGV: maxQueued, budget, then (key, score, host, entryJson) per offer.
 * Returns {outcomes, evicted}, evicted as (key, entryJson, host, score) groups.
 */
const ENQUEUE = `
local room = math.min(limit(ARGV[1]), limit(ARGV[2]) - counter('charged'))
local outcomes, evicted = {}, {}
local tally = { duplicates = 0, rescored = 0, rejected = 0, evicted = 0 }
for i = 3, #ARGV, 4 do
  local key, score, host, json = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  local state = redis.call('HGET', K_state, key)
  local outcome
  if state == 'q' or state == 'r' then
    local queue = state == 'q' and K_fresh or K_requeued
    if tonumber(score) > tonumber(redis.call('ZSCORE', queue, key)) then
      redis.call('ZADD', queue, score, key)
      redis.call('HSET', K_entry, key, json)
      redis.call('HSET', K_score, key, score)
      outcome = 'rescored'
    else
      outcome = 'duplicate'
    end
  elseif state then
    outcome = 'duplicate' -- leased, done or failed: never resurrected
  else
    outcome = 'queued'
    if redis.call('ZCARD', K_fresh) >= room then
      local worst = redis.call('ZRANGE', K_fresh, 0, 0, 'WITHSCORES')
      if #worst == 0 or tonumber(worst[2]) >= tonumber(score) then
        outcome = 'rejected'
      else
        local out = worst[1]
        table.insert(evicted, out)
        table.insert(evicted, redis.call('HGET', K_entry, out))
        table.insert(evicted, redis.call('HGET', K_host, out))
        table.insert(evicted, worst[2])
        redis.call('ZREM', K_fresh, out)
        redis.call('HDEL', K_state, out)
        redis.call('HDEL', K_entry, out)
        redis.call('HDEL', K_host, out)
        redis.call('HDEL', K_score, out)
        redis.call('HDEL', K_discovery, out)
        tally.evicted = tally.evicted + 1
      end
    end
    if outcome == 'queued' then
      redis.call('HSET', K_state, key, 'q')
      redis.call('HSET', K_entry, key, json)
      redis.call('HSET', K_host, key, host)
      redis.call('HSET', K_score, key, score)
      redis.call('HSET', K_discovery, key, redis.call('INCR', K_discoverySeq))
      redis.call('ZADD', K_fresh, score, key)
    end
  end
  if outcome == 'duplicate' then tally.duplicates = tally.duplicates + 1 end
  if outcome == 'rescored' then tally.rescored = tally.rescored + 1 end
  if outcome == 'rejected' then tally.rejected = tally.rejected + 1 end
  table.insert(outcomes, outcome)
end
for name, n in pairs(tally) do
  if n > 0 then redis.call('HINCRBY', K_counters, name, n) end
end
return { outcomes, evicted }
`;

/**
 * ARGV: workerId, max, leaseMillis, budget, maxInFlightPerHost, minDelayPerHostMillis, scanWindow, reclaimBatch,
 * maxInFlightPerNewHost, then the fresh keys the caller prefers.
 * Returns {status, waitMillis or '', stopReason or '', leases}; each lease is
 * {key, token, entryJson, host, score, attempts, deadline}.
 */
const LEASE = `
local worker, max, lease_ms = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local budget, max_in_flight, min_delay = limit(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local window, reclaim_batch = tonumber(ARGV[7]), tonumber(ARGV[8])
local max_in_flight_new = math.min(max_in_flight, tonumber(ARGV[9]))
local now = now_ms()
reclaim(now, reclaim_batch)
local stop = redis.call('GET', K_stop)
local charged = counter('charged')
local leases = {}
local earliest = nil

local function fresh_open()
  return not stop and charged < budget
end

local function host_free(host)
  -- a host none of whose leases ended done or failed takes fewer: a dead one then fails one page, not a burst
  local cap = max_in_flight
  if redis.call('SISMEMBER', K_hostAnswered, host) == 0 then cap = max_in_flight_new end
  if tonumber(redis.call('HGET', K_hostInFlight, host) or '0') >= cap then return false end
  local next_at = tonumber(redis.call('HGET', K_hostNext, host) or '0')
  if next_at > now then
    if not earliest or next_at < earliest then earliest = next_at end
    return false
  end
  return true
end

local function hand_out(queue, key, score, fresh)
  redis.call('ZREM', queue, key)
  if fresh then
    -- charged once, here, in the step that hands it out; a requeued URL keeps its charge
    charged = charged + 1
    redis.call('HINCRBY', K_counters, 'charged', 1)
  end
  local token = redis.call('INCR', K_tokenSeq)
  local deadline = now + lease_ms
  redis.call('HSET', K_state, key, 'l')
  redis.call('HSET', K_leaseToken, key, token)
  redis.call('HSET', K_leaseWorker, key, worker)
  redis.call('ZADD', K_leases, deadline, key)
  local host = redis.call('HGET', K_host, key)
  redis.call('HINCRBY', K_hostInFlight, host, 1)
  local delay = math.max(min_delay, tonumber(redis.call('HGET', K_hostDelay, host) or '0'))
  if delay > 0 and now + delay > tonumber(redis.call('HGET', K_hostNext, host) or '0') then
    redis.call('HSET', K_hostNext, host, now + delay)
  end
  table.insert(leases, { key, tostring(token), redis.call('HGET', K_entry, key), host, score,
    redis.call('HGET', K_attempts, key) or '0', tostring(deadline) })
end

local function take_best(queue, fresh)
  if #leases >= max or (fresh and not fresh_open()) then return end
  for _, candidate in ipairs(best_first(queue, window)) do
    if #leases >= max or (fresh and not fresh_open()) then break end
    local key = candidate.key
    if host_free(redis.call('HGET', K_host, key)) then hand_out(queue, key, candidate.score, fresh) end
  end
end

take_best(K_requeued, false)
-- ARGV[10..]: fresh keys the caller prefers, in its order
for i = 10, #ARGV do
  if #leases >= max or not fresh_open() then break end
  local key = ARGV[i]
  if redis.call('HGET', K_state, key) == 'q' and host_free(redis.call('HGET', K_host, key)) then
    hand_out(K_fresh, key, redis.call('ZSCORE', K_fresh, key), true)
  end
end
take_best(K_fresh, true)

local has_work = redis.call('ZCARD', K_requeued) > 0 or (redis.call('ZCARD', K_fresh) > 0 and fresh_open())
local status
if #leases > 0 then status = 'leased'
elseif has_work then status = 'busy'
elseif redis.call('ZCARD', K_leases) > 0 then status = 'empty'
else status = 'finished' end
local wait = ''
if #leases == 0 and has_work and earliest then wait = tostring(earliest - now) end
return { status, wait, stop or '', leases }
`;

/**
 * ARGV: leaseMillis, then (key, token) pairs. Returns one new deadline per lease or owed delivery held under the
 * token, '' for one not held.
 */
const EXTEND = `
local deadline = now_ms() + tonumber(ARGV[1])
local deadlines = {}
for i = 2, #ARGV, 2 do
  local key, token = ARGV[i], ARGV[i + 1]
  if holds(key, token) then
    redis.call('ZADD', K_leases, 'XX', deadline, key)
    table.insert(deadlines, tostring(deadline))
  elseif owes(key, token) then
    redis.call('ZADD', K_owedDue, 'XX', deadline, key)
    table.insert(deadlines, tostring(deadline))
  else
    table.insert(deadlines, '')
  end
end
return deadlines
`;

/**
 * ARGV: key, token, 'done' | 'failed' | 'dropped', leaseMillis, the dataset item JSON ('' for none), then one JSON
 * string per event to log. Returns 'ok' or 'stale'.
 */
const COMMIT = `
local key, token, outcome, item = ARGV[1], ARGV[2], ARGV[3], ARGV[5]
if fenced_out(key, token) then return 'stale' end
local host = end_lease(key)
if outcome ~= 'dropped' then redis.call('SADD', K_hostAnswered, host) end
finish(key, outcome)
log_events(6)
if outcome == 'done' and item ~= '' then
  redis.call('HSET', K_owed, key, item)
  redis.call('HSET', K_owedToken, key, token)
  redis.call('ZADD', K_owedDue, now_ms() + tonumber(ARGV[4]), key)
end
return 'ok'
`;

/** ARGV: key, token. Returns 'ok' (the delivery is owed no more) or 'stale' (another worker claimed it). */
const ACKNOWLEDGE = `
local key, token = ARGV[1], ARGV[2]
if not owes(key, token) then return 'stale' end
redis.call('HDEL', K_owed, key)
redis.call('HDEL', K_owedToken, key)
redis.call('ZREM', K_owedDue, key)
return 'ok'
`;

/** ARGV: max, leaseMillis. Re-fences owed deliveries past their deadline; returns (key, token, itemJson) groups. */
const CLAIM_DELIVERIES = `
local now = now_ms()
local due = redis.call('ZRANGEBYSCORE', K_owedDue, '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local out = {}
for i = 1, #due do
  local key = due[i]
  local token = redis.call('INCR', K_tokenSeq)
  redis.call('HSET', K_owedToken, key, token)
  redis.call('ZADD', K_owedDue, now + tonumber(ARGV[2]), key)
  table.insert(out, key)
  table.insert(out, tostring(token))
  table.insert(out, redis.call('HGET', K_owed, key))
end
if #due > 0 then redis.call('HINCRBY', K_counters, 'redelivered', #due) end
return out
`;

/** ARGV: key, token, maxAttempts. Returns 'queued', 'failed' or 'stale'. */
const RETRY = `
local key, token = ARGV[1], ARGV[2]
if fenced_out(key, token) then return 'stale' end
local host = end_lease(key)
if redis.call('HINCRBY', K_attempts, key, 1) >= tonumber(ARGV[3]) then
  redis.call('SADD', K_hostAnswered, host)
  finish(key, 'failed')
  return 'failed'
end
requeue(key)
redis.call('HINCRBY', K_counters, 'retried', 1)
return 'queued'
`;

/** ARGV: batch. Returns how many expired leases were taken back (at most batch). */
const RECLAIM = `
return reclaim(now_ms(), tonumber(ARGV[1]))
`;

/** ARGV: host, delayMillis. */
const BACK_OFF = `
local host = ARGV[1]
local until_at = now_ms() + tonumber(ARGV[2])
if until_at > tonumber(redis.call('HGET', K_hostNext, host) or '0') then redis.call('HSET', K_hostNext, host, until_at) end
return tostring(until_at)
`;

/** ARGV: (key, score) pairs. Sets the score of queued keys, up or down. Returns how many were queued. */
const RESCORE = `
local changed = 0
for i = 1, #ARGV, 2 do
  local key, score = ARGV[i], ARGV[i + 1]
  local state = redis.call('HGET', K_state, key)
  if state == 'q' or state == 'r' then
    redis.call('ZADD', state == 'q' and K_fresh or K_requeued, 'XX', score, key)
    redis.call('HSET', K_score, key, score)
    changed = changed + 1
  end
end
return changed
`;

/** ARGV: reason. The first reason wins; returns the one in force. */
const STOP = `
redis.call('SET', K_stop, ARGV[1], 'NX')
return redis.call('GET', K_stop)
`;

/** ARGV: max. The best max URLs of requeued, then of fresh, as (key, score, entryJson, host) groups. */
const QUEUED = `
local out = {}
for _, queue in ipairs({ K_requeued, K_fresh }) do
  for _, item in ipairs(best_first(queue, tonumber(ARGV[1]))) do
    local key = item.key
    table.insert(out, key)
    table.insert(out, item.score)
    table.insert(out, redis.call('HGET', K_entry, key) or 'null')
    table.insert(out, redis.call('HGET', K_host, key) or '')
  end
end
return out
`;

/** ARGV: key, token, then one JSON string per event to log. Returns 'ok', or 'stale' (nothing logged). */
const ANNOUNCE = `
local key, token = ARGV[1], ARGV[2]
if not holds(key, token) then return 'stale' end
log_events(3)
return 'ok'
`;

/** Returns {fresh, requeued, leased, counters as a flat HGETALL list, stopReason or '', owed}, read in one step. */
const STATUS = `
return {
  redis.call('ZCARD', K_fresh), redis.call('ZCARD', K_requeued), redis.call('ZCARD', K_leases),
  redis.call('HGETALL', K_counters), redis.call('GET', K_stop) or '', redis.call('ZCARD', K_owedDue)
}
`;

/** The store's scripts by command name, each with the shared prelude. All take {@link FRONTIER_KEY_NAMES} as KEYS. */
export const FRONTIER_SCRIPTS = {
    cfEnqueue: ENQUEUE,
    cfLease: LEASE,
    cfExtend: EXTEND,
    cfCommit: COMMIT,
    cfAnnounce: ANNOUNCE,
    cfAcknowledge: ACKNOWLEDGE,
    cfClaimDeliveries: CLAIM_DELIVERIES,
    cfRetry: RETRY,
    cfReclaim: RECLAIM,
    cfBackOff: BACK_OFF,
    cfRescore: RESCORE,
    cfStop: STOP,
    cfStatus: STATUS,
    cfQueued: QUEUED,
} as const;

export type FrontierScriptName = keyof typeof FRONTIER_SCRIPTS;

export function scriptSource(name: FrontierScriptName): string {
    return SCRIPT_PRELUDE + FRONTIER_SCRIPTS[name];
}
