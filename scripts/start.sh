#!/usr/bin/env bash
# npm start: runs the site on this machine as production runs it (the production build, React and
# Remix in production mode, NODE_ENV=production) on embedded defaults, with nothing configured.
# LOCAL_STANDINS=1 lets that production run use the stand-ins below and plain http://localhost; a
# deployment never sets it (docs/deploy.md, "Production"), and the app refuses it with a public APP_URL.
#   database  MONGODB_URI if set; else a real mongod (mongodb-memory-server) where it can be
#             downloaded; else FerretDB built with Go (scripts/services.sh). Data in data/dev/.
#   mail      written to data/mail/*.eml and listed at /dev/mail (SMTP_URL sends it instead)
#   uploads   stored in data/uploads (S3_BUCKET stores them in S3)
#   payments  the offline test checkout (STRIPE_SECRET_KEY uses Stripe)
# Values in .env, when present, are used (read by scripts/env-file.mjs, never sourced: it is not shell code);
# the shell's own values win.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

while IFS= read -r -d '' pair; do export "$pair"; done < <(node scripts/env-file.mjs)
export NODE_ENV=production LOCAL_STANDINS=1
ensure_node_modules

children=()
cleanup() {
  for pid in "${children[@]}"; do kill "$pid" 2>/dev/null || true; done
  bash scripts/services.sh stop dev >/dev/null 2>&1 || true
}
trap cleanup EXIT INT TERM

if [[ -z "${MONGODB_URI:-}" ]]; then
  if port_open 27017; then
    say "using the MongoDB-protocol server already listening on 127.0.0.1:27017"
  else
    say "starting a database: trying mongod through mongodb-memory-server first..."
    mkdir -p data/dev/log
    node scripts/mongod.mjs 2>data/dev/log/mongod.log & mongod=$!
    children+=("$mongod")
    until port_open 27017 || ! kill -0 "$mongod" 2>/dev/null; do sleep 0.3; done
    if ! port_open 27017; then
      # One line: why (mongod.mjs's last line, such as "no mongod binary here and none could be downloaded
      # (getaddrinfo ENOTFOUND fastdl.mongodb.org)") and what instead; the details stay in the log.
      say "$(tail -n 1 data/dev/log/mongod.log | sed 's/^\[services\] //'); using FerretDB instead (built with Go on first use)"
      bash scripts/services.sh start dev mongo
    fi
  fi
  export MONGODB_URI="mongodb://127.0.0.1:27017/rapid-website"
fi

say "building the app..."
npm run -s build
served="${APP_URL:-http://localhost:${PORT:-3000}}"
mkdir -p data/dev && echo "$served" >data/dev/app-url # npm run seed prints its links at this address
say "serving on $served (seed demo data with: npm run seed)"
mapfile -t malloc_env < <(app_malloc_env)
env "${malloc_env[@]}" node scripts/server.mjs & children+=("$!")
wait "${children[-1]}"
