//! The HIP runtime and hiprtc, loaded at run time from libamdhip64 (and libhiprtc where ROCm
//! ships it separately, from 6.0 on). Only the few entry points the back end calls are
//! declared, with the C signatures of `hip_runtime_api.h` / `hiprtc.h`; status codes stay plain
//! integers, so an unknown code can never be undefined behaviour.

use super::{HipError, LoadError};
use libloading::Library;
use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::sync::OnceLock;

pub type Status = c_int;
pub type Module = *mut c_void;
pub type Function = *mut c_void;
pub type Program = *mut c_void;

/// `hipMemcpyKind`.
pub const MEMCPY_HOST_TO_DEVICE: c_int = 1;
pub const MEMCPY_DEVICE_TO_HOST: c_int = 2;

/// `hipDeviceAttribute_t` values the back end asks for (the same from HIP 5 to 6).
pub const ATTR_MULTIPROCESSOR_COUNT: c_int = 63;
pub const ATTR_MAX_SHARED_MEMORY_PER_BLOCK: c_int = 74;
/// `hipFunction_attribute`: the most threads a workgroup of a function may have, which its
/// registers and LDS bound.
pub const FUNC_ATTR_MAX_THREADS_PER_BLOCK: c_int = 0;

/// Bytes reserved for `hipDeviceProp_t` (792 in HIP 5.x; later layouts only grow), which the
/// back end reads only for the target name: no attribute holds that string.
pub const DEVICE_PROP_BYTES: usize = 4096;
/// The offset of `gcnArchName` in the HIP 5.x `hipDeviceProp_t` (`offsetof` against Debian's
/// HIP 5.2 headers), the layout ROCm 6 keeps under `hipGetDevicePropertiesR0000`.
pub const PROP_GCN_ARCH_NAME: usize = 396;

/// Library names tried in order.
const HIP_LIBS: &[&str] = &["libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"];
const HIPRTC_LIBS: &[&str] = &["libhiprtc.so", "libhiprtc.so.6"];

pub struct Api {
    pub init: unsafe extern "C" fn(c_uint) -> Status,
    pub get_device_count: unsafe extern "C" fn(*mut c_int) -> Status,
    pub set_device: unsafe extern "C" fn(c_int) -> Status,
    pub get_device_properties: unsafe extern "C" fn(*mut c_void, c_int) -> Status,
    pub device_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, c_int) -> Status,
    pub runtime_get_version: unsafe extern "C" fn(*mut c_int) -> Status,
    pub get_error_string: unsafe extern "C" fn(Status) -> *const c_char,
    pub malloc: unsafe extern "C" fn(*mut *mut c_void, usize) -> Status,
    pub free: unsafe extern "C" fn(*mut c_void) -> Status,
    pub memcpy: unsafe extern "C" fn(*mut c_void, *const c_void, usize, c_int) -> Status,
    pub memset_async: unsafe extern "C" fn(*mut c_void, c_int, usize, *mut c_void) -> Status,
    pub device_synchronize: unsafe extern "C" fn() -> Status,
    pub module_load_data: unsafe extern "C" fn(*mut Module, *const c_void) -> Status,
    pub module_unload: unsafe extern "C" fn(Module) -> Status,
    pub module_get_function: unsafe extern "C" fn(*mut Function, Module, *const c_char) -> Status,
    pub func_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, Function) -> Status,
    #[allow(clippy::type_complexity)]
    pub module_launch_kernel: unsafe extern "C" fn(
        Function,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        *mut c_void,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> Status,
    pub rtc: Rtc,
    // The libraries stay loaded for the process: every pointer above points into them.
    _hip: Library,
    _hiprtc: Option<Library>,
}

/// hiprtc entry points (`hiprtcResult` is a plain `int` enum too).
pub struct Rtc {
    pub version: unsafe extern "C" fn(*mut c_int, *mut c_int) -> Status,
    pub get_error_string: unsafe extern "C" fn(Status) -> *const c_char,
    pub create_program: unsafe extern "C" fn(
        *mut Program,
        *const c_char,
        *const c_char,
        c_int,
        *const *const c_char,
        *const *const c_char,
    ) -> Status,
    pub compile_program: unsafe extern "C" fn(Program, c_int, *const *const c_char) -> Status,
    pub get_program_log_size: unsafe extern "C" fn(Program, *mut usize) -> Status,
    pub get_program_log: unsafe extern "C" fn(Program, *mut c_char) -> Status,
    pub get_code_size: unsafe extern "C" fn(Program, *mut usize) -> Status,
    pub get_code: unsafe extern "C" fn(Program, *mut c_char) -> Status,
    pub destroy_program: unsafe extern "C" fn(*mut Program) -> Status,
}

fn open(names: &[&str]) -> Option<Library> {
    // SAFETY: loading the HIP libraries runs only their own initialisers, which have no
    // preconditions on this process.
    names.iter().find_map(|&n| unsafe { Library::new(n) }.ok())
}

/// Copies symbol `name` of type `T` (a function pointer type matching its C declaration) out of
/// `lib`, trying each name in order.
///
/// # Safety
/// `T` must be the function pointer type of the symbol's C declaration.
unsafe fn sym<T: Copy>(lib: &Library, names: &[&str]) -> Result<T, LoadError> {
    for n in names {
        // SAFETY: the caller guarantees `T` matches the symbol.
        if let Ok(s) = unsafe { lib.get::<T>(*n) } {
            return Ok(*s);
        }
    }
    Err(LoadError::Symbol(names.join(" / ")))
}

fn load() -> Result<Api, LoadError> {
    let hip = open(HIP_LIBS).ok_or(LoadError::NoLibrary)?;
    let hiprtc = open(HIPRTC_LIBS);
    // HIP 5.x exports hiprtc from libamdhip64 itself.
    let rtc_lib = hiprtc.as_ref().unwrap_or(&hip);
    // SAFETY: every type below is the function pointer type of the named symbol's declaration
    // in hip_runtime_api.h / hiprtc.h.
    unsafe {
        let rtc = Rtc {
            version: sym(rtc_lib, &["hiprtcVersion"])?,
            get_error_string: sym(rtc_lib, &["hiprtcGetErrorString"])?,
            create_program: sym(rtc_lib, &["hiprtcCreateProgram"])?,
            compile_program: sym(rtc_lib, &["hiprtcCompileProgram"])?,
            get_program_log_size: sym(rtc_lib, &["hiprtcGetProgramLogSize"])?,
            get_program_log: sym(rtc_lib, &["hiprtcGetProgramLog"])?,
            get_code_size: sym(rtc_lib, &["hiprtcGetCodeSize"])?,
            get_code: sym(rtc_lib, &["hiprtcGetCode"])?,
            destroy_program: sym(rtc_lib, &["hiprtcDestroyProgram"])?,
        };
        Ok(Api {
            init: sym(&hip, &["hipInit"])?,
            get_device_count: sym(&hip, &["hipGetDeviceCount"])?,
            set_device: sym(&hip, &["hipSetDevice"])?,
            // ROCm 6 changed the struct and kept the 5.x one under the R0000 name.
            get_device_properties: sym(
                &hip,
                &["hipGetDevicePropertiesR0000", "hipGetDeviceProperties"],
            )?,
            device_get_attribute: sym(&hip, &["hipDeviceGetAttribute"])?,
            runtime_get_version: sym(&hip, &["hipRuntimeGetVersion"])?,
            get_error_string: sym(&hip, &["hipGetErrorString"])?,
            malloc: sym(&hip, &["hipMalloc"])?,
            free: sym(&hip, &["hipFree"])?,
            memcpy: sym(&hip, &["hipMemcpy"])?,
            memset_async: sym(&hip, &["hipMemsetAsync"])?,
            device_synchronize: sym(&hip, &["hipDeviceSynchronize"])?,
            module_load_data: sym(&hip, &["hipModuleLoadData"])?,
            module_unload: sym(&hip, &["hipModuleUnload"])?,
            module_get_function: sym(&hip, &["hipModuleGetFunction"])?,
            func_get_attribute: sym(&hip, &["hipFuncGetAttribute"])?,
            module_launch_kernel: sym(&hip, &["hipModuleLaunchKernel"])?,
            rtc,
            _hip: hip,
            _hiprtc: hiprtc,
        })
    }
}

/// The process-wide library table, loaded on first use.
pub fn api() -> Result<&'static Api, HipError> {
    static API: OnceLock<Result<Api, LoadError>> = OnceLock::new();
    match API.get_or_init(load) {
        Ok(api) => Ok(api),
        Err(e) => Err(e.clone().into()),
    }
}

fn message(s: *const c_char) -> String {
    if s.is_null() {
        return "unknown error".into();
    }
    // SAFETY: HIP returns static NUL-terminated strings for every status.
    unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
}

impl Api {
    /// `Ok` for `hipSuccess`, else the runtime's error text.
    pub fn check(&self, what: &'static str, status: Status) -> Result<(), HipError> {
        if status == 0 {
            return Ok(());
        }
        // SAFETY: takes any status value and returns a static string.
        let text = message(unsafe { (self.get_error_string)(status) });
        Err(HipError::Runtime {
            call: what,
            code: status,
            message: text,
        })
    }

    /// Integer attribute `attr` (`hipDeviceAttribute_t`) of device `ordinal`.
    pub fn attribute(&self, attr: c_int, ordinal: c_int) -> Result<c_int, HipError> {
        let mut value = 0;
        // SAFETY: `value` is valid for writes; HIP checks the attribute and the ordinal.
        self.check("hipDeviceGetAttribute", unsafe {
            (self.device_get_attribute)(&mut value, attr, ordinal)
        })?;
        Ok(value)
    }

    /// `Ok` for `HIPRTC_SUCCESS`, else hiprtc's error text.
    pub fn check_rtc(&self, what: &'static str, status: Status) -> Result<(), HipError> {
        if status == 0 {
            return Ok(());
        }
        // SAFETY: as in `check`.
        let text = message(unsafe { (self.rtc.get_error_string)(status) });
        Err(HipError::Runtime {
            call: what,
            code: status,
            message: text,
        })
    }
}
