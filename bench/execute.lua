-- wrk script: POST one MCP tools/call of `execute` (stateless, no session) for the tool and
-- inputs given in the environment: TOOL and INPUTS (a JSON object).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"execute","arguments":{"tool":"'
  .. os.getenv("TOOL") .. '","inputs":' .. os.getenv("INPUTS") .. '}}}'

local failures = 0
response = function(status, headers, body)
  if status ~= 200 or not string.find(body, '"result"', 1, true) then
    failures = failures + 1
    if failures == 1 then
      io.stderr:write("unexpected response: " .. status .. " " .. body .. "\n")
    end
  end
end
