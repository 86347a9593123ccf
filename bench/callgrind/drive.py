# Sends N keep-alive requests of one workload to a trellis on 127.0.0.1:PORT (bench/callgrind/run.sh).
import http.client
import json
import os
import sys
import time

# The benchmark driver's tree builder, so both measure the same requests.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from run import nested_tree  # noqa: E402

port, n, which = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
bodies = {
 "outline20": ("/v1/outline/expansion", {"nodes": nested_tree(20, 3), "selection": 17}),
 "rows20": ("/v1/outline/rows", {"nodes": nested_tree(20, 3), "selection": 17}),
 "sections": ("/v1/sections/toggle", {"sections":[{"id":"s%d"%i,"items":["a","b"]} for i in range(50)],"expanded":["s0","s7"],"toggle":"s20"}),
}
path, body = bodies[which]
data = json.dumps(body, separators=(",", ":")).encode()
for _ in range(100):
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60); c.request("GET", "/healthz"); c.getresponse().read(); break
    except Exception: time.sleep(0.5)
c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
for _ in range(n):
    c.request("POST", path, body=data, headers={"Content-Type": "application/json"})
    r = c.getresponse(); r.read(); assert r.status == 200, r.status
