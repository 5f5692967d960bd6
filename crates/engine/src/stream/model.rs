//! The arrival model one run draws under (SPEC §7), as [`super::ArrivalSpec`] resolves it and
//! the sampler and the stream use it.

/// How arrivals are drawn from a universe.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum ArrivalModel {
    Jittered {
        sigma: f64,
    },
    Bursty {
        burst_mean: f64,
    },
    Plane,
    Popularity,
    Replay,
    /// `tenants` tenants, each with its own log-normal popularity over the universe, their
    /// log-popularities correlated by `overlap` (docs/SPEC-NOTES.md, "Tenants"); with `overlap`
    /// `None`, tenant g's rows are the dataset's group g (a user file's `--tenant-by` field),
    /// log-normal popularity within it.
    Tenants {
        tenants: u32,
        overlap: Option<f64>,
    },
}

impl ArrivalModel {
    /// Whether arrivals are exact universe rows (then traces store row indices).
    pub fn exact(&self) -> bool {
        matches!(
            self,
            ArrivalModel::Bursty { .. }
                | ArrivalModel::Popularity
                | ArrivalModel::Replay
                | ArrivalModel::Tenants { .. }
        )
    }
}
