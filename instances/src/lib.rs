//! The ckdsl instance library: every `.ck` file of this package, validated at build time.
//!
//! ```
//! let library = ck_instances::all();
//! assert!(library.iter().any(|i| i.op == ck_compiler::model::Op::BwdWeight));
//! ```

use ck_compiler::ir::Checked;
use std::sync::OnceLock;

mod generated {
    include!(concat!(env!("OUT_DIR"), "/ckdsl_instances.rs"));
}

/// The validated IR of the library as JSON (an array of [`ck_compiler::ir::Instance`]).
pub const JSON: &str = generated::INSTANCES_JSON;

/// Every instance of the library, in declaration order (files sorted by path).
pub fn all() -> &'static [Checked] {
    static ALL: OnceLock<Vec<Checked>> = OnceLock::new();
    ALL.get_or_init(|| {
        // Reading a `Checked` validates it again: the build script validated the library and
        // wrote this JSON from the same type, so it always reads back.
        serde_json::from_str(JSON).expect("the library's JSON is the validated IR")
    })
}

/// The library instance named `name`.
pub fn get(name: &str) -> Option<&'static Checked> {
    all().iter().find(|i| i.name == name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_library_loads_with_unique_names_and_sources() {
        let all = super::all();
        assert!(!all.is_empty());
        let mut names: Vec<&str> = all.iter().map(|i| i.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        for inst in all {
            assert!(
                inst.source.ends_with(".ck"),
                "{}: {}",
                inst.name,
                inst.source
            );
            assert!(std::path::Path::new(&inst.source).is_relative());
            assert_eq!(super::get(&inst.name), Some(inst));
        }
    }
}
