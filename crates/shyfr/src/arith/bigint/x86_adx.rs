//! Montgomery multiplication with MULX and the two ADX carry chains (placeholder).

use crate::cpu::x86::Adx;

pub(crate) fn mont_mul(r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64, _t: Adx) {
    super::soft::mont_mul(r, a, b, n, n0)
}
