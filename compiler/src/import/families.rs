//! Imported instances as one `.ck` family: the keys they share written once, the keys that
//! place a CK list's instantiation (rank, layouts, ConvSpec) as axes where the instances are
//! every row under every combination of them, and the rest as the rows of a table. A family is
//! given only where compiling it gives back exactly the instance strings it stands for.

use super::ck_source::{KEYS, instance_keys, key_value};
use super::traits::ImportedInstance;
use crate::emit::instance_string;
use crate::load::Session;
use std::collections::{BTreeMap, BTreeSet};

/// Keys that make axes: what a list's instantiations bind, in declaration order.
const AXES: &[&str] = &["dims", "layout", "weight_layout", "output_layout", "spec"];

/// One instance of a family and where it was read (a doc comment for its row).
pub struct Member<'a> {
    pub imported: &'a ImportedInstance,
    pub origin: String,
}

/// The family `name` (with doc comment `doc`) of `members`, or `None` where they do not all
/// carry the same keys or the family would not compile back to their strings.
pub fn family_source(name: &str, doc: &str, members: &[Member]) -> Option<String> {
    let first = members.first()?.imported;
    let keys = instance_keys(&first.instance, first.format);
    let same = members.iter().all(|m| {
        m.imported.format == first.format
            && instance_keys(&m.imported.instance, m.imported.format) == keys
    });
    if !same {
        return None;
    }
    let keys: Vec<&str> = keys.iter().map(|&i| KEYS[i]).collect();
    let values: Vec<Vec<String>> = members
        .iter()
        .map(|m| {
            keys.iter()
                .map(|k| key_value(&m.imported.instance, k))
                .collect()
        })
        .collect();
    let varies = |k: usize| values.iter().any(|v| v[k] != values[0][k]);
    let (mut axes, mut columns): (Vec<usize>, Vec<usize>) = (0..keys.len())
        .filter(|&k| varies(k))
        .partition(|&k| AXES.contains(&keys[k]));
    axes.sort_by_key(|&k| AXES.iter().position(|a| *a == keys[k]));
    // The axes hold only where the members are each row under every combination of them.
    let distinct = |cols: &[usize]| -> Vec<Vec<&str>> {
        let mut seen = Vec::new();
        for v in &values {
            let t: Vec<&str> = cols.iter().map(|&k| v[k].as_str()).collect();
            if !seen.contains(&t) {
                seen.push(t);
            }
        }
        seen
    };
    let product: usize = axes.iter().map(|&k| distinct(&[k]).len()).product();
    let pairs: BTreeSet<(Vec<&str>, Vec<&str>)> = values
        .iter()
        .map(|v| {
            let pick = |cols: &[usize]| cols.iter().map(|&k| v[k].as_str()).collect::<Vec<_>>();
            (pick(&axes), pick(&columns))
        })
        .collect();
    if pairs.len() != members.len() || product * distinct(&columns).len() != members.len() {
        columns.append(&mut axes);
        columns.sort_unstable();
    }

    let mut out = format!("/// {doc}\nfamily {name} {{\n");
    for (k, key) in keys.iter().enumerate() {
        if !varies(k) {
            out.push_str(&format!("    {key} = {};\n", values[0][k]));
        }
    }
    for &k in &axes {
        let vals: Vec<String> = distinct(&[k])
            .into_iter()
            .map(|t| t[0].to_string())
            .collect();
        out.push_str(&format!("    over {} = [{}];\n", keys[k], vals.join(", ")));
    }
    if !columns.is_empty() {
        let names: Vec<&str> = columns.iter().map(|&k| keys[k]).collect();
        out.push_str(&format!("    rows ({}) {{\n", names.join(", ")));
        let mut rows: BTreeMap<Vec<&str>, usize> = BTreeMap::new();
        for (m, v) in members.iter().zip(&values) {
            let t: Vec<&str> = columns.iter().map(|&k| v[k].as_str()).collect();
            if rows.contains_key(&t) {
                continue;
            }
            let i = rows.len();
            out.push_str(&format!(
                "        /// {}\n        r{i} = ({});\n",
                m.origin,
                t.join(", ")
            ));
            rows.insert(t, i);
        }
        out.push_str("    }\n");
    }
    out.push_str("}\n");
    compiles_back(&out, members).then_some(out)
}

/// Whether `source` compiles to instances of exactly the members' strings.
fn compiles_back(source: &str, members: &[Member]) -> bool {
    let mut session = Session::new();
    session.add_source("family.ck", source);
    let Ok(set) = crate::compile(&session) else {
        return false;
    };
    let got: BTreeSet<String> = set.instances().iter().map(instance_string).collect();
    let want: BTreeSet<String> = members.iter().map(|m| m.imported.text.clone()).collect();
    set.instances().len() == members.len() && got == want
}
