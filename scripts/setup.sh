#!/usr/bin/env bash
# Installs what building and testing ckdsl needs on a fresh Debian 12 machine: the Rust
# components, clang-19 HIP (AMD compile checks) and the NVRTC 13.0.88 pip wheel (NVIDIA compile
# checks, unpacked under target/nvrtc/site). Idempotent: a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup component add rustfmt clippy >/dev/null

APT_PKGS=(clang-19 lld-19 libamdhip64-dev rocm-device-libs)
missing=()
for p in "${APT_PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    SUDO=()
    [[ $(id -u) == 0 ]] || SUDO=(sudo)
    "${SUDO[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

NVRTC_SITE=target/nvrtc/site
if ! compgen -G "$NVRTC_SITE/nvidia/cu13/lib/libnvrtc.so.13*" >/dev/null; then
    export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1
    # Pinned: scripts/compile-ledger.txt vouches for kernels compiled by this exact NVRTC.
    python3 -m pip download -q --no-deps -d target/nvrtc/wheels "nvidia-cuda-nvrtc==13.0.88"
    python3 -m pip install -q --no-deps --upgrade --target "$NVRTC_SITE" target/nvrtc/wheels/nvidia_cuda_nvrtc-13.0.88*.whl
fi
