//! DES on AVX2: the bitsliced core (`bitsliced.rs`) on four 64-bit lanes, 256 blocks per
//! pass, compiled with AVX2 enabled so that the lane loops become 256-bit instructions.
//! A rest shorter than a pass runs on the narrowest word that holds it, a very short one
//! block by block.

use super::soft::{one_by_one, pass};
use super::{bitsliced, Keys, BLOCK_LEN};
use crate::cpu::x86::Avx2;
use crate::inout::InOut;

/// Below this many blocks the one-block path beats a bitsliced pass.
const ONE_BELOW: usize = 12;

/// ECB on whole blocks.
pub(super) fn crypt(t: Avx2, keys: &Keys, decrypt: bool, mut io: InOut<'_>) {
    let k = &keys.sub[..keys.n];
    let n = io.len() / BLOCK_LEN;
    let mut i = 0;
    while n - i >= 256 {
        pass::<4>(&mut io, i, 256, |m| pass4(t, m, k, decrypt));
        i += 256;
    }
    let r = n - i;
    if r < ONE_BELOW {
        one_by_one(keys, decrypt, &mut io, i);
    } else if r <= 64 {
        pass::<1>(&mut io, i, r, |m| pass1(t, m, k, decrypt));
    } else if r <= 128 {
        pass::<2>(&mut io, i, r, |m| pass2(t, m, k, decrypt));
    } else {
        pass::<4>(&mut io, i, r, |m| pass4(t, m, k, decrypt));
    }
}

macro_rules! pass_fn {
    ($name:ident, $kernel:ident, $n:literal) => {
        fn $name(_t: Avx2, m: &mut [[u64; $n]; 64], keys: &[[u64; 16]], decrypt: bool) {
            // SAFETY: the `Avx2` token proves AVX2.
            unsafe { $kernel(m, keys, decrypt) }
        }

        #[target_feature(enable = "avx2")]
        fn $kernel(m: &mut [[u64; $n]; 64], keys: &[[u64; 16]], decrypt: bool) {
            bitsliced::crypt(m, keys, decrypt);
        }
    };
}
pass_fn!(pass1, kernel1, 1);
pass_fn!(pass2, kernel2, 2);
pass_fn!(pass4, kernel4, 4);
