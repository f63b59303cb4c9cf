#!/usr/bin/env bash
# Installs the real corpora the ranking set is judged on (the Go 1.19 source
# tree and the Python 3.11 standard library, both from Debian's packages) and
# the peer tools the benchmarks compare against. Idempotent: a package already
# installed is not asked for again, so a warm CI machine skips apt entirely.
# Nothing here is ever copied into the repository: the corpora stay where
# Debian puts them and bench/ranking.ts reads a subset from there.
set -euo pipefail

GO_ROOT=/usr/share/go-1.19/src
PY_ROOT=/usr/lib/python3.11

# package name -> a file that proves it is installed (dpkg -s alone would
# accept a half-configured package).
declare -A WANT=(
  [golang-1.19-src]="$GO_ROOT/net/http/client.go"
  [libpython3.11-stdlib]="$PY_ROOT/json/decoder.py"
  [ripgrep]=/usr/bin/rg
  [codesearch]=/usr/bin/cindex
  [universal-ctags]=/usr/bin/ctags
)

missing=()
for pkg in "${!WANT[@]}"; do
  [[ -e "${WANT[$pkg]}" ]] || missing+=("$pkg")
done

if ((${#missing[@]})); then
  SUDO=
  [[ $(id -u) -eq 0 ]] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  # One update per run, and only when something is missing: the lists are
  # what apt-get install needs to resolve the names at all.
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  for pkg in "${missing[@]}"; do
    [[ -e "${WANT[$pkg]}" ]] || { echo "corpus.sh: $pkg installed but ${WANT[$pkg]} is missing" >&2; exit 1; }
  done
fi

echo "python $PY_ROOT"
echo "go $GO_ROOT"
