//! DES on NEON: the bitsliced core (`bitsliced.rs`) on two 64-bit lanes, 128 blocks per
//! pass, compiled with NEON enabled so that the lane loops become 128-bit instructions.
//! A rest of up to 64 blocks runs on one lane (the portable pass), a very short one block
//! by block.

use super::soft::{self, one_by_one, pass};
use super::{bitsliced, Keys, BLOCK_LEN};
use crate::cpu::aarch64::Neon;
use crate::inout::InOut;

/// Below this many blocks the one-block path beats a bitsliced pass.
const ONE_BELOW: usize = 16;

/// ECB on whole blocks.
pub(super) fn crypt(t: Neon, keys: &Keys, decrypt: bool, mut io: InOut<'_>) {
    let k = &keys.sub[..keys.n];
    let n = io.len() / BLOCK_LEN;
    let mut i = 0;
    while n - i >= 128 {
        pass::<2>(&mut io, i, 128, |m| pass2(t, m, k, decrypt));
        i += 128;
    }
    let r = n - i;
    if r < ONE_BELOW {
        one_by_one(&mut io, i, |x| soft::crypt_one(keys, x, decrypt));
    } else if r <= 64 {
        pass::<1>(&mut io, i, r, |m| soft::pass1(m, k, decrypt));
    } else {
        pass::<2>(&mut io, i, r, |m| pass2(t, m, k, decrypt));
    }
}

fn pass2(_t: Neon, m: &mut [[u64; 2]; 64], keys: &[[u64; 16]], decrypt: bool) {
    // SAFETY: the `Neon` token proves NEON.
    unsafe { kernel2(m, keys, decrypt) }
}

#[target_feature(enable = "neon")]
fn kernel2(m: &mut [[u64; 2]; 64], keys: &[[u64; 16]], decrypt: bool) {
    bitsliced::crypt(m, keys, decrypt);
}
