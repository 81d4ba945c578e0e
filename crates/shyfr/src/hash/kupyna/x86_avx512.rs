//! placeholder
use crate::cpu::x86::Avx512VbmiGfni;
pub(super) fn compress(_t: Avx512VbmiGfni, h: &mut [u64; 16], cols: usize, blocks: &[u8]) {
    super::soft::compress(h, cols, blocks)
}
pub(super) fn finish(_t: Avx512VbmiGfni, h: &mut [u64; 16], cols: usize) {
    super::soft::finish(h, cols)
}
