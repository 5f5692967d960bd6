//! The eviction rules of the threshold cache and vCache ([`Eviction`]; docs/SPEC-NOTES.md,
//! "Online (SPEC §9)", **Eviction**): LRU, the default, and Greedy-Dual-Size-Frequency.
//!
//! GDSF (Cherkasova, "Improving WWW proxies performance with Greedy-Dual-Size-Frequency caching
//! policy", HP Labs report HPL-98-69, 1998) gives each entry `p` the priority
//! `H(p) = L + Fr(p)·Cost(p)/Size(p)` and evicts the lowest; the clock `L` (0 at the start) is set
//! to the evicted entry's priority, so entries not used for a long time age relative to fresh ones.
//! `H(p)` is set at admission (`Fr = 1`) and recomputed with the current `L` at each use
//! (`Fr += 1`). Here:
//! - `Cost(p)` is the LLM cost observed when `p` was admitted (the miss that paid for its answer;
//!   noisy like every observed cost, and not clipped);
//! - `Size(p) = 1`: GDSF divides by the document's size because a proxy's capacity is counted in
//!   bytes; a semantic cache's capacity `k` is counted in entries, so each entry takes one unit of
//!   it (token size would charge capacity the cache does not have);
//! - ties of `H` go to the oldest entry (the one admitted first, the lowest index of the
//!   admission-ordered entries), as LRU's ties do.

use crate::config::Eviction;

/// The bookkeeping of one entry that both rules read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot {
    /// The last round it was admitted or used (LRU).
    pub last_use: usize,
    /// Its uses `Fr`: 1 at admission, +1 per use (GDSF).
    pub frequency: u64,
    /// The LLM cost observed at its admission (GDSF's `Cost`).
    pub cost: f64,
    /// Its GDSF priority `H = L + Fr·Cost/Size`, `Size = 1`.
    pub priority: f64,
}

/// One cache's eviction rule and, for GDSF, its clock `L`.
#[derive(Clone, Debug)]
pub struct Evictor {
    rule: Eviction,
    clock: f64,
}

impl Evictor {
    pub fn new(rule: Eviction) -> Self {
        Evictor { rule, clock: 0.0 }
    }

    /// GDSF's clock `L` (0 until the first eviction).
    pub fn clock(&self) -> f64 {
        self.clock
    }

    /// The slot of an entry admitted in round `t` at observed cost `cost` (`Fr = 1`, `H = L + Cost`).
    pub fn admitted(&self, t: usize, cost: f64) -> Slot {
        Slot { last_use: t, frequency: 1, cost, priority: self.clock + cost }
    }

    /// Records a use of the entry in round `t` (`Fr += 1`, `H = L + Fr·Cost`).
    pub fn used(&self, s: &mut Slot, t: usize) {
        s.last_use = t;
        s.frequency += 1;
        s.priority = self.clock + s.frequency as f64 * s.cost;
    }

    /// The index of the entry to evict among `slots` (in admission order, so index order is age
    /// order), non-empty: LRU's least recently used, or GDSF's lowest priority, ties to the lowest
    /// index; GDSF then sets `L` to the victim's priority.
    pub fn victim(&mut self, slots: &[Slot]) -> usize {
        assert!(!slots.is_empty(), "a victim needs an entry");
        match self.rule {
            Eviction::Lru => (0..slots.len()).min_by_key(|&j| (slots[j].last_use, j)).expect("non-empty"),
            Eviction::Gdsf => {
                let mut v = 0;
                for j in 1..slots.len() {
                    if slots[j].priority.total_cmp(&slots[v].priority).is_lt() {
                        v = j;
                    }
                }
                self.clock = slots[v].priority;
                v
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gdsf_by_hand() {
        // k = 2. a (cost 3) at t=0, b (cost 1) at t=1: H = 3, 1. b used: H_b = 0 + 2·1 = 2.
        // c arrives: evict b (2 < 3), L = 2, H_c = 2 + 0.5 = 2.5. d arrives: evict c (2.5 < 3),
        // L = 2.5, H_d = 2.5 + 4 = 6.5. e arrives: evict a (3 < 6.5), L = 3.
        let mut e = Evictor::new(Eviction::Gdsf);
        let mut slots = vec![e.admitted(0, 3.0), e.admitted(1, 1.0)];
        e.used(&mut slots[1], 2);
        assert_eq!(slots[1].priority, 2.0);
        assert_eq!(e.victim(&slots), 1);
        assert_eq!(e.clock(), 2.0);
        slots.remove(1);
        slots.push(e.admitted(3, 0.5));
        assert_eq!(slots[1].priority, 2.5);
        assert_eq!(e.victim(&slots), 1);
        slots.remove(1);
        slots.push(e.admitted(4, 4.0));
        assert_eq!(slots[1].priority, 6.5);
        assert_eq!(e.victim(&slots), 0);
        assert_eq!(e.clock(), 3.0);
    }

    #[test]
    fn ties_go_to_the_oldest_and_lru_is_unchanged() {
        let mut e = Evictor::new(Eviction::Gdsf);
        let slots = vec![e.admitted(5, 1.0), e.admitted(6, 1.0), e.admitted(7, 1.0)];
        assert_eq!(e.victim(&slots), 0);
        let mut l = Evictor::new(Eviction::Lru);
        let mut slots = vec![l.admitted(5, 9.0), l.admitted(6, 0.1), l.admitted(7, 1.0)];
        l.used(&mut slots[0], 8);
        assert_eq!(l.victim(&slots), 1);
        assert_eq!(l.clock(), 0.0);
    }
}
