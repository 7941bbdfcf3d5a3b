//! `.ck` source for imported instances: every parameter the instance string fixes is written out
//! as a key, so that compiling the source gives the same string back.

use super::traits::ImportedInstance;
use crate::emit::format::{CkFormat, FlagField, IntField, Role, SeqField, Side, TypeSlot, Value};
use crate::ir::Instance;
use crate::model::{Kind, Op};
use std::collections::BTreeSet;

/// Every key the importer writes, in the order it writes them.
pub(super) const KEYS: &[&str] = &[
    "op",
    "dims",
    "kind",
    "layout",
    "weight_layout",
    "output_layout",
    "ds.layouts",
    "ds.types",
    "sources.in",
    "sources.wei",
    "types.in",
    "types.wei",
    "types.out",
    "types.acc",
    "types.compute_a",
    "types.compute_b",
    "types.cshuffle",
    "elementwise.in",
    "elementwise.wei",
    "elementwise.out",
    "spec",
    "gemm_spec",
    "block",
    "tile",
    "k1",
    "ak1",
    "bk1",
    "instr",
    "repeat",
    "warps",
    "warp_tile",
    "vector",
    "wave_groups",
    "explicit_gemm",
    "split_image",
    "pad",
    "a.cluster",
    "a.arrange",
    "a.access",
    "a.vector_dim",
    "a.src_vector",
    "a.dst_vector",
    "a.lds_pad",
    "b.cluster",
    "b.arrange",
    "b.access",
    "b.vector_dim",
    "b.src_vector",
    "b.dst_vector",
    "b.lds_pad",
    "c.shuffle",
    "c.cluster",
    "c.vector",
    "pipeline.scheduler",
    "pipeline.version",
    "pipeline.prefetch",
    "pipeline.double_buffer",
    "pipeline.direct_load",
    "pipeline.loop_scheduler",
    "pipeline.thread_tile_transfer",
    "wavelet.load",
    "wavelet.math",
    "streamk.reduction",
    "streamk.persistent",
    "merge_groups",
    "large_tensor",
    "transpose",
    "dl.m1_per_thread",
    "dl.n1_per_thread",
    "dl.k_per_thread",
    "dl.cluster_m1",
    "dl.cluster_n1",
    "dl.a.slice",
    "dl.a.cluster",
    "dl.a.arrange",
    "dl.a.access",
    "dl.a.src_vector",
    "dl.a.src_order",
    "dl.a.dst_vector",
    "dl.b.slice",
    "dl.b.cluster",
    "dl.b.arrange",
    "dl.b.access",
    "dl.b.src_vector",
    "dl.b.src_order",
    "dl.b.dst_vector",
    "dl.c_access_order",
    "dl.c_vector_dim",
    "dl.c_vector",
    "targets",
    "ck_format",
    "allow",
];

/// The `.ck` source of one imported instance, with the string as its doc comment.
pub fn to_ck_source(imported: &ImportedInstance) -> String {
    let doc = format!("Imported from `{}`.", imported.text);
    instance_source(&imported.instance, imported.format, &doc)
}

/// `inst` as an `instance` item setting every key that `format`'s fields carry (so every
/// parameter the instance string prints), with `doc` as its doc comment.
pub fn instance_source(inst: &Instance, format: CkFormat, doc: &str) -> String {
    let keys = instance_keys(inst, format);
    let mut out = format!("/// {doc}\ninstance {} {{\n", inst.name);
    let mut section: Option<(&str, Vec<String>)> = None;
    let flush = |out: &mut String, section: &mut Option<(&str, Vec<String>)>| {
        if let Some((name, entries)) = section.take() {
            out.push_str(&format!("    {name} {{ {} }}\n", entries.join(" ")));
        }
    };
    for &i in &keys {
        let key = KEYS[i];
        let value = key_value(inst, key);
        // `dl` keys nest two levels deep; they stay dotted rather than nesting blocks.
        match key.split_once('.').filter(|(head, _)| *head != "dl") {
            Some((head, rest)) => {
                if section.as_ref().is_some_and(|(h, _)| *h != head) {
                    flush(&mut out, &mut section);
                }
                section
                    .get_or_insert((head, Vec::new()))
                    .1
                    .push(format!("{rest} = {value};"));
            }
            None => {
                flush(&mut out, &mut section);
                out.push_str(&format!("    {key} = {value};\n"));
            }
        }
    }
    flush(&mut out, &mut section);
    out.push_str("}\n");
    out
}

/// The indices into [`KEYS`] of the keys `inst`'s source sets: its head, and every key that
/// `format`'s fields carry.
pub(super) fn instance_keys(inst: &Instance, format: CkFormat) -> BTreeSet<usize> {
    let mut keys: BTreeSet<usize> = BTreeSet::new();
    let mut add = |k: &str| {
        if let Some(i) = KEYS.iter().position(|&key| key == k) {
            keys.insert(i);
        }
    };
    for k in [
        "op",
        "dims",
        "kind",
        "layout",
        "weight_layout",
        "output_layout",
        "targets",
    ] {
        add(k);
    }
    if inst.ck_format.is_some() {
        add("ck_format");
    }
    if !inst.allow.is_empty() {
        add("allow");
    }
    let tile = inst.kind == Kind::Tile;
    for field in format.fields() {
        for k in keys_of(field.value, format.op(), tile, inst) {
            add(k);
        }
    }
    keys
}

/// The keys that carry one field's value.
fn keys_of(value: Value, op: Op, tile: bool, inst: &Instance) -> Vec<&'static str> {
    let tensor = |role: Role, keys: [&'static str; 3]| match role.tensor(op) {
        Role::In => keys[0],
        Role::Wei => keys[1],
        _ => keys[2],
    };
    let side = |s: Side, a: &'static str, b: &'static str| if s == Side::A { a } else { b };
    let key = match value {
        Value::NDim | Value::Layout(_) => return vec![],
        Value::DsLayouts if inst.layout.ds.is_empty() => return vec![],
        Value::DsTypes if inst.types.ds.is_empty() => return vec![],
        Value::DsLayouts => "ds.layouts",
        Value::DsTypes => "ds.types",
        Value::Type(TypeSlot::Tensor(role)) => tensor(role, ["types.in", "types.wei", "types.out"]),
        Value::Sources(role) => {
            let (ty, sources) = match role.tensor(op) {
                Role::Wei => ("types.wei", ("sources.wei", &inst.types.weight_sources)),
                _ => ("types.in", ("sources.in", &inst.types.input_sources)),
            };
            // Several tensors' types give the compute type; one tensor is its type.
            return match sources {
                (_, s) if s.is_empty() => vec![ty],
                (key, _) => vec![key],
            };
        }
        Value::Type(TypeSlot::Acc) => "types.acc",
        Value::Type(TypeSlot::ComputeA) => "types.compute_a",
        Value::Type(TypeSlot::ComputeB) => "types.compute_b",
        Value::Type(TypeSlot::CShuffle) => "types.cshuffle",
        Value::ElementOp(role) => tensor(
            role,
            ["elementwise.in", "elementwise.wei", "elementwise.out"],
        ),
        Value::ConvSpec => "spec",
        Value::GemmSpec => "gemm_spec",
        Value::Int(f) => match f {
            IntField::Block => "block",
            IntField::TileM | IntField::TileN | IntField::TileK | IntField::K0 => "tile",
            IntField::K1 => "k1",
            IntField::AK1 => "ak1",
            IntField::BK1 => "bk1",
            IntField::MmaM | IntField::MmaN | IntField::MmaK if tile => "warp_tile",
            IntField::MmaM | IntField::MmaN | IntField::MmaK => "instr",
            IntField::RepeatM | IntField::RepeatN => "repeat",
            IntField::WarpsM | IntField::WarpsN | IntField::WarpsK => "warps",
            IntField::VectorDim(s) => side(s, "a.vector_dim", "b.vector_dim"),
            IntField::SrcVector(s) => side(s, "a.src_vector", "b.src_vector"),
            IntField::DstVector(s) => side(s, "a.dst_vector", "b.dst_vector"),
            IntField::ShuffleM | IntField::ShuffleN => "c.shuffle",
            IntField::CVector => "c.vector",
            IntField::Prefetch => "pipeline.prefetch",
            IntField::MergeGroups => "merge_groups",
            IntField::TransposeSrc | IntField::TransposeDst => "transpose",
            IntField::TileVector(_) => "vector",
            IntField::WaveGroups => "wave_groups",
            IntField::WaveletLoad => "wavelet.load",
            IntField::WaveletMath => "wavelet.math",
            IntField::DlM1PerThread => "dl.m1_per_thread",
            IntField::DlN1PerThread => "dl.n1_per_thread",
            IntField::DlKPerThread => "dl.k_per_thread",
            IntField::DlCVectorDim => "dl.c_vector_dim",
            IntField::DlCVector => "dl.c_vector",
        },
        Value::Seq(f) => match f {
            SeqField::Cluster(s) => side(s, "a.cluster", "b.cluster"),
            SeqField::Arrange(s) => side(s, "a.arrange", "b.arrange"),
            SeqField::Access(s) => side(s, "a.access", "b.access"),
            SeqField::CCluster => "c.cluster",
            SeqField::DlClusterM1 => "dl.cluster_m1",
            SeqField::DlClusterN1 => "dl.cluster_n1",
            SeqField::DlCAccessOrder => "dl.c_access_order",
            SeqField::Dl(s, part) => {
                let parts = [
                    ["dl.a.slice", "dl.b.slice"],
                    ["dl.a.cluster", "dl.b.cluster"],
                    ["dl.a.arrange", "dl.b.arrange"],
                    ["dl.a.access", "dl.b.access"],
                    ["dl.a.src_vector", "dl.b.src_vector"],
                    ["dl.a.src_order", "dl.b.src_order"],
                    ["dl.a.dst_vector", "dl.b.dst_vector"],
                ];
                parts[part as usize][usize::from(s == Side::B)]
            }
        },
        Value::Flag(f, _) => match f {
            FlagField::LdsPad(s) => side(s, "a.lds_pad", "b.lds_pad"),
            FlagField::DirectLoad => "pipeline.direct_load",
            FlagField::LargeTensor => "large_tensor",
            FlagField::PadGemmM | FlagField::PadGemmN => "pad",
            FlagField::ThreadTileTransfer => "pipeline.thread_tile_transfer",
            FlagField::SplitImage => "split_image",
            FlagField::ExplicitGemm => "explicit_gemm",
            FlagField::DoubleSmemBuffer => "pipeline.double_buffer",
        },
        Value::Scheduler => "pipeline.scheduler",
        Value::BlockGemmVersion | Value::WmmaPipelineVersion | Value::TilePipeline => {
            "pipeline.version"
        }
        Value::LoopScheduler => "pipeline.loop_scheduler",
        Value::PrefetchAgain => "pipeline.prefetch",
        Value::StreamK if inst.work.streamk.is_none() => return vec![],
        Value::StreamK => return vec!["streamk.reduction", "streamk.persistent"],
    };
    vec![key]
}

fn list<T: ToString>(items: &[T]) -> String {
    let items: Vec<String> = items.iter().map(T::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// A key's value in `.ck` syntax.
pub(super) fn key_value(inst: &Instance, key: &str) -> String {
    let dl = inst.dl.as_ref();
    let dl_list = |f: fn(&crate::ir::Dl) -> &Vec<u32>| dl.map_or("[]".to_string(), |d| list(f(d)));
    let tk = inst.tile_kernel.as_ref();
    match key {
        "op" => inst.op.to_string(),
        "dims" => inst.ndim.to_string(),
        "kind" => inst.kind.to_string(),
        "layout" => inst.layout.input.to_string(),
        "weight_layout" => inst.layout.weight.to_string(),
        "output_layout" => inst.layout.output.to_string(),
        "ds.layouts" => list(&inst.layout.ds),
        "ds.types" => list(&inst.types.ds),
        "sources.in" => list(&inst.types.input_sources),
        "sources.wei" => list(&inst.types.weight_sources),
        "types.in" => inst.types.input.to_string(),
        "types.wei" => inst.types.weight.to_string(),
        "types.out" => inst.types.output.to_string(),
        "types.acc" => inst.types.acc.to_string(),
        "types.compute_a" => inst.types.compute_a.to_string(),
        "types.compute_b" => inst.types.compute_b.to_string(),
        "types.cshuffle" => inst.types.cshuffle.to_string(),
        "elementwise.in" => inst.elementwise.input.to_string(),
        "elementwise.wei" => inst.elementwise.weight.to_string(),
        "elementwise.out" => inst.elementwise.output.to_string(),
        "spec" => inst.spec.to_string(),
        "gemm_spec" => inst.gemm_spec.to_string(),
        "block" => inst.block.to_string(),
        "tile" => list(&[inst.tile.m, inst.tile.n, inst.tile.k]),
        "k1" | "ak1" => inst.k1[0].to_string(),
        "bk1" => inst.k1[1].to_string(),
        "instr" => list(&inst.mma[..2]),
        "repeat" => list(&inst.repeat),
        "warps" => list(&inst.waves),
        "warp_tile" => list(&inst.mma),
        "vector" => list(&tk.map_or([0; 3], |t| t.vector)),
        "wave_groups" => tk.map_or(1, |t| t.wave_groups).to_string(),
        "explicit_gemm" => tk.is_some_and(|t| t.explicit_gemm).to_string(),
        "split_image" => tk.is_some_and(|t| t.split_image).to_string(),
        "pad" => list(&inst.pad_gemm),
        _ if key.starts_with("a.") || key.starts_with("b.") => {
            let t = if key.starts_with('a') {
                &inst.a
            } else {
                &inst.b
            };
            match &key[2..] {
                "cluster" => list(&t.cluster),
                "arrange" => list(&t.arrange),
                "access" => list(&t.access),
                "vector_dim" => t.vector_dim.to_string(),
                "src_vector" => t.src_vector.to_string(),
                "dst_vector" => t.dst_vector.to_string(),
                "lds_pad" => t.lds_pad.to_string(),
                _ => String::new(),
            }
        }
        "c.shuffle" => list(&[inst.c.m_per_shuffle, inst.c.n_per_shuffle]),
        "c.cluster" => list(&inst.c.cluster),
        "c.vector" => inst.c.vector.to_string(),
        "pipeline.scheduler" => inst.pipeline.scheduler.to_string(),
        "pipeline.version" => inst.pipeline.version.to_string(),
        "pipeline.prefetch" => inst.pipeline.prefetch.to_string(),
        "pipeline.double_buffer" => inst.pipeline.double_buffer.to_string(),
        "pipeline.direct_load" => inst.pipeline.direct_load.to_string(),
        "pipeline.loop_scheduler" => inst.pipeline.loop_scheduler.to_string(),
        "pipeline.thread_tile_transfer" => inst.pipeline.thread_tile_transfer.to_string(),
        "wavelet.load" => inst.wavelet.map_or(0, |w| w.load).to_string(),
        "wavelet.math" => inst.wavelet.map_or(0, |w| w.math).to_string(),
        "streamk.reduction" => inst
            .work
            .streamk
            .map_or(String::new(), |s| s.reduction.to_string()),
        "streamk.persistent" => inst.work.streamk.is_some_and(|s| s.persistent).to_string(),
        "merge_groups" => inst.work.merge_groups.to_string(),
        "large_tensor" => inst.work.large_tensor.to_string(),
        "transpose" => list(&inst.transpose),
        "dl.m1_per_thread" => dl.map_or(0, |d| d.m1_per_thread).to_string(),
        "dl.n1_per_thread" => dl.map_or(0, |d| d.n1_per_thread).to_string(),
        "dl.k_per_thread" => dl.map_or(0, |d| d.k_per_thread).to_string(),
        "dl.cluster_m1" => dl_list(|d| &d.cluster_m1),
        "dl.cluster_n1" => dl_list(|d| &d.cluster_n1),
        "dl.a.slice" => dl_list(|d| &d.a.slice),
        "dl.a.cluster" => dl_list(|d| &d.a.cluster),
        "dl.a.arrange" => dl_list(|d| &d.a.arrange),
        "dl.a.access" => dl_list(|d| &d.a.access),
        "dl.a.src_vector" => dl_list(|d| &d.a.src_vector),
        "dl.a.src_order" => dl_list(|d| &d.a.src_order),
        "dl.a.dst_vector" => dl_list(|d| &d.a.dst_vector),
        "dl.b.slice" => dl_list(|d| &d.b.slice),
        "dl.b.cluster" => dl_list(|d| &d.b.cluster),
        "dl.b.arrange" => dl_list(|d| &d.b.arrange),
        "dl.b.access" => dl_list(|d| &d.b.access),
        "dl.b.src_vector" => dl_list(|d| &d.b.src_vector),
        "dl.b.src_order" => dl_list(|d| &d.b.src_order),
        "dl.b.dst_vector" => dl_list(|d| &d.b.dst_vector),
        "dl.c_access_order" => dl_list(|d| &d.c_access_order),
        "dl.c_vector_dim" => dl.map_or(0, |d| d.c_vector_dim).to_string(),
        "dl.c_vector" => dl.map_or(0, |d| d.c_vector).to_string(),
        "targets" => list(&inst.targets),
        "ck_format" => format!("\"{}\"", inst.ck_format.as_deref().unwrap_or_default()),
        "allow" => list(&inst.allow),
        _ => String::new(),
    }
}
