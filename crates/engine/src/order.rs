//! The engine's rankings through one compiled sort.
//!
//! Every `sort_by` with its own closure compiles a whole sort (≈ 7 KB of wasm code each; 23 of
//! them were 9% of the page's code, docs/PERFORMANCE.md, "Where the page's wasm goes"). The
//! rankings below all reduce to one: `(index, value)` pairs ascending by value
//! ([`f64::total_cmp`]), ties by index. The indices of a list are distinct, so that order is
//! total: any sort, stable or not, gives the same result, and a stable sort of a list by a key is
//! exactly this sort of `(position, key)` pairs. Each helper is therefore the same order as the
//! plain `sort_by` it replaces, NaN and signed zeros included (the property tests below).

use std::cmp::Ordering;

/// `(index, value)` ascending by value (total order), ties by index.
pub fn by_value_then_index(a: &(usize, f64), b: &(usize, f64)) -> Ordering {
    a.1.total_cmp(&b.1).then(a.0.cmp(&b.0))
}

/// Sorts `(index, value)` pairs ascending by value, ties by index: the one sort.
pub fn sort_by_value_then_index(v: &mut [(usize, f64)]) {
    v.sort_by(by_value_then_index);
}

/// Reorders the indices `idx` ascending by `key(i)` ([`f64::total_cmp`]), ties by index. For
/// descending, give the negated key: negation mirrors the total order exactly (it flips the sign
/// bit), so `-x` ascending is `x` descending, ties still by index.
pub fn sort_indices_by(idx: &mut [usize], key: impl Fn(usize) -> f64) {
    let mut pairs: Vec<(usize, f64)> = idx.iter().map(|&i| (i, key(i))).collect();
    sort_by_value_then_index(&mut pairs);
    for (slot, (i, _)) in idx.iter_mut().zip(pairs) {
        *slot = i;
    }
}

/// A stable sort of `v` ascending by `key` ([`f64::total_cmp`]): `v.sort_by(|a, b|
/// key(a).total_cmp(&key(b)))`, as `(position, key)` pairs sorted by the one sort, then applied.
pub fn stable_sort_by_key<T>(v: &mut Vec<T>, key: impl Fn(&T) -> f64) {
    let mut pairs: Vec<(usize, f64)> = v.iter().map(&key).enumerate().collect();
    sort_by_value_then_index(&mut pairs);
    let mut slots: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    v.extend(pairs.into_iter().filter_map(|(i, _)| slots[i].take()));
}

/// The map of `(key, value)` pairs, a later pair replacing an earlier one with the same key: what
/// `collect::<BTreeMap<_, _>>()` gives, by insertion instead of its sort of the pairs (a sort
/// compiled for each pair type).
pub fn map_of<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> std::collections::BTreeMap<K, V> {
    let mut m = std::collections::BTreeMap::new();
    for (k, v) in pairs {
        m.insert(k, v);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Few distinct values (ties), NaN of both signs, signed zeros and infinities.
    fn value(code: u8) -> f64 {
        match code {
            0 => f64::NAN,
            1 => -f64::NAN,
            2 => 0.0,
            3 => -0.0,
            4 => f64::INFINITY,
            5 => f64::NEG_INFINITY,
            c => f64::from(c) * 0.25 - 2.0,
        }
    }

    proptest::proptest! {
        #[test]
        fn map_of_is_collect(pairs in proptest::collection::vec((0u8..8, 0u16..100), 0..30)) {
            let collected: std::collections::BTreeMap<u8, u16> = pairs.iter().copied().collect();
            proptest::prop_assert_eq!(map_of(pairs), collected);
        }

        #[test]
        fn indices_ascending_and_descending_are_the_plain_sorts(codes in proptest::collection::vec(0u8..12, 0..40)) {
            let v: Vec<f64> = codes.iter().map(|&c| value(c)).collect();
            let mut plain: Vec<usize> = (0..v.len()).collect();
            plain.sort_by(|&a, &b| v[a].total_cmp(&v[b]).then(a.cmp(&b)));
            let mut got: Vec<usize> = (0..v.len()).collect();
            sort_indices_by(&mut got, |i| v[i]);
            proptest::prop_assert_eq!(&got, &plain);
            // descending, ties ascending in index, through the negated key
            let mut plain: Vec<usize> = (0..v.len()).collect();
            plain.sort_by(|&a, &b| v[b].total_cmp(&v[a]).then(a.cmp(&b)));
            let mut got: Vec<usize> = (0..v.len()).collect();
            sort_indices_by(&mut got, |i| -v[i]);
            proptest::prop_assert_eq!(got, plain);
        }

        #[test]
        fn stable_sort_by_key_is_the_plain_stable_sort(codes in proptest::collection::vec(0u8..12, 0..40)) {
            // elements carry their position, so a different order of equal keys would show
            let v: Vec<(f64, usize)> = codes.iter().enumerate().map(|(i, &c)| (value(c), i)).collect();
            let mut plain = v.clone();
            plain.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut got = v;
            stable_sort_by_key(&mut got, |p| p.0);
            let bits = |w: &[(f64, usize)]| w.iter().map(|p| (p.0.to_bits(), p.1)).collect::<Vec<_>>();
            proptest::prop_assert_eq!(bits(&got), bits(&plain));
        }

        #[test]
        fn pairs_are_the_plain_sort(codes in proptest::collection::vec(0u8..12, 0..40)) {
            let v: Vec<(usize, f64)> = codes.iter().enumerate().map(|(i, &c)| (i % 5, value(c))).collect();
            let mut plain = v.clone();
            plain.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            let mut got = v;
            sort_by_value_then_index(&mut got);
            let bits = |w: &[(usize, f64)]| w.iter().map(|p| (p.0, p.1.to_bits())).collect::<Vec<_>>();
            proptest::prop_assert_eq!(bits(&got), bits(&plain));
        }
    }
}
