#!/usr/bin/env bash
# Install whatever `npm start` / `npm test` need and is missing. Idempotent:
# each step checks first and is skipped (quickly) when already satisfied.
#
#   bash scripts/setup.sh          run it on its own
#   source scripts/setup.sh        what start.sh / test.sh / build-web.sh do;
#                                  it then also exports, for build-web.sh:
#     WASM_TOOLCHAIN   rustup | debian   which toolchain builds wasm32
#     WASM_BINDGEN     path of the wasm-bindgen CLI matching the crate
#     WASM_BINDGEN_VERSION
#
# Environment knobs:
#   COMPACTION_FORCE_DEBIAN_WASM=1   skip rustup's wasm32 target and use
#                                    Debian's rustc-web + -Zbuild-std instead
#   COMPACTION_SKIP_APT=1            never call apt-get (report what is missing)
#
# Assumes a Debian/Ubuntu machine with Rust from rustup and Node >= 20 + npm.

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
fi

SETUP_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# puppeteer-core itself downloads nothing; this keeps it so if a dependency changes.
export PUPPETEER_SKIP_DOWNLOAD=1
export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
case ":$PATH:" in
  *":$CARGO_HOME/bin:"*) ;;
  *) export PATH="$CARGO_HOME/bin:$PATH" ;;
esac

setup_log() { printf 'setup: %s\n' "$*"; }
setup_die() {
  printf 'setup: ERROR: %s\n' "$*" >&2
  exit 1
}

# ---------------------------------------------------------------- apt ------
_SETUP_APT_UPDATED=0

setup_missing_debs() {
  local p
  for p in "$@"; do
    # `dpkg -s` succeeds for removed-but-configured packages too; check status.
    # (Read whole, then matched: `cmd | grep -q` fails under pipefail when grep leaves first.)
    if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != *'install ok installed'* ]]; then
      printf '%s\n' "$p"
    fi
  done
}

setup_apt_install() { # packages...
  local missing
  missing="$(setup_missing_debs "$@" | tr '\n' ' ')"
  missing="${missing% }"
  if [[ -z "$missing" ]]; then
    setup_log "apt packages present: $*"
    return 0
  fi
  if [[ "${COMPACTION_SKIP_APT:-0}" == 1 ]]; then
    setup_die "missing apt packages: $missing (COMPACTION_SKIP_APT=1, not installing)"
  fi
  command -v apt-get >/dev/null || setup_die "missing packages ($missing) and no apt-get: install them by hand"
  local -a sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null || setup_die "missing packages ($missing); not root and no sudo: install them by hand"
    sudo=(sudo)
  fi
  if [[ "$_SETUP_APT_UPDATED" == 0 ]]; then
    setup_log "apt-get update (needed to install: $missing)"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null
    _SETUP_APT_UPDATED=1
  fi
  setup_log "apt-get install $missing"
  # shellcheck disable=SC2086
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing </dev/null
}

# Mesa's lavapipe (software Vulkan) for the native GPU tests, Debian Chromium
# for the browser tests.
setup_system_packages() {
  setup_apt_install mesa-vulkan-drivers libvulkan1 chromium chromium-driver
  [[ -x /usr/bin/chromium ]] || setup_die "/usr/bin/chromium not found after installing the chromium package"
}

# --------------------------------------------------------------- rust ------
setup_rust() {
  command -v cargo >/dev/null ||
    setup_die "cargo not found: install Rust with rustup (https://rustup.rs) and re-run"
  command -v rustc >/dev/null || setup_die "rustc not found: install Rust with rustup (https://rustup.rs)"
  local comp missing=()
  for comp in rustfmt clippy; do
    if ! cargo "${comp/rustfmt/fmt}" --version >/dev/null 2>&1; then missing+=("$comp"); fi
  done
  if ((${#missing[@]})); then
    command -v rustup >/dev/null || setup_die "cargo ${missing[*]} missing and no rustup to add them"
    setup_log "rustup component add ${missing[*]}"
    timeout 300 rustup component add "${missing[@]}" </dev/null ||
      setup_die "could not add rustup components: ${missing[*]}"
  else
    setup_log "rust toolchain present: $(rustc --version)"
  fi
}

# wasm32 std: rustup's target, else Debian's rustc-web with -Zbuild-std.
setup_wasm_toolchain() {
  if [[ "${COMPACTION_FORCE_DEBIAN_WASM:-0}" != 1 ]] && command -v rustup >/dev/null; then
    if grep -qx wasm32-unknown-unknown <<<"$(rustup target list --installed 2>/dev/null)"; then
      setup_log "wasm32-unknown-unknown target present (rustup)"
      export WASM_TOOLCHAIN=rustup
      return 0
    fi
    setup_log "rustup target add wasm32-unknown-unknown"
    if timeout 300 rustup target add wasm32-unknown-unknown </dev/null; then
      export WASM_TOOLCHAIN=rustup
      return 0
    fi
    setup_log "rustup could not add wasm32-unknown-unknown; falling back to Debian's wasm toolchain"
  elif [[ "${COMPACTION_FORCE_DEBIAN_WASM:-0}" == 1 ]]; then
    setup_log "COMPACTION_FORCE_DEBIAN_WASM=1: using Debian's wasm toolchain instead of rustup's"
  else
    setup_log "no rustup: using Debian's wasm toolchain"
  fi
  # Debian: rustc-web (rustc with the wasm targets enabled), cargo-web, the std
  # sources for -Zbuild-std, and lld's wasm-ld as the linker.
  setup_apt_install rustc-web cargo-web rust-web-src lld-22
  export WASM_TOOLCHAIN=debian
  export WASM_DEBIAN_CARGO=/usr/bin/cargo
  export WASM_DEBIAN_RUSTC=/usr/bin/rustc
  local ld
  for ld in /usr/lib/llvm-22/bin/wasm-ld /usr/bin/wasm-ld-22; do
    if [[ -x "$ld" ]]; then
      export WASM_DEBIAN_LINKER="$ld"
      break
    fi
  done
  [[ -n "${WASM_DEBIAN_LINKER:-}" ]] || setup_die "wasm-ld from lld-22 not found"
  [[ -d /usr/lib/rustlib/src/rust/library ]] ||
    setup_die "Debian std sources missing (/usr/lib/rustlib/src/rust/library); is rust-web-src installed?"
  setup_log "Debian wasm toolchain: $("$WASM_DEBIAN_RUSTC" --version), linker $WASM_DEBIAN_LINKER"
}

# The version of the wasm-bindgen crate the build uses: Cargo.lock, else the
# `=x.y.z` pin in Cargo.toml.
setup_wasm_bindgen_version() {
  local v=""
  if [[ -f "$SETUP_REPO_ROOT/Cargo.lock" ]]; then
    v="$(awk '/^\[\[package\]\]/{n=0} /^name = "wasm-bindgen"$/{n=1; next} n && /^version = /{gsub(/"/,"",$3); print $3; exit}' \
      "$SETUP_REPO_ROOT/Cargo.lock")"
  fi
  if [[ -z "$v" ]]; then
    v="$(sed -n 's/^[[:space:]]*wasm-bindgen[[:space:]]*=[[:space:]]*"=\{0,1\}\([0-9][0-9.]*\)".*/\1/p; s/^[[:space:]]*wasm-bindgen[[:space:]]*=.*version[[:space:]]*=[[:space:]]*"=\{0,1\}\([0-9][0-9.]*\)".*/\1/p' \
      "$SETUP_REPO_ROOT/Cargo.toml" | head -n1)"
  fi
  [[ -n "$v" ]] || setup_die "cannot find the wasm-bindgen version in Cargo.lock or Cargo.toml"
  printf '%s\n' "$v"
}

setup_wasm_bindgen() {
  local want have="" bin
  want="$(setup_wasm_bindgen_version)"
  export WASM_BINDGEN_VERSION="$want"
  for bin in "$CARGO_HOME/bin/wasm-bindgen" "$(command -v wasm-bindgen 2>/dev/null || true)"; do
    [[ -n "$bin" && -x "$bin" ]] || continue
    have="$("$bin" --version 2>/dev/null | awk '{print $2}')"
    if [[ "$have" == "$want" ]]; then
      export WASM_BINDGEN="$bin"
      setup_log "wasm-bindgen CLI $want present ($bin)"
      return 0
    fi
  done
  setup_log "cargo install wasm-bindgen-cli --version =$want${have:+ (found $have)} (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "=$want" </dev/null ||
    setup_die "cargo install wasm-bindgen-cli --version =$want failed"
  bin="$CARGO_HOME/bin/wasm-bindgen"
  have="$("$bin" --version 2>/dev/null | awk '{print $2}')"
  [[ "$have" == "$want" ]] || setup_die "installed wasm-bindgen reports '$have', expected $want"
  export WASM_BINDGEN="$bin"
}

# --------------------------------------------------------------- node ------
setup_node_modules() {
  command -v node >/dev/null || setup_die "node not found: install Node.js >= 20 and npm"
  command -v npm >/dev/null || setup_die "npm not found: install npm"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  ((major >= 20)) || setup_die "Node.js >= 20 needed, found $(node --version)"
  local root="$SETUP_REPO_ROOT" stamp="$SETUP_REPO_ROOT/node_modules/.package-lock.json" why=""
  if [[ ! -d "$root/node_modules" ]]; then
    why="node_modules missing"
  elif [[ ! -f "$stamp" ]]; then
    why="node_modules incomplete"
  elif [[ "$root/package.json" -nt "$stamp" ]]; then
    why="package.json changed"
  elif [[ -f "$root/package-lock.json" && "$root/package-lock.json" -nt "$stamp" ]]; then
    why="package-lock.json changed"
  else
    local dep
    for dep in playwright-core puppeteer-core axe-core esbuild-wasm binaryen typescript @biomejs/biome; do
      if [[ ! -d "$root/node_modules/$dep" ]]; then
        why="$dep missing"
        break
      fi
    done
  fi
  if [[ -z "$why" ]]; then
    setup_log "node_modules up to date (node $(node --version))"
    return 0
  fi
  # `npm ci` installs exactly the committed lock file (always on CI); locally,
  # when package.json was edited after the lock file, `npm install` updates both.
  if [[ -f "$root/package-lock.json" ]] &&
    [[ -n "${CI:-}" && "${CI:-}" != false || ! "$root/package.json" -nt "$root/package-lock.json" ]]; then
    setup_log "npm ci ($why)"
    (cd "$root" && npm ci --no-audit --no-fund </dev/null)
  else
    setup_log "npm install ($why)"
    (cd "$root" && npm install --no-audit --no-fund </dev/null)
  fi
  local dep
  for dep in playwright-core puppeteer-core axe-core esbuild-wasm binaryen typescript @biomejs/biome; do
    [[ -d "$root/node_modules/$dep" ]] || setup_die "npm did not install $dep"
  done
  touch "$stamp"
}

# ------------------------------------------------------- docs generators ---
# The generators of docs/embedding.md's recipes, for the site tests (e2e/sites*.test.mjs),
# all under target/docs-tools/: MkDocs Material, Zensical, Sphinx and furo in a
# venv (PyPI), VitePress, Docusaurus and Astro Starlight (npm, each from its
# lock file in scripts/docs-tools/), mdBook (`cargo install`, a few minutes
# once per machine, linked from the user's cache). Only `npm test` needs them;
# `npm start` does not install them.
SETUP_DOCS_TOOLS="$SETUP_REPO_ROOT/target/docs-tools"
SETUP_MDBOOK_VERSION=0.5.4

# npm ci of one generator's lock file ($2) into target/docs-tools/$1, unless that lock is installed.
setup_npm_tool() {
  local name=$1 from=$2 into="$SETUP_DOCS_TOOLS/$1"
  if [[ -d "$into/node_modules" ]] && cmp -s "$from/package-lock.json" "$into/package-lock.json"; then
    setup_log "$name present"
    return 0
  fi
  setup_log "npm ci of $name in target/docs-tools/$name"
  rm -rf "$into"
  mkdir -p "$into"
  cp "$from/package.json" "$from/package-lock.json" "$into/"
  (cd "$into" && npm ci --no-audit --no-fund --loglevel=error </dev/null) || { echo "setup: npm ci of $name failed" >&2; return 1; }
}

setup_docs_tools() {
  local tools="$SETUP_DOCS_TOOLS" spec="$SETUP_REPO_ROOT/scripts/docs-tools"
  mkdir -p "$tools"
  # MkDocs Material.
  if [[ -x "$tools/venv/bin/mkdocs" ]] && cmp -s "$spec/requirements.txt" "$tools/venv/requirements.txt"; then
    setup_log "MkDocs Material, Zensical, Sphinx present ($("$tools/venv/bin/mkdocs" --version | awk '{print $3}'), $("$tools/venv/bin/zensical" --version), $("$tools/venv/bin/sphinx-build" --version))"
  else
    setup_log "python3 -m venv target/docs-tools/venv; pip install -r scripts/docs-tools/requirements.txt"
    rm -rf "$tools/venv"
    python3 -m venv "$tools/venv" || setup_die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$tools/venv/bin/pip" install -q --disable-pip-version-check -r "$spec/requirements.txt" </dev/null ||
      setup_die "pip install of the Python docs generators failed"
    cp "$spec/requirements.txt" "$tools/venv/requirements.txt"
  fi
  # VitePress, Docusaurus, Astro Starlight: each its own npm ci (their React,
  # Vue and Vite would not share one tree), the three side by side.
  local pids=() name
  setup_npm_tool vitepress "$spec" & pids+=($!)
  setup_npm_tool docusaurus "$spec/docusaurus" & pids+=($!)
  setup_npm_tool starlight "$spec/starlight" & pids+=($!)
  for name in "${pids[@]}"; do wait "$name" || setup_die "npm ci of a docs generator failed (above)"; done
  # mdBook: compiled once per machine into a versioned folder of the user's
  # cache, not per clone (every clean clone compiled it again, beside the
  # tests' own build on the same cores), and not into ~/.cargo/bin, where it
  # would replace a version of the user's own. target/docs-tools/bin/mdbook
  # links to it.
  local mdbook_root="${XDG_CACHE_HOME:-$HOME/.cache}/compaction-playground/mdbook-$SETUP_MDBOOK_VERSION"
  if [[ "$("$mdbook_root/bin/mdbook" --version 2>/dev/null)" == "mdbook v$SETUP_MDBOOK_VERSION" ]]; then
    setup_log "mdBook $SETUP_MDBOOK_VERSION present ($mdbook_root)"
  else
    # Only `mdbook build` is used: without its server and watcher (tokio, axum,
    # notify), the compile takes a fraction of the time.
    setup_log "cargo install mdbook --version =$SETUP_MDBOOK_VERSION --locked --no-default-features --features search --root $mdbook_root (a minute or two, once per machine)"
    cargo install mdbook --version "=$SETUP_MDBOOK_VERSION" --locked --no-default-features --features search --root "$mdbook_root" </dev/null ||
      setup_die "cargo install mdbook failed"
  fi
  mkdir -p "$tools/bin"
  ln -sf "$mdbook_root/bin/mdbook" "$tools/bin/mdbook"
  setup_log "docs generators ready in target/docs-tools/"
}

# Firefox ESR (Debian's), the second browser engine of the browser tests,
# driven by puppeteer-core over WebDriver BiDi. Only `npm test` needs it.
setup_firefox() {
  setup_apt_install firefox-esr
  [[ -x /usr/bin/firefox-esr ]] || setup_die "/usr/bin/firefox-esr not found after installing the firefox-esr package"
  setup_log "Firefox present ($(/usr/bin/firefox-esr --version 2>/dev/null))"
}

setup_all() {
  local t0=$SECONDS
  setup_log "checking prerequisites in $SETUP_REPO_ROOT"
  setup_system_packages
  setup_rust
  setup_wasm_toolchain
  setup_wasm_bindgen
  setup_node_modules
  setup_log "ready (wasm toolchain: $WASM_TOOLCHAIN, wasm-bindgen $WASM_BINDGEN_VERSION) in $((SECONDS - t0))s"
}

# Run everything unless the caller asked only for the functions.
if [[ "${SETUP_FUNCTIONS_ONLY:-0}" != 1 ]]; then
  setup_all
fi
