#!/usr/bin/env python3
"""Drives a server started with `ferry-bench --serve PORT` from another process, one
request at a time on one keep-alive connection, and prints the rate and the server's CPU
time per request (read from /proc, all its threads).

    .build/release/ferry-bench --serve 8123 &
    python3 Benchmarks/http-loop.py 8123 PID health 20000
    python3 Benchmarks/http-loop.py 8123 PID batch 200      # batches of 100 PUTs
    python3 Benchmarks/http-loop.py 8123 PID health-batch 200   # batches of 100 GET /v1/health

The client is not AsyncHTTPClient, so its own cost and the server's can be told apart.
"""

import http.client
import json
import os
import sys
import time
import uuid


def cpu_ns(pid):
    """CPU time of every thread of `pid`, in nanoseconds (schedstat's first field)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return total


def main():
    port, pid, mode, count = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request(
        "POST",
        "/v1/auth/login",
        body=json.dumps({"username": "demo", "password": "demo-password"}),
        headers={"Content-Type": "application/json"},
    )
    token = json.loads(connection.getresponse().read())["access_token"]
    authorization = {"Authorization": f"Bearer {token}"}
    prefix = uuid.uuid4().hex[:8]

    def batch_body(first):
        items = [
            {
                "method": "PUT",
                "path": f"/v1/recipes/{prefix}-{i}",
                "headers": {"Idempotency-Key": str(uuid.uuid4())},
                "body": {"title": f"Recipe {i}"},
            }
            for i in range(first, first + 100)
        ]
        return json.dumps({"requests": items})

    def send(index):
        if mode == "health":
            connection.request("GET", "/v1/health")
        elif mode == "put":
            connection.request(
                "PUT",
                f"/v1/recipes/{prefix}-{index}",
                body=json.dumps({"title": f"Recipe {index}"}),
                headers={**authorization, "Idempotency-Key": str(uuid.uuid4()), "Content-Type": "application/json"},
            )
        else:
            connection.request(
                "POST", "/v1/batch", body=bodies[index], headers={**authorization, "Content-Type": "application/json"}
            )
        response = connection.getresponse()
        response.read()
        if response.status >= 300:
            sys.exit(f"{mode} answered {response.status}")

    if mode == "health-batch":
        health = json.dumps({"requests": [{"method": "GET", "path": "/v1/health"} for _ in range(100)]})
        bodies = [health] * count
    else:
        bodies = [batch_body(i * 100) for i in range(count)] if mode == "batch" else None
    writes = count * 100 if mode in ("batch", "health-batch") else count
    cpu_before, started = cpu_ns(pid), time.perf_counter()
    for index in range(count):
        send(index)
    elapsed, cpu = time.perf_counter() - started, cpu_ns(pid) - cpu_before
    print(
        f"{mode}: {count} requests in {elapsed:.3f} s, {count / elapsed:,.0f} req/s, {writes / elapsed:,.0f} ops/s; "
        f"server CPU {cpu / 1e3 / count:.1f} µs per request, {cpu / 1e3 / writes:.1f} µs per write"
    )


main()
