//! The parts of `ckc` that need no command line: saved benchmark runs, as `ckc bench-report`
//! reads, merges and renders them (the fuzz targets and tests call these directly).

pub mod bench {
    pub mod report;
}
