#!/usr/bin/env bash
# Starts or stops the S3-compatible test server (s3rver behind a SigV4-verifying guard, see
# test/support/s3-server.ts) as its own process, for runs that need one bucket shared by several
# `spq serve` processes. Everything comes from npm (run after `npm ci`); nothing from apt.
#
#   bash .ci/s3-server.sh start   # prints the SPQ_S3_* settings to export, one per line
#   bash .ci/s3-server.sh stop    # stops the server this script started, and removes its data
#
# Settings: SPQ_TEST_S3_PORT (default 4569; 0 takes a free port, the printed endpoint names it),
# SPQ_TEST_S3_BUCKET (default spq), SPQ_TEST_S3_STATE (directory for the pid file, log and
# objects; default /tmp/spq-s3-ci). Besides the bucket, clients may create buckets of their own
# (the black-box API suite does, one per test server).
set -euo pipefail
cd "$(dirname "$0")/.."

port="${SPQ_TEST_S3_PORT:-4569}"
bucket="${SPQ_TEST_S3_BUCKET:-spq}"
state="${SPQ_TEST_S3_STATE:-/tmp/spq-s3-ci}"
pidfile="$state/pid"

case "${1:-}" in
  start)
    if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      echo "s3-server: already running (pid $(cat "$pidfile"))" >&2
    else
      rm -rf "$state" && mkdir -p "$state/objects"
      nohup node bin/run-ts.js test/support/s3-server.ts --port "$port" --bucket "$bucket" --dir "$state/objects" \
        >"$state/log" 2>&1 &
      echo $! >"$pidfile"
      for _ in $(seq 1 50); do
        grep -q '"endpoint"' "$state/log" 2>/dev/null && break
        kill -0 "$(cat "$pidfile")" 2>/dev/null || { echo "s3-server: failed to start:" >&2; cat "$state/log" >&2; exit 1; }
        sleep 0.2
      done
      grep -q '"endpoint"' "$state/log" || { echo "s3-server: no answer after 10 s" >&2; cat "$state/log" >&2; exit 1; }
    fi
    endpoint="$(grep -o '"endpoint":"[^"]*"' "$state/log" | head -1 | cut -d'"' -f4)"
    echo "SPQ_S3_ENDPOINT=$endpoint"
    echo "SPQ_S3_BUCKET=$bucket"
    echo "SPQ_S3_REGION=us-east-1"
    echo "SPQ_S3_ACCESS_KEY_ID=S3RVER"
    echo "SPQ_S3_SECRET_ACCESS_KEY=S3RVER"
    echo "SPQ_S3_FORCE_PATH_STYLE=true"
    ;;
  stop)
    if [ -f "$pidfile" ]; then
      pid="$(cat "$pidfile")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 25); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -rf "$state"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
