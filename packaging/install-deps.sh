#!/usr/bin/env bash
# Installs exactly the Debian 12 packages that VRAM Planner's build, tests
# and application need; does nothing when they are all present (idempotent).
#   packaging/install-deps.sh          build, test and run
#   packaging/install-deps.sh --tools  also screenshot and benchmark tools
set -euo pipefail

packages=(
  cmake ninja-build g++
  clang libclang-rt-14-dev
  qt6-base-dev qt6-svg-dev qt6-tools-dev qt6-l10n-tools
  libqcustomplot-dev libqcustomplot2.1-qt6
  nlohmann-json3-dev
  fonts-noto-cjk fonts-dejavu-core
  dpkg-dev appstream desktop-file-utils
)
if [[ "${1:-}" == "--tools" ]]; then
  packages+=(xvfb xauth imagemagick poppler-utils hyperfine valgrind ccache)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "Installing: ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  sudo="sudo"
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
  -o DPkg::Lock::Timeout=900 "${missing[@]}" >/dev/null
