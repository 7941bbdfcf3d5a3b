//! The persistent tuning database: for each device and library, the instance that timed fastest
//! on each problem. One JSON file, shared by processes: each save takes an exclusive lock on a
//! sidecar file, merges what other processes saved meanwhile and replaces the file atomically
//! (a temporary file renamed over it), so readers never see half a file. A file that cannot be
//! read or parsed is reported and ignored, never fatal.
//!
//! Entries are keyed by a [`DeviceKey`] (card, driver, kernel compiler and the library's
//! fingerprint, [`Registry::fingerprint`]) and by the problem's string. A new driver, compiler
//! or library version starts a new table, so no stale timing is consulted; an entry whose
//! instance is no longer registered, or no longer supports the problem, is skipped.

use crate::backend::{Backend, DeviceId};
use crate::problem::ConvProblem;
use crate::registry::{NoInstance, Registry};
use ck_compiler::ir::Checked;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The `format` field of the file; other values are ignored like a corrupt file.
const FORMAT: &str = "ckdsl-tuning-db 1";
/// Files above this size are ignored: a database holds one short entry a problem.
pub const MAX_DB_BYTES: u64 = 64 << 20;

/// What tuning results depend on besides the problem: the device and the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceKey {
    pub device: DeviceId,
    /// [`Registry::fingerprint`] of the library tuned.
    pub library: String,
}

impl DeviceKey {
    /// The key of `backend`'s device for the library `reg`; None where the back end keeps no
    /// tuning results ([`Backend::device_id`]).
    pub fn of(backend: &dyn Backend, reg: &Registry) -> Option<DeviceKey> {
        Some(DeviceKey {
            device: backend.device_id()?,
            library: reg.fingerprint(),
        })
    }

    fn id(&self) -> String {
        let d = &self.device;
        format!(
            "{} | driver {} | {} | library {}",
            d.card, d.driver, d.compiler, self.library
        )
    }
}

/// A tuned problem: the fastest verified instance, its median time and how many candidates
/// were timed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub instance: String,
    pub us: f64,
    pub timed: usize,
    /// UTC date of the measurement (`YYYY-MM-DD`).
    pub date: String,
}

#[derive(Default, Serialize, Deserialize)]
struct DbFile {
    format: String,
    /// Device key ([`DeviceKey::id`]) → problem string → result.
    devices: BTreeMap<String, BTreeMap<String, Record>>,
}

/// A selected instance and the ranking that chose it.
#[derive(Clone, Debug, PartialEq)]
pub struct Selected<'r> {
    pub instance: &'r Checked,
    pub by: Ranking,
}

/// How an instance was selected.
#[derive(Clone, Debug, PartialEq)]
pub enum Ranking {
    /// Timed fastest on this device before (the tuning database).
    Tuned(Record),
    /// The registry's own ranking ([`crate::select::cost`]).
    CostModel,
}

/// The database's file could not be used; it is ignored (and replaced on the next save).
#[derive(Debug, thiserror::Error)]
#[error("tuning database {}: ignored ({reason}); saving replaces it", path.display())]
pub struct Ignored {
    pub path: PathBuf,
    pub reason: Unusable,
}

/// Why a database file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum Unusable {
    #[error("{0}")]
    Read(io::Error),
    #[error("not a regular file")]
    NotAFile,
    #[error("larger than {} MiB", MAX_DB_BYTES >> 20)]
    TooLarge,
    #[error("not valid: {0}")]
    Invalid(serde_json::Error),
    #[error("format `{}`, expected `{FORMAT}`", .0.escape_debug())]
    Format(String),
    #[error("a time that is not a positive number")]
    BadTime,
}

/// Saving failed; the file on disk is unchanged.
#[derive(Debug, thiserror::Error)]
#[error("tuning database {}: {source}", path.display())]
pub struct SaveError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

/// The database of one file, as read, plus what this process added.
#[derive(Debug)]
pub struct TuningDb {
    path: PathBuf,
    devices: BTreeMap<String, BTreeMap<String, Record>>,
}

impl TuningDb {
    /// `$CKDSL_TUNING_DB`, else `tuning.json` under `$XDG_CACHE_HOME/ckdsl` or
    /// `$HOME/.cache/ckdsl`; None when none of them is set.
    pub fn default_path() -> Option<PathBuf> {
        let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(p) = var("CKDSL_TUNING_DB") {
            return Some(PathBuf::from(p));
        }
        let cache = var("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
        Some(cache.join("ckdsl").join("tuning.json"))
    }

    /// The database at `path`: empty when the file does not exist, and empty with the reason
    /// when it cannot be read or is not a tuning database.
    pub fn open(path: &Path) -> (TuningDb, Option<Ignored>) {
        let (devices, ignored) = match read_devices(path) {
            Ok(devices) => (devices, None),
            Err(reason) => (
                BTreeMap::new(),
                Some(Ignored {
                    path: path.to_path_buf(),
                    reason,
                }),
            ),
        };
        (
            TuningDb {
                path: path.to_path_buf(),
                devices,
            },
            ignored,
        )
    }

    /// Problems tuned for `key`.
    pub fn len(&self, key: &DeviceKey) -> usize {
        self.devices.get(&key.id()).map_or(0, BTreeMap::len)
    }

    /// The result tuned for `p` on `key`, if any.
    pub fn get(&self, key: &DeviceKey, p: &ConvProblem) -> Option<&Record> {
        self.devices.get(&key.id())?.get(&p.to_string())
    }

    /// Records (or replaces) the result for `p` on `key`; [`TuningDb::save`] writes it.
    pub fn insert(&mut self, key: &DeviceKey, p: &ConvProblem, record: Record) {
        self.devices
            .entry(key.id())
            .or_default()
            .insert(p.to_string(), record);
    }

    /// The tuned instance for `p` on `backend`'s device ([`DeviceKey::of`]), where it is
    /// still registered in `reg` and `backend` can run it on `p`.
    pub fn tuned<'r>(
        &self,
        reg: &'r Registry,
        p: &ConvProblem,
        backend: &dyn Backend,
    ) -> Option<(&'r Checked, &Record)> {
        let tuned = self.get(&DeviceKey::of(backend, reg)?, p)?;
        let inst = reg.get(&tuned.instance)?;
        reg.candidates_for(p, backend)
            .iter()
            .any(|c| c.instance.name == inst.name && c.verdict.is_ok())
            .then_some((inst, tuned))
    }

    /// Selection with the database first: the tuned instance where there is one
    /// ([`TuningDb::tuned`]), else the registry's choice ([`Registry::select_for`]).
    pub fn select_for<'r>(
        &self,
        reg: &'r Registry,
        p: &ConvProblem,
        backend: &dyn Backend,
    ) -> Result<Selected<'r>, NoInstance> {
        if let Some((instance, tuned)) = self.tuned(reg, p, backend) {
            return Ok(Selected {
                instance,
                by: Ranking::Tuned(tuned.clone()),
            });
        }
        Ok(Selected {
            instance: reg.select_for(p, backend)?,
            by: Ranking::CostModel,
        })
    }

    /// Writes the database: under an exclusive lock on `<file>.lock`, the file's current
    /// entries (other processes' saves) merged with this one's (which win for the same device
    /// and problem), written to a temporary file in the same folder and renamed over it.
    pub fn save(&mut self) -> Result<(), SaveError> {
        let err = |source| SaveError {
            path: self.path.clone(),
            source,
        };
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(err)?;
        }
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(sibling(&self.path, ".lock"))
            .map_err(err)?;
        lock.lock().map_err(err)?;
        // What others saved since this process read the file; an unreadable file is replaced.
        let mut merged = read_devices(&self.path).unwrap_or_default();
        for (device, problems) in &self.devices {
            let table = merged.entry(device.clone()).or_default();
            for (problem, tuned) in problems {
                table.insert(problem.clone(), tuned.clone());
            }
        }
        let file = DbFile {
            format: FORMAT.into(),
            devices: merged,
        };
        let text = serde_json::to_string_pretty(&file).map_err(|e| err(io::Error::other(e)))?;
        let tmp = sibling(&self.path, &format!(".tmp.{}", std::process::id()));
        let written = File::create(&tmp)
            .and_then(|mut f| {
                f.write_all(text.as_bytes())?;
                f.write_all(b"\n")?;
                f.sync_all()
            })
            .and_then(|()| fs::rename(&tmp, &self.path));
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(err(e));
        }
        self.devices = file.devices;
        // The lock is released when `lock` closes.
        Ok(())
    }
}

/// `path` with `suffix` appended to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// The tables of the file at `path` (none when it does not exist), or why it cannot be used.
fn read_devices(path: &Path) -> Result<BTreeMap<String, BTreeMap<String, Record>>, Unusable> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(Unusable::Read(e)),
    };
    let meta = file.metadata().map_err(Unusable::Read)?;
    if !meta.is_file() {
        return Err(Unusable::NotAFile);
    }
    if meta.len() > MAX_DB_BYTES {
        return Err(Unusable::TooLarge);
    }
    let mut text = String::new();
    file.take(MAX_DB_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(Unusable::Read)?;
    let parsed: DbFile = serde_json::from_str(&text).map_err(Unusable::Invalid)?;
    if parsed.format != FORMAT {
        return Err(Unusable::Format(parsed.format));
    }
    let bad = parsed
        .devices
        .values()
        .flat_map(BTreeMap::values)
        .any(|t| !(t.us.is_finite() && t.us > 0.0));
    if bad {
        return Err(Unusable::BadTime);
    }
    Ok(parsed.devices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::CpuBackend;
    use crate::testing::{FakeDevice, Variant, changed, instance};

    fn device() -> DeviceId {
        DeviceId {
            card: "card".into(),
            driver: "1.0".into(),
            compiler: "NVRTC 13.0 sm_90a".into(),
        }
    }

    fn key(library: &str) -> DeviceKey {
        DeviceKey {
            device: device(),
            library: library.into(),
        }
    }

    fn tuned(name: &str, us: f64) -> Record {
        Record {
            instance: name.into(),
            us,
            timed: 3,
            date: "2026-11-28".into(),
        }
    }

    fn problem(k: u64) -> ConvProblem {
        ConvProblem::parse(&format!(
            "bwd_weight 2d N=2 K={k} C=16 filter=3 input=8 pad=1"
        ))
        .unwrap()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ck-tuning-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_saved_result_is_found_by_another_reader_of_the_same_device_and_library() {
        let dir = temp_dir("reuse");
        let path = dir.join("sub").join("tuning.json");
        let (mut db, ignored) = TuningDb::open(&path);
        assert!(ignored.is_none());
        db.insert(&key("a"), &problem(16), tuned("x", 2.5));
        db.save().unwrap();
        let (again, ignored) = TuningDb::open(&path);
        assert!(ignored.is_none());
        assert_eq!(again.get(&key("a"), &problem(16)), Some(&tuned("x", 2.5)));
        // Another library, or another problem: nothing.
        assert_eq!(again.get(&key("b"), &problem(16)), None);
        assert_eq!(again.get(&key("a"), &problem(32)), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn saves_of_two_processes_merge() {
        let dir = temp_dir("merge");
        let path = dir.join("tuning.json");
        let (mut first, _) = TuningDb::open(&path);
        let (mut second, _) = TuningDb::open(&path);
        first.insert(&key("a"), &problem(16), tuned("x", 1.0));
        second.insert(&key("a"), &problem(32), tuned("y", 2.0));
        first.save().unwrap();
        second.save().unwrap();
        let (db, _) = TuningDb::open(&path);
        assert_eq!(db.len(&key("a")), 2);
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(names.iter().all(|n| !n.contains(".tmp.")), "{names:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_corrupt_or_foreign_file_is_reported_ignored_and_replaced() {
        let dir = temp_dir("corrupt");
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tuning.json");
        for (text, why) in [
            ("{ not json", "not valid"),
            (
                r#"{"format": "other 9", "devices": {}}"#,
                "format `other 9`",
            ),
            (
                r#"{"format": "ckdsl-tuning-db 1", "devices": {"d": {"p": {"instance": "x", "us": -1, "timed": 1, "date": ""}}}}"#,
                "positive",
            ),
        ] {
            fs::write(&path, text).unwrap();
            let (mut db, ignored) = TuningDb::open(&path);
            let ignored = ignored.expect(text);
            assert!(ignored.to_string().contains(why), "{ignored}");
            assert_eq!(db.len(&key("a")), 0);
            db.insert(&key("a"), &problem(16), tuned("x", 1.0));
            db.save().unwrap();
            assert!(TuningDb::open(&path).1.is_none());
        }
        // A folder where the file should be: ignored, and saving fails with the path.
        let folder = dir.join("folder");
        fs::create_dir_all(&folder).unwrap();
        let (mut db, ignored) = TuningDb::open(&folder);
        assert!(ignored.is_some());
        db.insert(&key("a"), &problem(16), tuned("x", 1.0));
        let e = db.save().unwrap_err();
        assert!(e.to_string().contains("folder"), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn selection_takes_the_tuned_instance_only_while_it_is_registered_and_supports_the_problem() {
        let mut reg = Registry::default();
        reg.register(instance(Variant::XdlV1), 0).unwrap();
        reg.register(instance(Variant::XdlV3), 0).unwrap();
        // A CPU "device" that keeps tuning results under a fixed identity.
        let be = FakeDevice {
            id: Some(device()),
            ..FakeDevice::default()
        };
        let (mut db, _) = TuningDb::open(Path::new("/nonexistent/ck-tuning.json"));
        let p = problem(16);
        let k = key(&reg.fingerprint());
        let by_cost = db.select_for(&reg, &p, &be).unwrap();
        assert_eq!(by_cost.by, Ranking::CostModel);
        let other = if by_cost.instance.name == "test_xdl_v1" {
            "test_xdl_v3"
        } else {
            "test_xdl_v1"
        };
        db.insert(&k, &p, tuned(other, 1.0));
        let chosen = db.select_for(&reg, &p, &be).unwrap();
        assert_eq!(chosen.instance.name, other);
        assert_eq!(chosen.by, Ranking::Tuned(tuned(other, 1.0)));
        // Another library (a registry with one more instance) keys another table.
        let mut grown = reg.clone();
        let extra = changed(&instance(Variant::XdlV1), |i| i.name = "extra".into());
        grown.register(extra, 0).unwrap();
        assert_ne!(grown.fingerprint(), reg.fingerprint());
        assert!(db.tuned(&grown, &p, &be).is_none());
        // A back end without a key, or an instance that left the library: the cost model.
        assert!(db.tuned(&reg, &p, &CpuBackend::default()).is_none());
        db.insert(&k, &p, tuned("gone", 1.0));
        assert_eq!(db.select_for(&reg, &p, &be).unwrap().by, Ranking::CostModel);
    }
}
