//! An imported instance as `.ck` source that compiles. CK can name and print instances that
//! break its own rules; where an instance breaks rules that `allow` relaxes (those on the
//! concrete instance), its source allows each rule it breaks, and the breaks are warnings.

use super::{ImportedInstance, to_ck_source};
use crate::ir::Validated;
use crate::load::Session;
use ck_dsl::Diagnostics;
use std::collections::BTreeSet;

/// The source of an imported instance and its compiled set, whose warnings include the rules
/// the instance breaks; the session holds the source map for printing them.
pub struct Compiled {
    pub source: String,
    pub set: Validated,
    pub session: Session,
}

/// An instance that breaks rules `allow` does not relax: the errors of its source, and the
/// session to print them with.
pub struct Refused {
    pub errors: Diagnostics,
    pub session: Session,
}

/// Compiles `imported`'s `.ck` source; where it breaks rules, compiles it again allowing each
/// of them.
pub fn compile_allowing_breaks(imported: &ImportedInstance) -> Result<Compiled, Box<Refused>> {
    let source = to_ck_source(imported);
    let (result, session) = compile(&source);
    let errors = match result {
        Ok(set) => {
            return Ok(Compiled {
                source,
                set,
                session,
            });
        }
        Err(d) => d,
    };
    let broken: BTreeSet<String> = errors
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code.to_string())
        .collect();
    let mut allowing = imported.clone();
    allowing.instance.allow = broken.into_iter().collect();
    let relaxed = to_ck_source(&allowing);
    match compile(&relaxed) {
        (Ok(set), session) => Ok(Compiled {
            source: relaxed,
            set,
            session,
        }),
        (Err(_), _) => Err(Box::new(Refused { errors, session })),
    }
}

fn compile(text: &str) -> (Result<Validated, Diagnostics>, Session) {
    let mut session = Session::new();
    session.add_source("<import>", text);
    (crate::compile(&session), session)
}
