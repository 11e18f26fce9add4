#!/usr/bin/env bash
# Runs the nginx commands of docs/deployment.md ("Behind nginx") exactly as written: two
# `ring serve` instances and deploy/nginx.conf with a prefix folder. Then checks that a repeated
# ring comes from nginx's cache, and that requests keep succeeding when one instance is stopped.
#
#   scripts/checks/check-deploy.sh   (needs .build/release/ring, as the docs' commands do)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v nginx >/dev/null || { echo "check-deploy: nginx is not installed" >&2; exit 1; }
[ -x .build/release/ring ] || { echo "check-deploy: build .build/release/ring first" >&2; exit 1; }
ring=.build/release/ring
block=$(awk '/check-deploy.sh runs the commands of this block/ {on = 1; next}
    on && /^```sh/ {inside = 1; next} inside && /^```/ {exit} inside {print}' docs/deployment.md)
[ -n "$block" ] || { echo "check-deploy: no command block in docs/deployment.md" >&2; exit 1; }
rm -rf /tmp/ring-nginx /tmp/ring-nginx-8081.log /tmp/ring-nginx-8082.log
cleanup() {
    nginx -p /tmp/ring-nginx -e error.log -c "$PWD/deploy/nginx.conf" -s stop 2>/dev/null || true
    pkill -f -- "--port 808[12] --access-log /tmp/ring-nginx" 2>/dev/null || true
}
trap cleanup EXIT
echo "$block" | sed 's/^/  \$ /'
bash -euo pipefail -c "$block" || { echo "check-deploy: the documented commands failed" >&2; exit 1; }
sleep 1
a=$(pgrep -f -- "--port 8081 --access-log /tmp/ring-nginx") || { echo "check-deploy: no instance on 8081" >&2; exit 1; }
passed=0
failed=0
check() { if "${@:2}"; then passed=$((passed + 1)); echo "  PASS  $1"; else failed=$((failed + 1)); echo "  FAIL  $1"; fi; }
status_of() { curl -s -o /dev/null -D - "http://127.0.0.1:8000$1" | tr -d '\r'; }
logs="/tmp/ring-nginx-8081.log /tmp/ring-nginx-8082.log"

query='p=72&slice=0.45&v=deploy'
first=$(status_of "/ring.svg?$query")
second=$(status_of "/ring.svg?$query")
check "first request is a cache MISS" grep -q "^X-Cache-Status: MISS" <<<"$first"
check "repeated request is a cache HIT" grep -q "^X-Cache-Status: HIT" <<<"$second"
curl -s "http://127.0.0.1:8000/ring.svg?$query" > /tmp/ring-nginx/via-nginx.svg
"$ring" render "$query" > /tmp/ring-nginx/direct.svg
check "nginx serves the bytes ring renders" cmp -s /tmp/ring-nginx/via-nginx.svg /tmp/ring-nginx/direct.svg
check "nginx keeps its cache in the prefix" test -d /tmp/ring-nginx/cache
sleep 1.5  # the instances' access logs flush once a second
# shellcheck disable=SC2086 # two paths
upstream_hits=$(cat $logs | grep -c "v=deploy" || true)
check "the instances saw that ring once ($upstream_hits)" [ "$upstream_hits" -eq 1 ]
check "ETag passes through" grep -q '^ETag: "r' <<<"$second"

# Spread some new rings, then stop one instance and keep asking for new ones.
for i in $(seq 1 20); do curl -s -o /dev/null "http://127.0.0.1:8000/ring.svg?p=$i"; done
sleep 1.5
check "both instances served traffic" test -s /tmp/ring-nginx-8081.log -a -s /tmp/ring-nginx-8082.log
kill -TERM "$a"
for _ in $(seq 50); do kill -0 "$a" 2>/dev/null || break; sleep 0.1; done
ok=0
codes=""
for i in $(seq 100 139); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:8000/ring.svg?p=$i")
    codes="$codes $code"
    [ "$code" = 200 ] && ok=$((ok + 1))
done
check "with one instance stopped, 40 of 40 new rings still succeed ($ok)" [ "$ok" -eq 40 ]
[ "$ok" -eq 40 ] || { echo "  codes:$codes"; tail -n 20 /tmp/ring-nginx/error.log; }
check "health passes through" [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8000/healthz)" = 200 ]
check "/metrics is not public: 404 through nginx" [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8000/metrics)" = 404 ]
check "/metrics answers on an instance's own port" \
    [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8082/metrics)" = 200 ]
echo "check-deploy: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
