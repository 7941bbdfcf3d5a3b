use super::*;
use crate::testing::{Variant, instance};

/// Whether libamdhip64 loads; when it does not, hiprtc tests skip unless
/// `CK_REQUIRE_TOOLCHAINS=1` makes that a failure.
fn hip_library() -> bool {
    match api() {
        Ok(_) => true,
        Err(e) => {
            let required = std::env::var("CK_REQUIRE_TOOLCHAINS").is_ok_and(|v| v == "1");
            assert!(!required, "CK_REQUIRE_TOOLCHAINS=1 but {e}");
            eprintln!("skipped: {e}");
            false
        }
    }
}

#[test]
fn missing_library_or_device_is_an_error_not_a_panic() {
    match HipBackend::new(0) {
        Ok(b) => assert!(b.arch().starts_with("gfx")),
        Err(e @ HipError::Load(_)) => {
            assert!(e.to_string().contains("libamdhip64"), "{e}");
            assert!(api().is_err());
        }
        Err(e @ HipError::NoDevice(_)) => assert!(e.to_string().starts_with("no HIP device: ")),
        Err(other) => panic!("unexpected error: {other}"),
    }
}

/// EM_AMDGPU in the ELF header of a code object.
fn is_amdgpu_elf(code: &[u8]) -> bool {
    code.starts_with(b"\x7fELF") && code.get(18..20) == Some(&224u16.to_le_bytes()[..])
}

#[test]
fn hiprtc_compiles_a_portable_kernel_for_gfx90a_through_the_cache() {
    if !hip_library() {
        return;
    }
    let kernel = gpu::portable_kernel(&instance(Variant::TileStreamKLinear), "hip").unwrap();
    let dir = std::env::temp_dir().join(format!("ckdsl-hip-cache-{}", std::process::id()));
    let cache = KernelCache::new(&dir);
    let code = cache
        .code_object(&kernel.name, &kernel.source, "gfx90a")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(is_amdgpu_elf(&code));
    let stored: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(stored.len(), 1);
    // The second request reads the stored object.
    assert_eq!(
        cache
            .code_object(&kernel.name, &kernel.source, "gfx90a")
            .unwrap(),
        code
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hiprtc_errors_name_the_instance_target_and_line() {
    if !hip_library() {
        return;
    }
    let src = "extern \"C\" __global__ void k(float* x) {\n  x[0] = undefined_thing;\n}\n";
    match hiprtc::compile_code_object("broken", src, "gfx90a") {
        Err(e @ HipError::Compile { .. }) => {
            let text = e.to_string();
            assert!(text.contains("`broken` for gfx90a"), "{text}");
            assert!(text.contains("undefined_thing"), "{text}");
        }
        other => panic!("expected a compile error, got {:?}", other.map(|c| c.len())),
    }
    assert!(matches!(
        hiprtc::compile_code_object("nul", "int a;\0", "gfx90a"),
        Err(HipError::Compile { .. })
    ));
}
