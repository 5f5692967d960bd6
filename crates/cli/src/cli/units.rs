//! Finished units on disk, so that a preempted or cancelled run resumes: each unit's result is
//! written, as soon as it is done, to `OUT/<id>.units/unit-<index>.json` (a temporary file in the
//! same folder, then a rename, so a file is either whole or absent), with the definition, engine
//! and data checksum it was made with. A later run of the same experiment into the same folder
//! takes the files that match instead of running their units again.

use csc_engine::experiment::{ExperimentSpec, Unit, UnitResult, ENGINE};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One finished unit and what it was made with.
#[derive(Serialize, Deserialize)]
struct UnitFile {
    experiment: ExperimentSpec,
    engine: String,
    result: UnitResult,
}

/// The unit files of one experiment run: its folder and the identity a file must match.
pub struct UnitStore<'a> {
    pub dir: PathBuf,
    spec: &'a ExperimentSpec,
    checksum: &'a str,
}

/// What [`UnitStore::load`] found for one unit.
pub enum Found {
    /// A finished result made with this definition, engine and data.
    Done(Box<UnitResult>),
    /// No file.
    Absent,
    /// A file that is not a matching result (another definition, engine or data, or not a unit
    /// file): the unit runs again and its file is replaced. The reason, for the log.
    Stale(String),
}

impl<'a> UnitStore<'a> {
    pub fn new(out: &Path, spec: &'a ExperimentSpec, checksum: &'a str) -> Self {
        UnitStore { dir: out.join(format!("{}.units", spec.id)), spec, checksum }
    }

    fn path(&self, index: usize) -> PathBuf {
        self.dir.join(format!("unit-{index}.json"))
    }

    pub fn load(&self, unit: &Unit) -> Found {
        let path = self.path(unit.index);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Found::Absent,
            Err(e) => return Found::Stale(format!("unreadable ({e})")),
        };
        let f: UnitFile = match serde_json::from_str(&text) {
            Ok(f) => f,
            Err(e) => return Found::Stale(format!("not a unit file ({e})")),
        };
        if f.engine != ENGINE {
            Found::Stale(format!("made by {}, not by this {ENGINE}", f.engine))
        } else if &f.experiment != self.spec {
            Found::Stale("made with another definition or settings".into())
        } else if f.result.dataset.checksum != self.checksum {
            Found::Stale(format!("made on data with checksum {}", f.result.dataset.checksum))
        } else if &f.result.unit != unit {
            Found::Stale("holds another unit".into())
        } else {
            Found::Done(Box::new(f.result))
        }
    }

    /// Writes a finished unit: a temporary file in the folder, flushed, then renamed over
    /// `unit-<index>.json` (atomic on one file system), so a reader or a killed run never sees
    /// half a file.
    pub fn save(&self, result: &UnitResult) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}; check --out", self.dir.display()))?;
        let file = UnitFile { experiment: self.spec.clone(), engine: ENGINE.into(), result: result.clone() };
        let json = serde_json::to_string(&file).map_err(|e| e.to_string())?;
        let path = self.path(result.unit.index);
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let tmp =
            self.dir.join(format!(".unit-{}.json.{}-{nanos}.tmp", result.unit.index, std::process::id()));
        let written = std::fs::File::create(&tmp)
            .and_then(|mut f| f.write_all(json.as_bytes()).and_then(|()| f.sync_all()))
            .and_then(|()| std::fs::rename(&tmp, &path));
        written.map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {e}; check that --out is writable and has room", path.display())
        })
    }

    /// Removes the files of `units` and the folder when nothing else is left in it.
    pub fn remove(&self, units: &[Unit]) {
        for u in units {
            let _ = std::fs::remove_file(self.path(u.index));
        }
        let _ = std::fs::remove_dir(&self.dir);
    }
}
