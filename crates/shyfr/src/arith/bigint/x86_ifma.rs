//! AVX-512 IFMA exponentiation (placeholder).

use super::BoxedUint;
use crate::cpu::x86::Ifma;

#[derive(Clone, Debug)]
pub(crate) struct Params {}

impl Params {
    pub(crate) fn new(_n: &BoxedUint, _bits: usize, _t: Ifma) -> Option<Self> {
        None
    }
    pub(crate) fn pow(&self, _b: &BoxedUint, _e: &BoxedUint) -> BoxedUint {
        unreachable!()
    }
    pub(crate) fn pow_pair(
        _p1: &Params,
        _b1: &BoxedUint,
        _e1: &BoxedUint,
        _p2: &Params,
        _b2: &BoxedUint,
        _e2: &BoxedUint,
    ) -> Option<(BoxedUint, BoxedUint)> {
        None
    }
}
