//! NVRTC: portable kernel source → cubin for one GPU architecture, with compile errors shown
//! next to the generated source line they point at.

use super::CudaError;
use cudarc::nvrtc::{result, sys};
use std::ffi::{CString, c_char};

/// Whether libnvrtc can be loaded (cudarc would panic on first use otherwise).
pub fn available() -> bool {
    // SAFETY: only probes whether the shared library loads.
    unsafe { sys::is_culib_present() }
}

/// `(major, minor)` of the loaded NVRTC.
pub fn version() -> Result<(i32, i32), CudaError> {
    if !available() {
        return Err(CudaError::NoNvrtc);
    }
    let (mut major, mut minor) = (0, 0);
    // SAFETY: NVRTC is present; both pointers are valid for writes.
    unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
        .result()
        .map_err(|e| CudaError::Nvrtc(format!("nvrtcVersion: {e}")))?;
    Ok((major, minor))
}

/// Compiles `source` (named `name` in diagnostics) to a cubin for `arch` (e.g. `sm_90`).
pub fn compile_cubin(name: &str, source: &str, arch: &str) -> Result<Vec<u8>, CudaError> {
    if !available() {
        return Err(CudaError::NoNvrtc);
    }
    let src = CString::new(source)
        .map_err(|_| CudaError::Nvrtc(format!("{name}: source contains a NUL byte")))?;
    let file = CString::new(format!("{name}.hip"))
        .map_err(|_| CudaError::Nvrtc(format!("{name}: bad name")))?;
    let prog = result::create_program(&src, Some(&file))
        .map_err(|e| CudaError::Nvrtc(format!("{name}: {e}")))?;
    let opts = [
        format!("--gpu-architecture={arch}"),
        "-std=c++17".to_string(),
        "-lineinfo".to_string(),
    ];
    // SAFETY: `prog` was just created and is destroyed exactly once below; `src` and `file`
    // outlive it.
    let compiled = unsafe { result::compile_program(prog, &opts) };
    // SAFETY: as above.
    let log = unsafe { result::get_program_log(prog) }
        .map(|l| c_chars_to_string(&l))
        .unwrap_or_default();
    let out = match compiled {
        Ok(()) => cubin(prog).map_err(|e| CudaError::Nvrtc(format!("{name}: {e}"))),
        Err(_) => Err(CudaError::Compile {
            instance: name.to_string(),
            target: arch.to_string(),
            log: annotate(&log, source),
        }),
    };
    // SAFETY: `prog` is valid and not used afterwards.
    let _ = unsafe { result::destroy_program(prog) };
    out
}

fn cubin(prog: sys::nvrtcProgram) -> Result<Vec<u8>, result::NvrtcError> {
    let mut size = 0usize;
    // SAFETY: `prog` is a successfully compiled program; the buffer has the reported size.
    unsafe {
        sys::nvrtcGetCUBINSize(prog, &mut size).result()?;
        let mut buf = vec![0u8; size];
        sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut c_char).result()?;
        Ok(buf)
    }
}

fn c_chars_to_string(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Appends the generated source line after every `file(LINE): error` line of an NVRTC log.
pub fn annotate(log: &str, source: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let mut out = String::new();
    for l in log.lines() {
        out.push_str(l);
        out.push('\n');
        let line_no = l
            .split_once("): ")
            .and_then(|(head, _)| head.rsplit_once('('))
            .and_then(|(_, n)| n.parse::<usize>().ok());
        if let Some(src) = line_no
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| lines.get(i))
        {
            out.push_str(&format!("    | {}\n", src.trim_end()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotate_quotes_the_offending_line() {
        let src = "int a;\nint b = undefined_thing;\n";
        let log = "k.hip(2): error: identifier \"undefined_thing\" is undefined\n1 error detected";
        let out = annotate(log, src);
        assert!(out.contains("k.hip(2): error"));
        assert!(out.contains("    | int b = undefined_thing;"));
        assert_eq!(out.matches("    |").count(), 1);
    }
}
