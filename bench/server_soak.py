#!/usr/bin/env python3
"""A mixed soak of `permuzzle serve` on loopback: the server's memory over time and the latency
of a cheap call under load (issue 22's measurements; not part of `make test`, whose bounded soak
is tests/server_soak_test.cpp).

    bench/server_soak.py --cli build/release/permuzzle --seconds 600 --max-memory 2048

Load, all against 127.0.0.1 and bounded in time: SOLVES threads each posting a 24-puzzle
Manhattan IDA* (CPU-bound until the request's time limit), JOBS threads starting jobs whose
results are large (a 14-disk Hanoi move list, a few MB), SLOW connections each feeding its
request one byte every 100 ms (cut off by the server's head deadline, then reopened), and one
client posting `perm/order` every 5 ms and timing it. The server's resident memory is sampled
every second. Prints one JSON object: latency quantiles, answers by status, RSS samples.
"""
import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

HARD_24 = ("14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13")


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def post(port, path, body, timeout=60):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        r = c.getresponse()
        data = r.read()
        return r.status, data
    finally:
        c.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="build/release/permuzzle")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--max-memory", type=int, default=2048)
    ap.add_argument("--solves", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--slow", type=int, default=100)
    args = ap.parse_args()

    port = 20000 + random.randrange(20000)
    server = subprocess.Popen(
        [args.cli, "-q", "--tables", "none", "--time-limit", "5", "serve", "--port", str(port),
         "--max-memory", str(args.max_memory), "--max-solves", str(args.solves)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    server.stdout.readline()  # "listening on ..."
    stop_at = time.monotonic() + args.seconds
    lock = threading.Lock()
    statuses = {}
    latencies = []
    rss = []

    def count(kind, status):
        with lock:
            statuses.setdefault(kind, {}).setdefault(str(status), 0)
            statuses[kind][str(status)] += 1

    def solver():
        while time.monotonic() < stop_at:
            try:
                s, _ = post(port, "/api/v1/sliding/solve",
                            {"position": HARD_24, "heuristic": "manhattan", "threads": 1})
            except OSError:
                s = "error"
            count("solve", s)

    def jobs():
        while time.monotonic() < stop_at:
            try:
                s, data = post(port, "/api/v1/jobs",
                               {"family": "hanoi", "verb": "solve", "params": {"disks": 14}})
                count("job-start", s)
                if s == 202:
                    job = json.loads(data)["id"]
                    while time.monotonic() < stop_at:
                        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                        c.request("GET", f"/api/v1/jobs/{job}")
                        r = c.getresponse()
                        state = json.loads(r.read()).get("state")
                        c.close()
                        if state != "running":
                            count("job-end", state)
                            break
                        time.sleep(0.2)
                else:
                    time.sleep(0.5)
            except OSError:
                count("job-start", "error")

    def slow():
        request = b"POST /api/v1/perm/order HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        while time.monotonic() < stop_at:
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                for byte in request:
                    if time.monotonic() >= stop_at:
                        break
                    s.send(bytes([byte]))
                    time.sleep(0.1)
                s.close()
                count("slow", "cut" )
            except OSError:
                count("slow", "closed")
                time.sleep(0.1)

    def cheap():
        n = 2
        while time.monotonic() < stop_at:
            t = time.monotonic()
            try:
                s, _ = post(port, "/api/v1/perm/order", {"perm": f"(1,2,{n + 1})"}, timeout=30)
            except OSError:
                s = "error"
            ms = (time.monotonic() - t) * 1000
            with lock:
                latencies.append(ms)
            count("perm/order", s)
            n += 1
            time.sleep(0.005)

    threads = [threading.Thread(target=solver) for _ in range(args.solves)]
    threads += [threading.Thread(target=jobs) for _ in range(args.jobs)]
    threads += [threading.Thread(target=slow) for _ in range(args.slow)]
    threads += [threading.Thread(target=cheap)]
    start = time.monotonic()
    for t in threads:
        t.daemon = True
        t.start()
    while time.monotonic() < stop_at:
        rss.append((round(time.monotonic() - start, 1), rss_bytes(server.pid)))
        time.sleep(1)
    for t in threads:
        t.join(timeout=30)
    server.terminate()
    server.wait(timeout=30)

    lat = sorted(latencies)
    q = lambda p: round(lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else None
    mib = [r for _, r in rss]
    tenth = max(1, len(mib) // 10)
    print(json.dumps({
        "seconds": args.seconds,
        "max_memory_mb": args.max_memory,
        "perm_order_ms": {"p50": q(0.5), "p90": q(0.9), "p99": q(0.99), "max": q(1.0),
                          "count": len(lat)},
        "answers": statuses,
        "rss_mb": {"first_tenth_mean": round(sum(mib[:tenth]) / tenth / 2**20, 1),
                   "last_tenth_mean": round(sum(mib[-tenth:]) / tenth / 2**20, 1),
                   "max": round(max(mib) / 2**20, 1), "samples": len(mib)},
    }, indent=1))


if __name__ == "__main__":
    sys.exit(main())
