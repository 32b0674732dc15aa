-- wrk script: each request asks for a random position from the file of API paths named by
-- $PATHS (bench/positions.py writes one); prints percentiles and errors at the end.
local paths = {}
for line in io.lines(os.getenv("PATHS") or "paths.txt") do paths[#paths + 1] = line end
math.randomseed(42)
request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
done = function(summary, latency, requests)
  io.write(string.format("p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.3f ms\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("errors: connect %d, read %d, write %d, timeout %d, non-2xx %d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout,
    summary.errors.status))
end
