# Environment for building and testing ckdsl; sourced by .ci/run and by hand.
:
