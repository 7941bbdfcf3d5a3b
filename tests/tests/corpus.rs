//! Every layer of the network corpus (`bench/networks/corpus.json`, crawled from real models) has
//! a library instance for each op a training step runs on it, in fp16, bf16 and fp32, on an
//! H100-sized device: no layer of those networks is refused.

use ck_compiler::model::{DataType, Op};
use ck_runtime::Registry;
use ck_runtime::shapes::{self, Shape};
use ck_runtime::testing::h200;
use std::collections::BTreeMap;

fn corpus() -> Vec<Shape> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/networks/corpus.json");
    let text = std::fs::read_to_string(path).expect("the corpus is in the repository");
    shapes::parse(&text).expect("the corpus parses")
}

#[test]
fn every_corpus_layer_has_an_instance_in_every_op_it_needs() {
    let device = h200();
    let mut registry = Registry::new(device);
    registry
        .extend(ck_instances::all().iter().cloned(), 0)
        .unwrap();
    let corpus = corpus();
    let mut missing: BTreeMap<(Op, DataType, String), Vec<String>> = BTreeMap::new();
    let mut checked = 0;
    for s in &corpus {
        for op in [Op::Fwd, Op::BwdData, Op::BwdWeight] {
            if !s.needs(op) {
                continue;
            }
            for dtype in [DataType::Fp16, DataType::Bf16, DataType::Fp32] {
                let p = s.problem(op, dtype).unwrap();
                checked += 1;
                if registry.select(&p).is_err() {
                    let class = s.category.clone().unwrap_or_default();
                    missing
                        .entry((op, dtype, class))
                        .or_default()
                        .push(p.to_string());
                }
            }
        }
    }
    let lines: Vec<String> = missing
        .iter()
        .map(|((op, dt, class), ps)| format!("{op} {dt} {class}: {} e.g. {}", ps.len(), ps[0]))
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {checked} corpus problems have no instance:\n{}",
        missing.values().map(Vec::len).sum::<usize>(),
        lines.join("\n")
    );
}
