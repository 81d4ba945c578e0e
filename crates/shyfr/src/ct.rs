//! Constant-time helpers: masks, comparison, selection and a value barrier.
#![forbid(unsafe_code)]

/// Hides `x` from the optimiser so that it cannot turn mask arithmetic back into branches.
#[inline(always)]
pub fn barrier_u64(x: u64) -> u64 {
    core::hint::black_box(x)
}

/// `0xff..ff` when `x != 0`, else `0`, without a branch.
#[inline(always)]
pub fn mask_nonzero_u64(x: u64) -> u64 {
    let x = barrier_u64(x);
    // The mask passes through the barrier too: knowing it is 0 or all ones, the optimiser
    // otherwise branches on it (it skipped the masked reads of non-matching entries in
    // the bigint table look-up, a secret-indexed access that ct_valgrind reported).
    barrier_u64(((x | x.wrapping_neg()) >> 63).wrapping_neg())
}

/// Compares two byte strings in time that depends only on their lengths.
/// Returns `true` when they are equal.
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut acc = 0u8;
    for (x, y) in a.iter().zip(b) {
        acc |= x ^ y;
    }
    mask_nonzero_u64(acc as u64) == 0
}

/// `a` where `mask` is all ones, `b` where it is zero.
#[inline(always)]
pub fn select_u64(mask: u64, a: u64, b: u64) -> u64 {
    let m = barrier_u64(mask);
    (a & m) | (b & !m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_eq() {
        assert_eq!(mask_nonzero_u64(0), 0);
        assert_eq!(mask_nonzero_u64(1), u64::MAX);
        assert_eq!(mask_nonzero_u64(1 << 63), u64::MAX);
        assert!(ct_eq(b"abc", b"abc"));
        assert!(!ct_eq(b"abc", b"abd"));
        assert!(!ct_eq(b"abc", b"ab"));
        assert_eq!(select_u64(u64::MAX, 1, 2), 1);
        assert_eq!(select_u64(0, 1, 2), 2);
    }
}
