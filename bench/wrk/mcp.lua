-- wrk script for bench/run.sh: POSTs JSON-RPC bodies to an MCP endpoint (or GETs a plain URL),
-- checks every answer, and prints one machine-readable line at the end.
--
-- Configured by environment variables (wrk evaluates this file in several Lua states, and only
-- top-level code runs in all of them, so the mode cannot come from `-- args`):
--   WRK_MODE   get    plain GET of the URL (e.g. /heartbeat)
--              fixed  POST the contents of WRK_BODY every time (a static request: cheapest for wrk)
--              ids    POST WRK_BODY with every "__ID__" replaced by a random integer 1..WRK_MAX_ID
--              lines  POST the lines of WRK_BODY in turn (one JSON body per line)
--   WRK_BODY   file with the body (or bodies)
--   WRK_MAX_ID largest id for mode ids (default 1000)
--   WRK_VERSION an MCP-Protocol-Version header to send (none by default: the server assumes 2025-03-26)
-- Headers: Content-Type: application/json, Accept: application/json, text/event-stream. No session:
-- both servers answer stateless POSTs.
--
-- An answer counts as failed when its status is not 2xx (wrk counts those itself) or when its body
-- holds a top-level JSON-RPC "error" member or a tool result with "isError":true (a 200 that is
-- an error).
-- Output (latencies in microseconds):
--   BENCH requests=N duration_us=N rps=X p50=N p90=N p99=N max=N non2xx=N socket_errors=N rpc_errors=N

local mode = os.getenv("WRK_MODE") or "get"
local body_file = os.getenv("WRK_BODY")
local max_id = tonumber(os.getenv("WRK_MAX_ID") or "1000")

local function read_file(path)
  local f = assert(io.open(path, "rb"), "cannot read " .. tostring(path))
  local text = f:read("*a")
  f:close()
  return text
end

if mode ~= "get" then
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  if os.getenv("WRK_VERSION") then
    wrk.headers["MCP-Protocol-Version"] = os.getenv("WRK_VERSION")
  end
end

if mode == "fixed" then
  wrk.body = (read_file(body_file):gsub("%s+$", ""))
elseif mode == "ids" then
  local template = (read_file(body_file):gsub("%s+$", ""))
  -- split once, so a request costs one concatenation
  local before, after = template:match("^(.-)__ID__(.*)$")
  assert(before, "WRK_BODY has no __ID__")
  function request()
    return wrk.format(nil, nil, nil, before .. math.random(1, max_id) .. after)
  end
elseif mode == "lines" then
  local bodies = {}
  for line in read_file(body_file):gmatch("[^\n]+") do
    bodies[#bodies + 1] = line
  end
  assert(#bodies > 0, "WRK_BODY has no lines")
  local i = 0
  function request()
    i = i % #bodies + 1
    return wrk.format(nil, nil, nil, bodies[i])
  end
end

local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("seed", thread_count)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(seed * 7919 + os.time())
  rpc_errors = 0
end

function response(status, headers, body)
  if body and (body:find('"error":', 1, true) or body:find('"isError":true', 1, true)) then
    -- a JSON-RPC error or a tool error result at the top level (escaped quotes inside result
    -- text do not match)
    rpc_errors = rpc_errors + 1
  end
end

function done(summary, latency, requests)
  local rpc = 0
  for _, thread in ipairs(threads) do
    rpc = rpc + (thread:get("rpc_errors") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_us=%d rps=%.1f p50=%d p90=%d p99=%d max=%d non2xx=%d socket_errors=%d rpc_errors=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.status, e.connect + e.read + e.write + e.timeout, rpc))
end
