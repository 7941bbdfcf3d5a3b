//! `ckc bench`: time instances on the shapes of a shapes file on an NVIDIA GPU, against cuDNN.
//! The measuring needs the `cuda` feature; the shapes file and the renderings do not.

#[cfg(feature = "cuda")]
mod gpu;
#[cfg(any(feature = "cuda", test))]
mod report;
#[cfg(any(feature = "cuda", test))]
mod shapes;

use crate::cli::{BenchArgs, Color};
use std::process::ExitCode;

#[cfg(feature = "cuda")]
pub fn run(args: &BenchArgs, color: Color) -> Result<ExitCode, String> {
    gpu::run(args, color)
}

#[cfg(not(feature = "cuda"))]
pub fn run(_args: &BenchArgs, _color: Color) -> Result<ExitCode, String> {
    Err(
        "this ckc was built without CUDA support (cargo feature `cuda`): `ckc bench` needs it"
            .into(),
    )
}
