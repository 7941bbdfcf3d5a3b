//! Small instance subsets that still cover every work schedule (for the slow GPU sanitizers):
//! every N-th instance plus the first of each schedule the stride missed, so that StreamK
//! fix-ups, auto split-K and two-stage workspaces are always exercised.

use ck_compiler::ir::{Checked, SplitK};
use ck_compiler::model::Reduction;
use std::collections::BTreeSet;

/// How an instance distributes its GEMM-K loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ScheduleKind {
    StreamK {
        reduction: Reduction,
        persistent: bool,
    },
    SplitK {
        /// `None`: chosen at run time (auto).
        slices: Option<u32>,
        two_stage: bool,
    },
}

impl ScheduleKind {
    pub fn of(inst: &Checked) -> Self {
        match inst.work.streamk {
            Some(sk) => ScheduleKind::StreamK {
                reduction: sk.reduction,
                persistent: sk.persistent,
            },
            None => ScheduleKind::SplitK {
                // Fixed counts matter only as one or several.
                slices: match inst.work.split_k {
                    SplitK::Auto => None,
                    SplitK::Fixed(k) => Some(k.min(2)),
                },
                two_stage: inst.work.two_stage,
            },
        }
    }
}

/// Every `every`-th instance (from the first; `every` 0 counts as 1), plus the first instance
/// of each schedule that none of those has; in input order.
pub fn every_nth_with_schedules(insts: &[Checked], every: usize) -> Vec<&Checked> {
    let every = every.max(1);
    let picked: BTreeSet<usize> = (0..insts.len()).step_by(every).collect();
    let mut covered: BTreeSet<ScheduleKind> = picked
        .iter()
        .map(|&i| ScheduleKind::of(&insts[i]))
        .collect();
    let mut keep = picked;
    for (i, inst) in insts.iter().enumerate() {
        if covered.insert(ScheduleKind::of(inst)) {
            keep.insert(i);
        }
    }
    keep.into_iter().map(|i| &insts[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Variant, instance};

    #[test]
    fn every_schedule_survives_a_coarse_stride() {
        let insts: Vec<Checked> = Variant::ALL.iter().map(|&v| instance(v)).collect();
        let kinds: BTreeSet<_> = insts.iter().map(ScheduleKind::of).collect();
        for every in [1, 3, 100] {
            let subset = every_nth_with_schedules(&insts, every);
            let got: BTreeSet<_> = subset.iter().map(|i| ScheduleKind::of(i)).collect();
            assert_eq!(got, kinds, "every {every}");
            // The stride's own picks are all there, in order, and nothing twice.
            let names: Vec<&str> = subset.iter().map(|i| i.name.as_str()).collect();
            for i in (0..insts.len()).step_by(every) {
                assert!(names.contains(&insts[i].name.as_str()));
            }
            let positions: Vec<usize> = subset
                .iter()
                .map(|s| insts.iter().position(|i| i.name == s.name).unwrap())
                .collect();
            assert!(positions.windows(2).all(|w| w[0] < w[1]));
        }
        assert_eq!(every_nth_with_schedules(&insts, 1).len(), insts.len());
        assert_eq!(every_nth_with_schedules(&insts, 100).len(), kinds.len());
    }

    #[test]
    fn the_library_subset_covers_streamk_fixups_and_stays_small() {
        let lib = ck_instances::all();
        let subset = every_nth_with_schedules(lib, 20);
        let kinds: BTreeSet<_> = subset.iter().map(|i| ScheduleKind::of(i)).collect();
        // The library has no atomic StreamK instance; `.ck` files given to gpu_check may.
        for reduction in [Reduction::Linear, Reduction::Tree] {
            assert!(
                kinds.iter().any(
                    |k| matches!(k, ScheduleKind::StreamK { reduction: r, .. } if *r == reduction)
                ),
                "{reduction:?}"
            );
        }
        let all: BTreeSet<_> = lib.iter().map(ScheduleKind::of).collect();
        assert_eq!(kinds, all);
        assert!(subset.len() <= lib.len().div_ceil(20) + all.len());
    }
}
