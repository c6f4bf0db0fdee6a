-- wrk script for the intake load test: posts JSON comments and counts the answers by status.
-- Each thread counts in its own Lua state; done() adds them up and prints "status CODE COUNT".
-- Every comment says something new: the service answers a repeat of the same words with the
-- first one's id and does not store it twice.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

function init(args)
  statuses = {}
  sent = 0
end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

function request()
  sent = sent + 1
  local body = string.format('{"machine": "desk-fan", "part": "motor", "author": "Loader", '
    .. '"body": "Comment %d of thread %d of the load test."}', sent, id)
  return wrk.format(nil, nil, nil, body)
end

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
