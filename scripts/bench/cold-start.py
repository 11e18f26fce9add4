#!/usr/bin/env python3
"""Cold start: from exec to the first 200 for /ring.svg?p=72, against nginx serving a file.

Each round execs the server and asks, as fast as a socket allows, until the answer is a 200;
the time is from just before exec to the answer's last byte. ring starts as `ring serve`
would in production (defaults, access log off); nginx with a one-file root and its own prefix.
Rounds alternate the two. Prints each median and their ratio as `cold-start ratio R`.

With `--against OTHER`, a second build of ring starts in every round too, and its median and
ratio are printed beside: starts here vary twofold from one minute to the next, so a change
to start-up is judged by two builds started in turn, not by two runs.

Usage: scripts/bench/cold-start.py PATH-TO-ring [ROUNDS] [--against PATH-TO-other-ring]
       (needs nginx)
"""
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

arguments = sys.argv[1:]
other = None
if "--against" in arguments:
    at = arguments.index("--against")
    if at + 1 >= len(arguments):
        sys.exit(__doc__)
    other = arguments[at + 1]
    del arguments[at:at + 2]
ring = arguments[0] if arguments else sys.exit(__doc__)
rounds = int(arguments[1]) if len(arguments) > 1 else 7
nginx = shutil.which("nginx") or sys.exit("cold-start: nginx is not installed")
RING_PORT, NGINX_PORT = 18090, 18091
work = tempfile.mkdtemp(prefix="ring-cold-")
with open(os.path.join(work, "ring.svg"), "wb") as handle:
    handle.write(subprocess.run([ring, "render", "p=72"], capture_output=True, check=True).stdout)
conf = os.path.join(work, "nginx.conf")
with open(conf, "w") as handle:
    handle.write(f"""daemon off; master_process off; worker_processes 1; pid {work}/nginx.pid;
error_log {work}/error.log; events {{ worker_connections 64; }}
http {{ access_log off; client_body_temp_path {work}; proxy_temp_path {work}; fastcgi_temp_path {work};
uwsgi_temp_path {work}; scgi_temp_path {work};
server {{ listen 127.0.0.1:{NGINX_PORT}; location / {{ root {work}; try_files /ring.svg =404;
default_type image/svg+xml; }} }} }}
""")


def first_ok(port):
    """Seconds until GET /ring.svg?p=72 on `port` answers 200, asking again at once when refused."""
    request = b"GET /ring.svg?p=72 HTTP/1.1\r\nHost: cold\r\nConnection: close\r\n\r\n"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
                connection.sendall(request)
                answer = b""
                while chunk := connection.recv(65536):
                    answer += chunk
                if answer.startswith(b"HTTP/1.1 200"):
                    return time.monotonic()
        except OSError:
            pass
    raise SystemExit(f"cold-start: nothing answered 200 on {port} within 10 s")


def measure(command, port):
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return (first_ok(port) - started) * 1000
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise SystemExit(f"cold-start: {command[0]} did not stop on SIGTERM")


def serve(binary):
    return [binary, "serve", "--host", "127.0.0.1", "--port", str(RING_PORT), "--access-log", "off"]


times = {"ring": [], "nginx": []} | ({"other": []} if other else {})
for _ in range(rounds):
    times["ring"].append(measure(serve(ring), RING_PORT))
    if other:
        times["other"].append(measure(serve(other), RING_PORT))
    times["nginx"].append(measure([nginx, "-p", work, "-e", f"{work}/error.log", "-c", conf], NGINX_PORT))
shutil.rmtree(work)
for name, values in times.items():
    print(f"cold-start {name}: median {statistics.median(values):.1f} ms "
          f"({min(values):.1f}–{max(values):.1f}, {rounds} starts)")
print(f"cold-start ratio {statistics.median(times['ring']) / statistics.median(times['nginx']):.2f}")
if other:
    print(f"cold-start other-ratio {statistics.median(times['other']) / statistics.median(times['nginx']):.2f}")
