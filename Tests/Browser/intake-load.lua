-- wrk script for the intake load test: posts JSON comments and counts the answers by status.
-- Each thread counts in its own Lua state; done() adds them up and prints "status CODE COUNT".
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"machine": "desk-fan", "part": "motor", "author": "Loader", "body": "A comment from the load test."}'

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
  end
  for status, count in pairs(total) do
    io.write(string.format("status %d %d\n", status, count))
  end
end
