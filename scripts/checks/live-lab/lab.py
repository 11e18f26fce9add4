"""The live-value lab's checks, run inside the ring host's network namespace by
scripts/checks/check-live-sources.sh (which builds the namespaces, the DNS responder and the document
server). Starts `ring serve` itself, once per check, on the backend given.

    python3 lab.py PATH-TO-ring --io epoll|dispatch WORK-DIR
"""

import concurrent.futures
import http.client
import os
import resource
import socket
import subprocess
import sys
import time
import urllib.parse

ring, io, work = sys.argv[1], sys.argv[3], sys.argv[4]
PORT = 8080
ALLOW = "pub.test,*.wild.test,rebind.test"
failed = False


def check(description, ok, detail=""):
    global failed
    print(f"  {'PASS' if ok else 'FAIL'}  [{io}] {description}{'' if ok else ' — ' + str(detail)}", flush=True)
    failed |= not ok


def src(url):
    return "src=" + urllib.parse.quote(url, safe="")


def get(target, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    started = time.monotonic()
    connection.request("GET", target)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, dict((k.lower(), v) for k, v in response.getheaders()), body, time.monotonic() - started


class Ring:
    def __init__(self, *flags, fd_limit=None):
        def limit():
            if fd_limit:
                resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))

        self.log = open(os.path.join(work, f"ring-{io}.log"), "ab")
        self.process = subprocess.Popen(
            [ring, "serve", "--port", str(PORT), "--io", io, "--access-log", "off", "--source-allow", ALLOW, "--source-allow-http", *flags],
            stdout=self.log, stderr=self.log, preexec_fn=limit)
        for _ in range(200):
            try:
                if get("/healthz", timeout=1)[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f"ring serve --io {io} did not start")

    def alive(self):
        return self.process.poll() is None

    def threads(self):
        return len(os.listdir(f"/proc/{self.process.pid}/task"))

    def rss_kib(self):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def many(targets, workers=64, timeout=30):
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda target: get(target, timeout), targets))


# 1. A redirect to an allowed name whose DNS never answers, forty at once: each gets its error
#    image by the deadline, and the process is alive well past it.
ring_server = Ring("--source-timeout", "1", "--source-per-host", "64", "--source-rate", "1000")
answers = many([f"/ring.svg?{src(f'http://pub.test/redir?to=http://blackx{n}.wild.test/')}&field=v" for n in range(40)])
errors = {a[1].get("x-ring-error") for a in answers}
slowest = max(a[3] for a in answers)
check(f"40 redirects to silent names: each an error image within the deadline (slowest {slowest:.2f} s)",
      errors == {"src: timed out after 1 s (--source-timeout)"} and slowest < 2.5, (errors, slowest))
time.sleep(8)
check("...and the process is alive 8 s later", ring_server.alive() and get("/healthz")[0] == 200)

# 2. A first lookup that answers after 8 s is not waited for.
status, headers, _, took = get(f"/ring.svg?{src('http://slow1.wild.test/doc.json')}&field=v")
check(f"a lookup answering after 8 s ends at --source-timeout 1 ({took:.2f} s)", took < 1.8 and "timed out" in headers.get("x-ring-error", ""),
      (took, headers.get("x-ring-error")))
ring_server.stop()

# 3. Forty names that never resolve, pending: a healthy host's ring comes within 1.5 s, and the
#    threads stay bounded.
ring_server = Ring("--source-timeout", "3")
baseline = ring_server.threads()
pool = concurrent.futures.ThreadPoolExecutor(40)
pending = [pool.submit(get, f"/ring.svg?{src(f'http://never{n}.wild.test/doc.json')}&field=v") for n in range(40)]
time.sleep(1)
status, headers, _, took = get(f"/ring.svg?{src('http://pub.test/doc.json?healthy')}&field=v")
check(f"a healthy host's ring within 1.5 s while 40 names never resolve ({took * 1000:.1f} ms)",
      took < 1.5 and "x-ring-error" not in headers, (took, headers.get("x-ring-error")))
grown = ring_server.threads() - baseline
check(f"threads grow by at most the resolvers' 16 ({grown})", grown <= 16, grown)
for future in pending:
    future.result()
pool.shutdown()
ring_server.stop()

# 4. DNS rebinding: a name with TTL 0 answering the document server and then 127.0.0.1. The
#    internal service on loopback is never reached, and /ring.json never reads its value.
internal_count = os.path.join(work, "internal-hits")
internal = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "internal.py"), "80", internal_count])
time.sleep(0.5)
ring_server = Ring()
values = []
for n in range(12):
    status, headers, body, _ = get(f"/ring.json?{src(f'http://rebind{n % 3}.test/doc.json?n={n}')}&field=v")
    values.append(body)
hits = int(open(internal_count).read() or "0")
check("rebinding: the internal service is never reached", hits == 0 and not any(b'"42' in v for v in values), hits)
ring_server.stop()
internal.terminate()

# 5. Forty new documents of one host asked at once are all drawn.
ring_server = Ring()
answers = many([f"/ring.svg?{src(f'http://pub.test/doc.json?n={n}')}&field=v" for n in range(40)], workers=40)
drawn = sum(1 for a in answers if a[0] == 200 and "x-ring-error" not in a[1])
check("40 new documents of one host at once: all drawn", drawn == 40, drawn)
ring_server.stop()

# 6. Out of descriptors while fetches wait on DNS: 64 descriptors, 20 fetches of silent names,
#    80 idle connections. The process survives and answers once the connections go.
ring_server = Ring("--source-timeout", "3", fd_limit=64)
pool = concurrent.futures.ThreadPoolExecutor(20)
pending = [pool.submit(lambda n=n: get(f"/ring.svg?{src(f'http://quiet{n}.wild.test/doc.json')}&field=v")) for n in range(20)]
idle = []
for _ in range(80):
    try:
        idle.append(socket.create_connection(("127.0.0.1", PORT), timeout=2))
    except OSError:
        break
time.sleep(4)
alive = ring_server.alive()
for connection in idle:
    connection.close()
for future in pending:
    try:
        future.result()
    except Exception:
        pass
pool.shutdown()
time.sleep(0.5)
check("64 descriptors, 20 fetches on silent names, 80 idle connections: alive and answering",
      alive and ring_server.alive() and get("/healthz")[0] == 200)
ring_server.stop()

# 7. 36 000 failing sources with 2 KB URLs: RSS stays within the idle server's plus the source
#    cache's cap (16 MiB) and 16 MiB for the flood's own buffers.
ring_server = Ring("--source-rate", "10000", "--source-per-host", "64", "--source-queue", "65536",
                   "--source-cache-mb", "16")
start_rss = ring_server.rss_kib()
padding = "x" * 1990
targets = [f"/ring.svg?{src(f'http://nx{n}.wild.test/{padding}')}&field=v" for n in range(36000)]
answers = many(targets, workers=32)
errors = sum(1 for a in answers if "does not resolve" in a[1].get("x-ring-error", ""))
rss = ring_server.rss_kib()
limit = start_rss + (16 + 16) * 1024
kept = [line for line in get("/metrics")[2].decode().splitlines() if line.startswith("ring_source_cache_bytes ")]
check(f"36 000 failing sources: RSS {rss // 1024} MiB within {limit // 1024} MiB ({kept[0]})",
      errors == 36000 and rss <= limit and int(kept[0].split()[1]) <= 16 << 20, (errors, rss))
check("...and the healthy host is still drawn",
      "x-ring-error" not in get(f"/ring.svg?{src('http://pub.test/doc.json?after')}&field=v")[1])
ring_server.stop()

# 8. Distinct names that resolve, past a full source cache: no memory kept per name (libcurl
#    keeps a CURLOPT_RESOLVE entry for good unless it is removed; about 210 bytes a name).
ring_server = Ring("--source-rate", "10000", "--source-per-host", "64", "--source-queue", "65536",
                   "--source-cache-mb", "1")
many([f"/ring.svg?{src(f'http://ok{n}.wild.test/doc.json')}&field=v" for n in range(6000)], workers=32)
warm = ring_server.rss_kib()
answers = many([f"/ring.svg?{src(f'http://ok{n}.wild.test/doc.json')}&field=v" for n in range(6000, 18000)],
               workers=32)
grown = ring_server.rss_kib() - warm
drawn = sum(1 for a in answers if "x-ring-error" not in a[1])
check(f"12 000 more distinct names past a full source cache: RSS grew {grown} KiB (at most 1 024)",
      drawn == 12000 and grown <= 1024, (drawn, grown))
ring_server.stop()

sys.exit(1 if failed else 0)
