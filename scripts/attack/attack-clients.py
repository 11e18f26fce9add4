#!/usr/bin/env python3
"""Misbehaving and checking clients for scripts/attack/attack.sh (loopback only, bounded in count and time).

  attack-clients.py idle PORT COUNT SECONDS [SOURCE]
                                          hold COUNT keep-alive connections, each after one request,
                                          from the loopback address SOURCE (default 127.0.0.1)
  attack-clients.py reset PORT COUNT             open COUNT connections, send half a request, reset them
  attack-clients.py drain PORT SECONDS           keep-alive requests on 8 connections until the server goes
                                          away; report complete and truncated responses
"""
import socket
import struct
import sys
import threading
import time

REQUEST = b"GET /ring.svg?p=72&slice=0.45 HTTP/1.1\r\nHost: attack\r\n\r\n"


def read_response(sock, buffer=b""):
    """Reads one response; returns (status, complete, rest). complete is False if the body was cut."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            return None, bool(buffer) is False, b""
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
        chunk = sock.recv(65536)
        if not chunk:
            return status, False, b""
        rest += chunk
    return status, True, rest[length:]


def idle(port, count, seconds, source="127.0.0.1"):
    sockets = []
    failures = 0
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
            sock.sendall(REQUEST)
            status, complete, _ = read_response(sock)
            if status != 200 or not complete:
                failures += 1
            sockets.append(sock)
        except OSError:
            failures += 1
    print(f"idle: holding {len(sockets)} connections ({failures} failed)", flush=True)
    time.sleep(seconds)
    still_open = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            still_open += sock.recv(1) == b"" and 0 or 0
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
        sock.close()
    print(f"idle: {still_open} of {len(sockets)} still open after {seconds}s")


def reset(port, count):
    done = 0
    for index in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(REQUEST[: 10 + index % 30])
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
            done += 1
        except OSError:
            pass
    print(f"reset: {done} connections reset mid-request")


def drain(port, seconds):
    complete = truncated = errors = 0
    lock = threading.Lock()
    stop = time.time() + seconds

    def worker():
        nonlocal complete, truncated, errors
        while time.time() < stop:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            except OSError:
                time.sleep(0.01)
                continue
            rest = b""
            try:
                while time.time() < stop:
                    sock.sendall(REQUEST)
                    status, ok, rest = read_response(sock, rest)
                    with lock:
                        if status is None:
                            break  # closed between responses: allowed
                        if ok:
                            complete += 1
                        else:
                            truncated += 1
                            break
            except OSError:
                with lock:
                    errors += 1
            finally:
                sock.close()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"drain: {complete} complete responses, {truncated} cut mid-body, {errors} connection errors")
    sys.exit(1 if truncated else 0)


if __name__ == "__main__":
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "idle":
        idle(port, int(sys.argv[3]), float(sys.argv[4]), *sys.argv[5:6])
    elif mode == "reset":
        reset(port, int(sys.argv[3]))
    elif mode == "drain":
        drain(port, float(sys.argv[3]))
    else:
        sys.exit(__doc__)
