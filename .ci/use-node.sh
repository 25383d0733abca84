# Puts the project's Node first on PATH, for this shell and what it starts. Source it from the
# project folder (bash or zsh):   . .ci/use-node.sh
# When the node on PATH is older than package.json's "engines", build/node-version.mjs (the same
# code npm install's preinstall runs) finds the newest release of .nvmrc's major on the npm
# registry, fetches it once into ~/.cache/taskreward/node/ (TASKREWARD_NODE_CACHE to choose another
# folder) and prints its folder. This puts its bin first on PATH and points npm_config_nodedir at
# it, so a native addon compiled from source is compiled for this Node with nothing downloaded.
# .ci/run sources it first.

tr_root=$(cd "$(dirname "${BASH_SOURCE[0]:-.ci/use-node.sh}")/.." && pwd)

tr_use_node() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "use-node: no node and npm on PATH to fetch Node with (install Node.js and npm, any version)" >&2
    return 1
  fi
  local dir
  dir=$(node "$tr_root/build/node-version.mjs" --dir) || return 1
  [ -n "$dir" ] || return 0 # the node on PATH is new enough
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r 2>/dev/null || true
}

tr_use_node
