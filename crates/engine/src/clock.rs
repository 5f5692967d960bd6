//! Wall time for the measured runtimes (a run's `wall_ms`, the ε-net's scan times): diagnostics
//! only, never an input of a decision or of the determinism checksum. Natively this is
//! `std::time::Instant`. On wasm32, where `std::time::Instant::now` panics and the engine has no
//! JavaScript to ask (it depends on no wasm-bindgen), the caller passes the clock once with
//! [`set_clock`]: the web layer passes `performance.now` when its module starts. Without a clock,
//! time stands still there (every runtime reads 0).

use std::time::Duration;

/// A moment of the clock, read with [`Instant::now`]; [`Instant::elapsed`] is the time since.
#[derive(Clone, Copy, Debug)]
pub struct Instant(Moment);

#[cfg(not(target_arch = "wasm32"))]
type Moment = std::time::Instant;

/// Milliseconds from the clock's origin.
#[cfg(target_arch = "wasm32")]
type Moment = f64;

#[cfg(target_arch = "wasm32")]
static CLOCK: std::sync::OnceLock<fn() -> f64> = std::sync::OnceLock::new();

/// Sets the clock the engine reads on wasm32: a monotonic function returning milliseconds from
/// any fixed origin (`performance.now`). The first call wins; natively this does nothing (the
/// engine reads `std::time`).
pub fn set_clock(ms: fn() -> f64) {
    #[cfg(target_arch = "wasm32")]
    let _ = CLOCK.set(ms);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = ms;
}

impl Instant {
    /// Now.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn now() -> Instant {
        Instant(std::time::Instant::now())
    }

    /// Now: the caller's clock ([`set_clock`]), or 0 without one.
    #[cfg(target_arch = "wasm32")]
    pub fn now() -> Instant {
        Instant(CLOCK.get().map_or(0.0, |ms| ms()))
    }

    /// The time since this moment.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }

    /// The time since this moment (zero if the clock went back or reads no number).
    #[cfg(target_arch = "wasm32")]
    pub fn elapsed(&self) -> Duration {
        Duration::try_from_secs_f64((Instant::now().0 - self.0) / 1e3).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_time_never_runs_backwards() {
        let t0 = Instant::now();
        let a = t0.elapsed();
        let b = t0.elapsed();
        assert!(b >= a, "{a:?} then {b:?}");
    }
}
