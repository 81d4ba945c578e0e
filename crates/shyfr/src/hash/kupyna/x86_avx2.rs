//! placeholder
use crate::cpu::x86::Avx2;
pub(super) fn compress(_t: Avx2, h: &mut [u64; 16], cols: usize, blocks: &[u8]) {
    super::soft::compress(h, cols, blocks)
}
pub(super) fn finish(_t: Avx2, h: &mut [u64; 16], cols: usize) {
    super::soft::finish(h, cols)
}
