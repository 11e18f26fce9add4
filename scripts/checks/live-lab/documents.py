"""The live-value lab's document server, on the lab's "internet" side.

    python3 documents.py ADDRESS PORT

  /doc.json?…          {"v": 72}
  /redir?to=URL        302 to URL
  /drip                one byte a second, forever
  /fail                HTTP 500
"""

import http.server
import socketserver
import sys
import time
import urllib.parse

address, port = sys.argv[1], int(sys.argv[2])


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/doc.json":
            self.send(200, b'{"v": 72}', [("Content-Type", "application/json")])
        elif url.path == "/redir":
            self.send(302, b"", [("Location", query["to"][0])])
        elif url.path == "/drip":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(1)
            except OSError:
                pass
        else:
            self.send(500, b"{}")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 1024


Server((address, port), Handler).serve_forever()
