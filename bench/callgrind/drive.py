# Sends N keep-alive requests of one workload to a server on 127.0.0.1:PORT (bench/callgrind/run.sh).
# WORKLOAD is a short name from bench/run.py's bodies(): the benchmark's own requests.
import http.client
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from run import bodies  # noqa: E402

port, n, which = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
method, path, body = bodies()[which]
data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode() if body is not None else None
headers = {"Content-Type": "application/json"} if data is not None else {}
for _ in range(100):
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60); c.request("GET", "/healthz"); c.getresponse().read(); break
    except Exception: time.sleep(0.5)
c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
for _ in range(n):
    c.request(method, path, body=data, headers=headers)
    r = c.getresponse(); r.read(); assert r.status == 200, r.status
