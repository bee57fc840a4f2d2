# Shared by start.sh and test.sh.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf '[%s] %s\n' "$(basename "$0" .sh)" "$*" >&2; }

# Node 24 LTS (package.json "engines"). Where the machine's node is older (Debian 12 ships 18, this machine
# has 20), the npm registry's node-linux-<arch>@24 package is unpacked into .cache/node-24 once (nothing is
# downloaded from anywhere else) and put first on PATH, for this script and everything it starts (npm, npx,
# vitest, the app). The version installed is the newest 24.x the registry has on that first run.
NODE_MAJOR=24
use_supported_node() {
  local dir="$ROOT/.cache/node-$NODE_MAJOR"
  if [[ -x "$dir/bin/node" ]]; then
    export PATH="$dir/bin:$PATH"
    return
  fi
  if (($(node -p 'process.versions.node.split(".")[0]') >= NODE_MAJOR)); then return; fi
  local arch tmp
  case "$(uname -m)" in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
  say "node $(node -v) is older than Node $NODE_MAJOR LTS: installing node-linux-$arch@$NODE_MAJOR from the npm registry into .cache/node-$NODE_MAJOR"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-$arch@$NODE_MAJOR" >/dev/null && tar -xzf node-linux-*.tgz package/bin/node)
  mkdir -p "$dir/bin"
  mv "$tmp/package/bin/node" "$dir/bin/node.partial" && mv "$dir/bin/node.partial" "$dir/bin/node"
  rm -rf "$tmp"
  export PATH="$dir/bin:$PATH"
}
use_supported_node

# npm ci when node_modules is missing or older than the lockfile.
ensure_node_modules() {
  if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    say "installing npm packages (npm ci)..."
    # --include=dev: the build tools are devDependencies, and npm start runs with NODE_ENV=production.
    npm ci --no-audit --no-fund --include=dev
  fi
}

# The memory allocator the app runs on. libvips (sharp) decodes an upload into buffers of up to ~200 MB and
# frees them; glibc's malloc keeps such memory in its per-thread arenas, so the process grew post by post and
# stayed there (docs/reliability-log.md, "Image uploads under attack"). jemalloc gives it back: the app is started
# with Debian's libjemalloc2 preloaded when it is installed, else on glibc with two arenas.
# jemalloc as it comes purges freed pages only while the process allocates, so an app gone idle after a burst of
# uploads kept ~80 MB of them; with a background thread that purges and a 1 s decay it is back within ~15 MB of
# where it started, and its peak is lower (each image's pages are returned before the next one's are taken).
JEMALLOC_CONF="background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0"
# Prints the variables to set, one per line: mapfile -t malloc_env < <(app_malloc_env); env "${malloc_env[@]}" ...
# A LD_PRELOAD, MALLOC_CONF or MALLOC_ARENA_MAX already set is left as it is.
app_malloc_env() {
  local jemalloc="/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2"
  if [[ -n "${LD_PRELOAD:-}" ]]; then
    echo "LD_PRELOAD=$LD_PRELOAD"
  elif [[ -n "${MALLOC_ARENA_MAX:-}" ]]; then
    echo "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX"
    return
  elif [[ -f "$jemalloc" ]]; then
    echo "LD_PRELOAD=$jemalloc"
  else
    echo "MALLOC_ARENA_MAX=2"
    return
  fi
  echo "MALLOC_CONF=${MALLOC_CONF:-$JEMALLOC_CONF}"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Waits for the app's /healthz on $1 (a base URL); fails after 60 s.
wait_for_app() {
  for _ in $(seq 1 300); do
    if curl -fsS "$1/healthz" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  say "the app did not answer $1/healthz in 60 s"
  return 1
}
