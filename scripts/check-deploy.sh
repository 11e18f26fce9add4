#!/usr/bin/env bash
# Runs deploy/nginx.conf for real in front of two `ring serve` instances and checks that a
# repeated ring comes from nginx's cache, and that requests keep succeeding when one instance
# is stopped. Only the file paths are rewritten (to a temporary directory); ports, upstreams
# and every caching directive are the committed ones.
#
#   scripts/check-deploy.sh PATH-TO-ring
set -euo pipefail
cd "$(dirname "$0")/.."
ring=${1:?usage: scripts/check-deploy.sh PATH-TO-ring}
command -v nginx >/dev/null || { echo "check-deploy: nginx is not installed" >&2; exit 1; }
dir=$(mktemp -d)
chmod 755 "$dir"
mkdir -p "$dir/cache"
chmod 777 "$dir/cache"
sed -e "s|/run/nginx-ring.pid|$dir/nginx.pid|" -e "s|/var/log/nginx/ring-error.log|$dir/error.log|" \
    -e "s|/var/cache/nginx/ring|$dir/cache|" deploy/nginx.conf > "$dir/nginx.conf"

"$ring" serve --host 127.0.0.1 --port 8081 --access-log "$dir/a.log" 2>/dev/null &
a=$!
"$ring" serve --host 127.0.0.1 --port 8082 --access-log "$dir/b.log" 2>/dev/null &
b=$!
nginx -t -q -c "$dir/nginx.conf"
nginx -c "$dir/nginx.conf"
cleanup() {
    nginx -c "$dir/nginx.conf" -s stop 2>/dev/null || true
    kill $a $b 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT
sleep 1
passed=0
failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); echo "  PASS  $1"; else failed=$((failed + 1)); echo "  FAIL  $1"; fi; }
status_of() { curl -s -o /dev/null -D - "http://127.0.0.1:8080$1" | tr -d '\r'; }

query='p=72&slice=0.45&v=deploy'
first=$(status_of "/ring.svg?$query")
second=$(status_of "/ring.svg?$query")
check "first request is a cache MISS" grep -q "^X-Cache-Status: MISS" <<<"$first"
check "repeated request is a cache HIT" grep -q "^X-Cache-Status: HIT" <<<"$second"
curl -s "http://127.0.0.1:8080/ring.svg?$query" > "$dir/via-nginx.svg"
"$ring" render "$query" > "$dir/direct.svg"
check "nginx serves the bytes ring renders" cmp -s "$dir/via-nginx.svg" "$dir/direct.svg"
sleep 1.5  # the instances' access logs flush once a second
upstream_hits=$(cat "$dir/a.log" "$dir/b.log" | grep -c "v=deploy" || true)
check "the instances saw that ring once ($upstream_hits)" [ "$upstream_hits" -eq 1 ]
check "ETag passes through" grep -q '^ETag: "r' <<<"$second"

# Spread some new rings, then stop one instance and keep asking for new ones.
for i in $(seq 1 20); do curl -s -o /dev/null "http://127.0.0.1:8080/ring.svg?p=$i"; done
sleep 1.5
check "both instances served traffic" test -s "$dir/a.log" -a -s "$dir/b.log"
kill -TERM $a
wait $a || true
ok=0
for i in $(seq 100 139); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:8080/ring.svg?p=$i")
    [ "$code" = 200 ] && ok=$((ok + 1))
done
check "with one instance stopped, 40 of 40 new rings still succeed ($ok)" [ "$ok" -eq 40 ]
check "health passes through" [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8080/healthz)" = 200 ]
check "/metrics is not public: 404 through nginx" [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8080/metrics)" = 404 ]
check "/metrics answers on an instance's own port" \
    [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8082/metrics)" = 200 ]
echo "check-deploy: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
