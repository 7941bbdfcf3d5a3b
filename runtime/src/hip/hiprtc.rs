//! hiprtc: portable kernel source → AMD code object for one target (e.g. `gfx90a` or
//! `gfx90a:sramecc+:xnack-`). hiprtc compiles with the ROCm installation's own clang and device
//! libraries, so the code objects always match the runtime that loads them; it needs no GPU.
//! Its log is clang's, which already quotes the offending source line.

use super::HipError;
use super::api::{Program, api};
use crate::gpu::KernelCache;
use rayon::prelude::*;
use std::ffi::{CString, c_char};
use std::sync::Mutex;

/// Serialises hiprtc programs: HIP 5.2's hiprtc crashes (SIGSEGV) when two threads compile at
/// once.
static COMPILER: Mutex<()> = Mutex::new(());

/// hiprtc's version and the HIP runtime's, as one cache-key component.
pub fn version() -> Result<String, HipError> {
    let api = api()?;
    let (mut major, mut minor, mut runtime) = (0, 0, 0);
    // SAFETY: the library is loaded; all pointers are valid for writes.
    api.check_rtc("hiprtcVersion", unsafe {
        (api.rtc.version)(&mut major, &mut minor)
    })?;
    // SAFETY: as above.
    api.check("hipRuntimeGetVersion", unsafe {
        (api.runtime_get_version)(&mut runtime)
    })?;
    Ok(format!("hiprtc {major}.{minor} hip {runtime}"))
}

/// Owns one hiprtc program and destroys it on drop.
struct ProgramGuard(Program);

impl Drop for ProgramGuard {
    fn drop(&mut self) {
        if let Ok(api) = api() {
            // SAFETY: the program was created by hiprtcCreateProgram and is destroyed once.
            let _ = unsafe { (api.rtc.destroy_program)(&mut self.0) };
        }
    }
}

/// Compiles `source` (named `name` in errors) to a code object for `arch`.
pub fn compile_code_object(name: &str, source: &str, arch: &str) -> Result<Vec<u8>, HipError> {
    let api = api()?;
    let cstr = |s: &str, what: &str| {
        CString::new(s).map_err(|_| HipError::Compile {
            instance: name.to_string(),
            target: arch.to_string(),
            log: format!("the {what} contains a NUL byte"),
        })
    };
    let src = cstr(source, "source")?;
    let file = cstr(&format!("{name}.hip"), "name")?;
    let opts = [
        cstr(&format!("--offload-arch={arch}"), "target")?,
        cstr("-std=c++17", "option")?,
        cstr("-O3", "option")?,
    ];
    let opt_ptrs: Vec<*const c_char> = opts.iter().map(|o| o.as_ptr()).collect();
    // A panic elsewhere while holding the lock leaves hiprtc itself intact.
    let _one_at_a_time = COMPILER.lock().unwrap_or_else(|e| e.into_inner());
    let mut prog: Program = std::ptr::null_mut();
    // SAFETY: `src` and `file` are NUL-terminated and outlive the call; no headers are passed.
    api.check_rtc("hiprtcCreateProgram", unsafe {
        (api.rtc.create_program)(
            &mut prog,
            src.as_ptr(),
            file.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
        )
    })?;
    let prog = ProgramGuard(prog);
    // SAFETY: `prog` is live; the option pointers point into `opts`, alive for the call.
    let status =
        unsafe { (api.rtc.compile_program)(prog.0, opt_ptrs.len() as i32, opt_ptrs.as_ptr()) };
    if status != 0 {
        return Err(HipError::Compile {
            instance: name.to_string(),
            target: arch.to_string(),
            log: program_log(prog.0).unwrap_or_else(|e| e.to_string()),
        });
    }
    let mut size = 0usize;
    // SAFETY: `prog` compiled; `size` is valid for writes.
    api.check_rtc("hiprtcGetCodeSize", unsafe {
        (api.rtc.get_code_size)(prog.0, &mut size)
    })?;
    let mut code = vec![0u8; size];
    // SAFETY: the buffer has the size hiprtc reported.
    api.check_rtc("hiprtcGetCode", unsafe {
        (api.rtc.get_code)(prog.0, code.as_mut_ptr().cast())
    })?;
    Ok(code)
}

fn program_log(prog: Program) -> Result<String, HipError> {
    let api = api()?;
    let mut size = 0usize;
    // SAFETY: `prog` is live; `size` is valid for writes.
    api.check_rtc("hiprtcGetProgramLogSize", unsafe {
        (api.rtc.get_program_log_size)(prog, &mut size)
    })?;
    let mut log = vec![0u8; size + 1];
    // SAFETY: the buffer holds the reported size plus a terminator.
    api.check_rtc("hiprtcGetProgramLog", unsafe {
        (api.rtc.get_program_log)(prog, log.as_mut_ptr().cast())
    })?;
    let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
    Ok(String::from_utf8_lossy(&log[..end]).into_owned())
}

impl KernelCache {
    /// The code object of `source` for the AMD target `arch`, compiled now unless cached.
    pub fn code_object(&self, name: &str, source: &str, arch: &str) -> Result<Vec<u8>, HipError> {
        let key = Self::key(source, arch, &version()?);
        self.get_or_compile(&key, "hsaco", || compile_code_object(name, source, arch))
    }

    /// Code objects of `(name, source)` pairs, cache reads in parallel (hiprtc itself compiles
    /// one at a time); results in input order.
    pub fn code_objects(
        &self,
        kernels: &[(&str, &str)],
        arch: &str,
    ) -> Vec<Result<Vec<u8>, HipError>> {
        kernels
            .par_iter()
            .map(|(name, source)| self.code_object(name, source, arch))
            .collect()
    }
}
