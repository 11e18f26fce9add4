#!/usr/bin/env bash
# Live values over HTTPS, against a certificate authority of our own made with openssl.
#
#   scripts/checks/check-https-source.sh PATH-TO-ring
#
# The fetcher is libcurl with the system's CA bundle, which is what production uses, so the
# check does not hand it a CA of its own: as root on a CI machine, the test CA is added to the system store
# (/usr/local/share/ca-certificates, update-ca-certificates) for the check and removed after it.
# Checks, against an HTTPS document server on 127.0.0.1 with a certificate for localhost:
#   1. with the CA trusted, `src=https://localhost:PORT/…` draws the document's value, with no
#      --source-allow-http;
#   2. the same server's plain-http URL is refused without --source-allow-http, and nothing
#      is fetched;
#   3. with the CA removed, a new ring serve refuses the same HTTPS source: the certificate is
#      checked, not trusted blindly.
set -euo pipefail
ring=${1:?usage: scripts/checks/check-https-source.sh PATH-TO-ring}
for tool in openssl python3 curl update-ca-certificates; do
    command -v "$tool" >/dev/null || { echo "check-https-source: $tool is not installed" >&2; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "check-https-source: needs root to add the test CA to the system store" >&2; exit 1; }
work=$(mktemp -d)
anchor=/usr/local/share/ca-certificates/ring-check-https-source.crt
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ -f "$anchor" ]; then rm -f "$anchor"; update-ca-certificates --fresh >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
failed=0
check() { # check DESCRIPTION CONDITION-EXIT-STATUS
    if [ "$2" -eq 0 ]; then echo "  PASS  $1"; else echo "  FAIL  $1"; failed=1; fi
}

# A CA, and a certificate for localhost signed by it.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=ring check CA" \
    -keyout "$work/ca.key" -out "$work/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$work/server.key" -out "$work/server.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > "$work/san.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
    -extfile "$work/san.ext" -out "$work/server.crt" 2>/dev/null
echo '{"coverage": 72.4}' > "$work/coverage.json"

# The HTTPS document server, and a plain one beside it.
cat > "$work/serve.py" <<'EOF'
import http.server, ssl, sys, functools
directory, port, tls = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "tls"
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=directory)
server = http.server.HTTPServer(("127.0.0.1", port), handler)
if tls:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(directory + "/server.crt", directory + "/server.key")
    server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
EOF
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
https_port=$(free_port)
http_port=$(free_port)
python3 "$work/serve.py" "$work" "$https_port" tls 2>/dev/null & pids+=($!)
python3 "$work/serve.py" "$work" "$http_port" plain 2>/dev/null & pids+=($!)

cp "$work/ca.crt" "$anchor"
update-ca-certificates >/dev/null 2>&1

serve() { # serve: starts ring serve allowing localhost, and sets $base
    local log=$work/serve-$RANDOM.log
    "$ring" serve --host 127.0.0.1 --port 0 --access-log off --source-allow localhost --source-allow-private \
        2> "$log" & pids+=($!)
    for _ in $(seq 50); do grep -q "serving on" "$log" && break; sleep 0.1; done
    base="http://127.0.0.1:$(sed -n 's/.*:\([0-9]*\) (.*/\1/p' "$log" | head -1)"
}
header() { curl -s -o /dev/null -D - "$1" | tr -d '\r' | awk -v name="$2" 'tolower($1) == tolower(name) ":" { $1 = ""; sub(/^ /, ""); print }'; }

for _ in $(seq 50); do curl -s --cacert "$work/ca.crt" "https://localhost:$https_port/coverage.json" >/dev/null && break; sleep 0.1; done
serve
src="https%3A%2F%2Flocalhost%3A$https_port%2Fcoverage.json"
expected=$(header "$base/ring.svg?p=72.4" ETag)
got=$(header "$base/ring.svg?src=$src&field=coverage" ETag)
error=$(header "$base/ring.svg?src=$src&field=coverage" X-Ring-Error)
[ "$got" = "$expected" ]; check "HTTPS with the CA trusted: the document's value (ETag $got) ${error:+— $error}" $?
plain=$(header "$base/ring.svg?src=http%3A%2F%2Flocalhost%3A$http_port%2Fcoverage.json&field=coverage" X-Ring-Error)
[[ "$plain" == "src: only https sources are fetched"* ]]; check "plain http refused without --source-allow-http: $plain" $?

rm -f "$anchor"
update-ca-certificates --fresh >/dev/null 2>&1
serve
untrusted=$(header "$base/ring.svg?src=$src&field=coverage" X-Ring-Error)
[[ "$untrusted" == "src: the document could not be fetched"* ]]; check "HTTPS with the CA removed is refused: $untrusted" $?

[ "$failed" -eq 0 ] || { echo "check-https-source: failed" >&2; exit 1; }
echo "check-https-source: 3 passed"
