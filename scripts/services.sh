#!/usr/bin/env bash
# Local stand-ins for the production services, on loopback only:
#   mongo   FerretDB 1.24 (SQLite backend), a MongoDB-protocol server   (scripts/services/main.go)
#   mail    Mailpit: SMTP plus a REST API to read what arrived
#   s3      versitygw: an S3 API over a folder (metadata in a sidecar folder)
#   stripe  stripe-mock: Stripe's own API mock (stateless; sends no webhooks)
#
#   scripts/services.sh build [SERVICE...]          build the binaries once (default: all four; cached in .cache/bin)
#   scripts/services.sh start PROFILE [SERVICE...]  start (default: all four); PROFILE is dev or test
#   scripts/services.sh stop PROFILE                stop every service of the profile
#   scripts/services.sh status PROFILE              say which are running
#   scripts/services.sh env PROFILE                 print the variables that point the app at them
#
# Data lives in data/PROFILE/ (ignored by git). The test profile starts from an empty folder each time.
# FERRETDB_POSTGRESQL_URL=postgres://... runs FerretDB on that PostgreSQL database instead of SQLite
# (its data is then PostgreSQL's; docs/scaling.md compares the two backends).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$ROOT/.cache/bin"
SRC="$ROOT/scripts/services"
ALL=(mongo mail s3 stripe)
S3_KEY=local-access-key
S3_SECRET=local-secret-key-for-versitygw

say() { printf '[services] %s\n' "$*" >&2; }

ports() { # profile -> sets MONGO_PORT SMTP_PORT MAIL_HTTP_PORT S3_PORT STRIPE_PORT
  case "$1" in
    dev)  MONGO_PORT=27017 SMTP_PORT=1025  MAIL_HTTP_PORT=8025  S3_PORT=7070  STRIPE_PORT=12111 ;;
    test) # TEST_PORT_OFFSET (0-899) lets two checkouts (git worktrees) run their test suites side by
          # side. Every test port sits below 32768: from there up Linux picks the local ports of outgoing
          # connections: a port up there can be taken by any client socket (seen: a connection to
          # FerretDB held 37670 and versitygw could not start).
          # One checkout keeps one set of test services (data/test): while they run, every command here names
          # their ports, whatever TEST_PORT_OFFSET this caller has (a benchmark beside `npm run test:env`).
          local o; o="$(test_offset)"
          MONGO_PORT=$((22017 + o)) SMTP_PORT=$((21025 + o)) MAIL_HTTP_PORT=$((23025 + o)) S3_PORT=$((24070 + o)) STRIPE_PORT=$((25111 + o)) ;;
    *) say "unknown profile '$1' (use dev or test)"; exit 2 ;;
  esac
}

# FerretDB is built with the patches in scripts/services/patches/ (each says why, and what
# upstream does): the pinned module comes from the Go module proxy as go.sum says, a copy of it
# in .cache/ferretdb-build/src gets the patches, and FerretDB is built against that copy through
# a go.mod of its own there (ours plus one `replace`). Ours and the module cache stay untouched.
ferretdb_modfile() { # prints the path of the go.mod to build FerretDB with
  local dir out
  dir="$(cd "$SRC" && GOFLAGS=-mod=mod go mod download -json github.com/FerretDB/FerretDB | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
  [[ -d "$dir" ]] || { say "could not find the FerretDB module after go mod download"; exit 1; }
  out="$ROOT/.cache/ferretdb-build"
  rm -rf "$out" && mkdir -p "$out" && cp -R "$dir" "$out/src" && chmod -R u+w "$out/src"
  for patch in "$SRC"/patches/ferretdb-*.patch; do
    # GIT_DIR: a patch applied to plain files, whatever repository the checkout sits in.
    (cd "$out/src" && GIT_DIR=/nonexistent git apply -p1 "$patch") ||
      { say "the patch $patch no longer applies to $dir"; exit 1; }
  done
  cp "$SRC/go.sum" "$out/go.sum"
  { cat "$SRC/go.mod"; echo; echo "replace github.com/FerretDB/FerretDB => $out/src"; } >"$out/go.mod"
  echo "$out/go.mod"
}

binary() { # service -> the binary it runs
  case "$1" in
    mongo) echo ferretdb ;; mail) echo mailpit ;; s3) echo versitygw ;; stripe) echo stripe-mock ;;
    *) say "unknown service '$1' (use ${ALL[*]})"; exit 2 ;;
  esac
}

build() { # [SERVICE...]: builds only the binaries of the services named (default: all four), each once
  local want svc bin modfile services=("$@") missing=()
  [[ ${#services[@]} -gt 0 ]] || services=("${ALL[@]}")
  want="$(cat "$SRC/go.mod" "$SRC/go.sum" "$SRC/main.go" "$SRC"/patches/* | sha256sum | cut -d' ' -f1)"
  for svc in "${services[@]}"; do
    bin="$(binary "$svc")"
    # .stamp-BIN: that binary built from these sources; .stamp: all four were (an earlier build of all).
    if [[ -x "$BIN/$bin" ]] &&
       [[ "$(cat "$BIN/.stamp-$bin" 2>/dev/null)" == "$want" || "$(cat "$BIN/.stamp" 2>/dev/null)" == "$want" ]]; then
      continue
    fi
    missing+=("$svc")
  done
  [[ ${#missing[@]} -gt 0 ]] || return 0
  command -v go >/dev/null || { say "Go is needed to build the local services (https://go.dev/dl/)"; exit 1; }
  mkdir -p "$BIN"
  for svc in "${missing[@]}"; do
    bin="$(binary "$svc")"
    say "building $bin with Go (a first build takes a few minutes)..."
    case "$svc" in
      mongo)
        modfile="$(ferretdb_modfile)"
        (cd "$SRC" && GOFLAGS=-mod=mod go build -modfile "$modfile" -o "$BIN/ferretdb" .) ;;
      mail) (cd "$SRC" && GOFLAGS=-mod=mod go build -o "$BIN/" github.com/axllent/mailpit) ;;
      s3) (cd "$SRC" && GOFLAGS=-mod=mod go build -o "$BIN/" github.com/versity/versitygw/cmd/versitygw) ;;
      stripe) (cd "$SRC" && GOFLAGS=-mod=mod go build -o "$BIN/" github.com/stripe/stripe-mock) ;;
    esac
    echo "$want" >"$BIN/.stamp-$bin"
  done
  say "built into $BIN"
}

pidfile() { echo "$ROOT/data/$1/run/$2.pid"; }
OFFSET_FILE="$ROOT/data/test/run/offset"

# The TEST_PORT_OFFSET the running test services were started with; else this caller's.
test_offset() {
  if [[ -f "$OFFSET_FILE" ]] && running test mongo; then cat "$OFFSET_FILE"; else echo "${TEST_PORT_OFFSET:-0}"; fi
}

running() { # profile service
  local f; f="$(pidfile "$1" "$2")"
  [[ -f "$f" ]] && kill -0 "$(cat "$f")" 2>/dev/null
}

wait_port() { # name port
  for _ in $(seq 1 150); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  say "$1 did not open port $2 in 30 s; see its log in data/*/log/"
  return 1
}

start_one() { # profile service
  local profile="$1" svc="$2" dir="$ROOT/data/$1" log port
  ports "$profile"
  mkdir -p "$dir/run" "$dir/log"
  log="$dir/log/$svc.log"
  if running "$profile" "$svc"; then say "$svc ($profile) is already running"; return 0; fi
  case "$svc" in
    mongo)
      port=$MONGO_PORT
      "$BIN/ferretdb" -listen "127.0.0.1:$port" -dir "$dir/ferretdb" \
        ${FERRETDB_POSTGRESQL_URL:+-postgresql-url "$FERRETDB_POSTGRESQL_URL"} >"$log" 2>&1 & ;;
    mail)
      port=$SMTP_PORT
      "$BIN/mailpit" --listen "127.0.0.1:$MAIL_HTTP_PORT" --smtp "127.0.0.1:$SMTP_PORT" \
        --database "$dir/mailpit.db" --smtp-auth-accept-any --smtp-auth-allow-insecure \
        --disable-version-check >"$log" 2>&1 & ;;
    s3)
      port=$S3_PORT
      mkdir -p "$dir/s3/objects" "$dir/s3/meta"
      "$BIN/versitygw" --access "$S3_KEY" --secret "$S3_SECRET" --port "127.0.0.1:$port" \
        posix --sidecar "$dir/s3/meta" "$dir/s3/objects" >"$log" 2>&1 & ;;
    stripe)
      port=$STRIPE_PORT
      "$BIN/stripe-mock" -http-addr "127.0.0.1:$port" -https-addr "127.0.0.1:$((port + 1))" >"$log" 2>&1 & ;;
    *) say "unknown service '$svc' (use ${ALL[*]})"; exit 2 ;;
  esac
  echo $! >"$(pidfile "$profile" "$svc")"
  wait_port "$svc" "$port"
  say "$svc ($profile) listening on 127.0.0.1:$port"
}

stop_all() {
  local profile="$1" f
  for svc in "${ALL[@]}"; do
    f="$(pidfile "$profile" "$svc")"
    if [[ -f "$f" ]]; then
      kill "$(cat "$f")" 2>/dev/null && say "stopped $svc ($profile)" || true
      rm -f "$f"
    fi
  done
}

print_env() {
  ports "$1"
  cat <<VARS
MONGODB_URI=mongodb://127.0.0.1:$MONGO_PORT/rapid-website
SMTP_URL=smtp://127.0.0.1:$SMTP_PORT
MAILPIT_API_URL=http://127.0.0.1:$MAIL_HTTP_PORT
S3_ENDPOINT=http://127.0.0.1:$S3_PORT
S3_REGION=us-east-1
S3_BUCKET=rapid-website
S3_ACCESS_KEY_ID=$S3_KEY
S3_SECRET_ACCESS_KEY=$S3_SECRET
STRIPE_API_BASE=http://127.0.0.1:$STRIPE_PORT
STRIPE_SECRET_KEY=sk_test_123
STRIPE_WEBHOOK_SECRET=whsec_local_test_secret
VARS
}

cmd="${1:-}"; shift || true
case "$cmd" in
  build) build "$@" ;;
  start)
    profile="${1:?profile}"; shift
    ports "$profile"
    services=("$@"); [[ ${#services[@]} -gt 0 ]] || services=("${ALL[@]}")
    build "${services[@]}" # only what this command runs: `start dev mongo` builds FerretDB alone
    if [[ "$profile" == test ]] && ! running test mongo; then
      rm -rf "$ROOT/data/test"
      mkdir -p "$ROOT/data/test/run"
      echo "${TEST_PORT_OFFSET:-0}" >"$OFFSET_FILE"
    fi
    for svc in "${services[@]}"; do start_one "$profile" "$svc"; done ;;
  stop) stop_all "${1:?profile}" ;;
  status)
    for svc in "${ALL[@]}"; do
      if running "${1:?profile}" "$svc"; then echo "$svc: running"; else echo "$svc: stopped"; fi
    done ;;
  env) print_env "${1:?profile}" ;;
  *) sed -n '2,15p' "$0"; exit 2 ;;
esac
