//! The code paths of portable kernel texts, and the fewest kernels that take every one of them:
//! what a compile check must build so that every path of the kernel source meets every
//! compiler, whichever kernels it samples besides.
//!
//! A kernel text is one source specialised by its constants, so a path is a value of a
//! constant that selects code (an operation, a loader's direction and vector width, an
//! element-wise op, a schedule, a matrix-instruction layout, a pipeline depth), a math path the
//! text enables (`CK_*_TILE`), an element type, or an entry point it carries. Sizes that only
//! bound loops and offsets (tile extents, LDS offsets) are not paths.

use std::collections::{BTreeMap, BTreeSet};

/// Constants whose values choose code rather than sizes.
const SELECTORS: [&str; 32] = [
    "CK_OP",
    "ASYNC_RING",
    "ASYNC_STAGES",
    "A_ALONG_M",
    "B_ALONG_N",
    "VEC_A",
    "VEC_B",
    "K1A",
    "K1B",
    "KPB",
    "EOP_A",
    "EOP_B",
    "EOP_OUT",
    "SCHEDULE",
    "SK_REDUCTION",
    "FAST_1X1",
    "WIDE_INDEX",
    "REG_PREFETCH",
    "STAGES",
    "MERGE",
    "MFMA_BLOCK",
    "MFMA_WM",
    "MFMA_WN",
    "WMMA_WM",
    "WMMA_WN",
    "WG_M",
    "WG_N",
    "WG_FM",
    "WG_NW",
    "BOX_CH",
    "BLOCKS_PER_CU",
    "WG_BLOCKS_PER_CU",
];

/// The code paths `text` (a portable kernel's source) takes, one string each. An entry point
/// counts with the operation, whose bodies differ under one name (`direct`).
pub fn code_paths(text: &str) -> BTreeSet<String> {
    let mut paths = BTreeSet::new();
    let mut op = "";
    for line in text.lines() {
        let line = line.trim_end();
        if let Some(flag) = line
            .strip_prefix("#define CK_")
            .and_then(|r| r.strip_suffix(" 1"))
            .filter(|f| f.ends_with("_TILE"))
        {
            paths.insert(format!("path CK_{flag}"));
        } else if let Some(decl) = line
            .strip_prefix("constexpr int ")
            .or_else(|| line.strip_prefix("constexpr bool "))
        {
            if let Some((name, value)) = decl.strip_suffix(';').and_then(|d| d.split_once(" = "))
                && SELECTORS.contains(&name)
            {
                if name == "CK_OP" {
                    op = value;
                }
                paths.insert(format!("{name} = {value}"));
            }
        } else if let Some(ty) = line.strip_prefix("typedef ").and_then(|t| {
            ["AT", "BT", "OT"]
                .iter()
                .find_map(|role| t.strip_suffix(&format!(" {role};")).map(|ty| (role, ty)))
        }) {
            paths.insert(format!("{} = {}", ty.0, ty.1));
        } else if let Some(entry) = line
            .strip_prefix("CK_ENTRY(")
            .or_else(|| line.strip_prefix("CK_ENTRY_THREADS("))
            .and_then(|r| r.split([')', ',']).next())
        {
            paths.insert(format!("entry {entry} of {op}"));
        }
    }
    paths
}

/// The fewest kernels (greedily) whose texts together take every path any of `kernels` (name,
/// text) takes: each pick the kernel with the most paths not yet taken, the first name on
/// ties, so the choice is the same on every machine.
pub fn covering<'a>(kernels: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<&'a str> {
    let paths: BTreeMap<&str, BTreeSet<String>> = kernels
        .into_iter()
        .map(|(name, text)| (name, code_paths(text)))
        .collect();
    let mut left: BTreeSet<&String> = paths.values().flatten().collect();
    let mut chosen = Vec::new();
    while !left.is_empty() {
        let (name, taken) = paths
            .iter()
            .map(|(name, p)| (*name, p.iter().filter(|x| left.contains(x)).count()))
            .fold(("", 0), |best, c| if c.1 > best.1 { c } else { best });
        if taken == 0 {
            break;
        }
        for p in &paths[name] {
            left.remove(p);
        }
        chosen.push(name);
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "typedef ck_f16 AT;\ntypedef ck_loader<AT, MPB> ck_a_loader;\n\
        #undef CK_MMA_TILE\n#define CK_MMA_TILE 1\n#define CK_TMA_TILE 0\n\
        constexpr int CK_OP = CK_FWD;\nconstexpr int MPB = 128;\nconstexpr bool ASYNC_RING = true;\n\
        CK_ENTRY(main)(const CK_GRID_CONST CkArgs a) {\n\
        CK_ENTRY_THREADS(direct, DIRECT_BLOCK, 2)(const CK_GRID_CONST CkArgs a) {\n";

    #[test]
    fn paths_are_selecting_constants_math_paths_types_and_entries() {
        let paths: Vec<String> = code_paths(TEXT).into_iter().collect();
        assert_eq!(
            paths,
            [
                "ASYNC_RING = true",
                "AT = ck_f16",
                "CK_OP = CK_FWD",
                "entry direct of CK_FWD",
                "entry main of CK_FWD",
                "path CK_MMA_TILE",
            ]
        );
    }

    #[test]
    fn the_cover_takes_every_path_in_fewer_kernels() {
        let other = TEXT.replace("CK_FWD", "CK_BWD_DATA");
        let same = TEXT.replace("MPB = 128", "MPB = 256");
        let kernels = [("a", TEXT), ("b", same.as_str()), ("c", other.as_str())];
        // `b` takes nothing `a` does not; the first name wins the tie.
        assert_eq!(covering(kernels), ["a", "c"]);
        assert!(covering([]).is_empty());
    }
}
