# Environment for building and testing ckdsl; sourced by .ci/run and by hand.
# NVRTC comes from the pip wheel scripts/setup.sh unpacks (the CUDA back end loads it at run time).
CK_NVRTC_LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/nvrtc/site/nvidia/cu13/lib"
export LD_LIBRARY_PATH="$CK_NVRTC_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset CK_NVRTC_LIB
