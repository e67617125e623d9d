#!/usr/bin/env python3
"""Times doska's read endpoints on a running server: each endpoint REQUESTS times over one
kept-alive connection (after a warm-up), p50 / p99 / max in milliseconds.

    python3 bench/stats/time.py http://127.0.0.1:18090 [REQUESTS]

`/api/games` is asked by a new player (a cookie with no games): its cost must not grow with
the games of everyone else.
"""

from __future__ import annotations

import http.client
import sys
import time
from urllib.parse import urlparse


def main() -> None:
    url = urlparse(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    conn.request("GET", "/api/stats")
    r = conn.getresponse()
    r.read()
    cookie = (r.getheader("Set-Cookie") or "").split(";")[0]
    headers = {"Cookie": cookie} if cookie else {}
    for path in ["/api/stats", "/api/games", "/metrics"]:
        times = []
        for i in range(n + 10):
            t = time.perf_counter()
            conn.request("GET", path, headers=headers)
            resp = conn.getresponse()
            body = resp.read()
            if resp.status != 200:
                raise SystemExit(f"{path}: {resp.status} {body[:200]!r}")
            if i >= 10:
                times.append((time.perf_counter() - t) * 1000)
        times.sort()
        p = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
        print(f"{path:12} p50 {p(0.5):7.2f} ms  p99 {p(0.99):7.2f} ms  max {times[-1]:7.2f} ms  ({n} requests)")


if __name__ == "__main__":
    main()
