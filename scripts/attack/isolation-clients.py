#!/usr/bin/env python3
"""Clients for scripts/attack/isolation.sh (loopback only, bounded in count and time).

  isolation-clients.py probe PORT PATH fresh|keepalive COUNT INTERVAL_MS
        COUNT requests for PATH, one every INTERVAL_MS, on a new connection each or on one
        keep-alive connection; prints "p50 p99 max" latency in ms and fails on any non-200.
  isolation-clients.py pipeline PORT TEMPLATE COUNT
        one connection sends COUNT requests for TEMPLATE ("{n}" a new number each) at once and
        reads every answer; prints "answered STATUS-COUNTS seconds".
  isolation-clients.py fetch PORT TEMPLATE COUNT
        one keep-alive connection asks for TEMPLATE with "{n}" 0 to COUNT-1, one after another
        (the same URLs each run); prints "answered STATUS-COUNTS seconds".
  isolation-clients.py slow PORT PATH COUNT SECONDS
        COUNT connections ask for PATH and read a few bytes a second for SECONDS; prints how
        many got their first bytes.
  isolation-clients.py refused PORT
        exits 0 if a new connection is refused (or reset) within 1 s, 1 if it is accepted
        and left waiting.
  isolation-clients.py documents PORT DELAY_S PEAK_FILE
        serves {"a": 1} to every GET after DELAY_S seconds (/ready at once), one thread a
        connection, and keeps the most requests it held at once in PEAK_FILE (a live-values
        source).
"""
import os
import socket
import sys
import threading
import time


def read_response(sock, buffer=b""):
    """Reads one response; returns (status, rest) or (None, b"") if the connection ended."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            return None, b""
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split(b" ")[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = sock.recv(max(65536, length - len(rest)))
        if not chunk:
            return None, b""
        rest += chunk
    return status, rest[length:]


def request(path, close=False):
    connection = b"Connection: close\r\n" if close else b""
    return b"GET " + path.encode() + b" HTTP/1.1\r\nHost: isolation\r\n" + connection + b"\r\n"


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def probe(port, path, mode, count, interval_ms):
    latencies = []
    failures = 0
    sock = None
    rest = b""
    next_at = time.monotonic()
    for _ in range(count):
        next_at += interval_ms / 1000
        started = time.monotonic()
        try:
            if mode == "fresh" or sock is None:
                sock = socket.create_connection(("127.0.0.1", port), timeout=10)
                rest = b""
            sock.sendall(request(path, close=mode == "fresh"))
            status, rest = read_response(sock, rest)
            if status != 200:
                failures += 1
        except OSError:
            failures += 1
            sock = None
        latencies.append((time.monotonic() - started) * 1000)
        if mode == "fresh" and sock is not None:
            sock.close()
            sock = None
        pause = next_at - time.monotonic()
        if pause > 0:
            time.sleep(pause)
    print(f"{percentile(latencies, 0.5):.2f} {percentile(latencies, 0.99):.2f} {max(latencies):.2f}")
    if failures:
        print(f"probe: {failures} of {count} requests failed", file=sys.stderr)
        sys.exit(1)


def pipeline(port, template, count):
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    started = time.monotonic()
    sock.sendall(b"".join(request(template.replace("{n}", f"{index}.{int(started * 1000) % 100000}"))
                          for index in range(count)))
    statuses = {}
    rest = b""
    for _ in range(count):
        try:
            status, rest = read_response(sock, rest)
        except OSError:
            status = None
        statuses[status] = statuses.get(status, 0) + 1
        if status is None:
            break
    counts = ",".join(f"{status}x{number}" for status, number in sorted(statuses.items(), key=str))
    print(f"answered {counts} {time.monotonic() - started:.2f}")


def fetch(port, template, count):
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    started = time.monotonic()
    statuses = {}
    rest = b""
    for index in range(count):
        sock.sendall(request(template.replace("{n}", str(index))))
        status, rest = read_response(sock, rest)
        statuses[status] = statuses.get(status, 0) + 1
        if status is None:
            break
    counts = ",".join(f"{status}x{number}" for status, number in sorted(statuses.items(), key=str))
    print(f"answered {counts} {time.monotonic() - started:.2f}")


def slow(port, path, count, seconds):
    sockets = []
    for _ in range(count):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(10)
        sock.connect(("127.0.0.1", port))
        sock.sendall(request(path))
        sockets.append(sock)
    started = 0
    for sock in sockets:
        try:
            if sock.recv(16):
                started += 1
        except OSError:
            pass
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for sock in sockets:
            try:
                sock.setblocking(False)
                sock.recv(64)
            except OSError:
                pass
        time.sleep(1)
    print(f"slow: {started} of {count} readers got their first bytes")
    for sock in sockets:
        sock.close()


def refused(port):
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=1)
    except OSError:
        sys.exit(0)  # refused, reset or timed out before connecting: not left waiting
    sock.settimeout(1)
    try:
        sock.sendall(request("/healthz"))
        data = sock.recv(1)
        sys.exit(0 if not data else 1)  # closed at once: refused; an answer means still accepting
    except socket.timeout:
        sys.exit(1)  # accepted into a backlog nobody serves
    except OSError:
        sys.exit(0)


def documents(port, delay, peak_file):
    import http.server

    lock = threading.Lock()
    state = {"open": 0, "peak": 0, "served": 0}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/ready":  # the script's start-up check, not a fetch
                self.send_response(204)
                self.end_headers()
                return
            # A fetch counts as open while it waits for its answer: from its request until
            # just before the first byte of the answer. Counting it until the answer was
            # written raced the client, which can finish reading and start its next fetch
            # before this thread gets the lock back (seen once on a loaded CI machine: 5).
            with lock:
                state["open"] += 1
                state["peak"] = max(state["peak"], state["open"])
            try:
                time.sleep(delay)
            finally:
                with lock:
                    state["open"] -= 1
            body = b'{"a": 1}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            # Written whole and renamed into place: the script may read the file while fetches
            # still in flight are answered, and a truncated file read as empty once ended a CI
            # run without a word.
            with lock:
                state["served"] += 1
                with open(peak_file + ".new", "w") as out:
                    out.write(f"{state['peak']} {state['served']}\n")
                os.replace(peak_file + ".new", peak_file)

        def log_message(self, *arguments):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    command, port = sys.argv[1], int(sys.argv[2])
    if command == "probe":
        probe(port, sys.argv[3], sys.argv[4], int(sys.argv[5]), float(sys.argv[6]))
    elif command == "pipeline":
        pipeline(port, sys.argv[3], int(sys.argv[4]))
    elif command == "fetch":
        fetch(port, sys.argv[3], int(sys.argv[4]))
    elif command == "slow":
        slow(port, sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    elif command == "refused":
        refused(port)
    elif command == "documents":
        documents(port, float(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(f"clients.py: unknown command {command}")
