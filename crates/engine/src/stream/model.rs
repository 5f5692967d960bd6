//! The arrival model one run draws under (SPEC §7), as [`super::ArrivalSpec`] resolves it and
//! the sampler and the stream use it.

/// How arrivals are drawn from a universe.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum ArrivalModel {
    Jittered { sigma: f64 },
    Bursty { burst_mean: f64 },
    Plane,
    Popularity,
    Replay,
}

impl ArrivalModel {
    /// Whether arrivals are exact universe rows (then traces store row indices).
    pub fn exact(&self) -> bool {
        matches!(self, ArrivalModel::Bursty { .. } | ArrivalModel::Popularity | ArrivalModel::Replay)
    }
}
