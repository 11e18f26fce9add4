"""An internal service on the ring host's loopback, which no source may ever reach: counts
the requests it gets and answers {"v": 42}.

    python3 internal.py PORT COUNT-FILE
"""

import http.server
import sys

port, count_file = int(sys.argv[1]), sys.argv[2]
hits = 0
open(count_file, "w").write("0")


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        global hits
        hits += 1
        open(count_file, "w").write(str(hits))
        body = b'{"v": 42}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
