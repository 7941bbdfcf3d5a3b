#!/usr/bin/env bash
# Installs what building and testing ckdsl needs on a fresh Debian 12 machine:
# the Rust components, and the HIP/NVRTC compilers used by the kernel compile checks.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component add rustfmt clippy >/dev/null 2>&1 || true
