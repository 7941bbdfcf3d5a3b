//! Compiles every `.ck` file of the library into `OUT_DIR`; a library with errors fails the build
//! with the rendered diagnostics.

fn main() {
    // Build scripts run in the package folder; relative names keep the instances' `source`
    // fields free of the checkout's location.
    let paths = library_paths().unwrap_or_else(|e| fail(&e));
    println!("cargo:rerun-if-changed=.");
    if let Err(e) = ck_compiler::build_api::Config::new().compile(&paths) {
        fail(&e.to_string());
    }
}

/// The package's `.ck` files and subfolders except `src/`, sorted.
fn library_paths() -> Result<Vec<std::path::PathBuf>, String> {
    let entries = std::fs::read_dir(".").map_err(|e| format!("cannot list the package: {e}"))?;
    let mut paths = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list the package: {e}"))?
            .path();
        let folder = path.is_dir() && path.file_name().is_some_and(|n| n != "src");
        if folder || path.extension().is_some_and(|e| e == "ck") {
            paths.push(path.strip_prefix(".").unwrap_or(&path).to_path_buf());
        }
    }
    paths.sort();
    Ok(paths)
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(1)
}
