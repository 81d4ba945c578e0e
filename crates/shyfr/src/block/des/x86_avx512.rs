//! DES on AVX-512: the bitsliced core (`bitsliced.rs`) on eight 64-bit lanes, 512 blocks
//! per pass, compiled with AVX-512 enabled so that the lane loops become 512-bit
//! instructions and the three-input functions `vpternlogq`. A rest shorter than a pass
//! runs on the narrowest word that holds it (up to 64 blocks: the portable 64-bit pass),
//! a very short one block by block with the AVX2 backend's one-block kernel (a variant
//! with AVX-512's variable rotation `vprorvq` measured only 1.5 % faster).

use super::soft::{self, one_by_one, pass};
use super::{bitsliced, x86_avx2, Keys, BLOCK_LEN};
use crate::cpu::x86::Avx512;
use crate::inout::InOut;

/// Below this many blocks the one-block path beats a bitsliced pass.
const ONE_BELOW: usize = 12;

/// ECB on whole blocks.
pub(super) fn crypt(t: Avx512, keys: &Keys, decrypt: bool, mut io: InOut<'_>) {
    let k = &keys.sub[..keys.n];
    let n = io.len() / BLOCK_LEN;
    let mut i = 0;
    while n - i >= 512 {
        pass::<8>(&mut io, i, 512, |m| pass8(t, m, k, decrypt));
        i += 512;
    }
    let r = n - i;
    if r < ONE_BELOW {
        // SAFETY: the `Avx512` token's features include AVX2.
        one_by_one(&mut io, i, |x| unsafe {
            x86_avx2::crypt_one_k(keys, x, decrypt)
        });
    } else if r <= 64 {
        // 512-bit code gains nothing on one lane; the portable pass is faster there.
        pass::<1>(&mut io, i, r, |m| soft::pass1(m, k, decrypt));
    } else if r <= 128 {
        pass::<2>(&mut io, i, r, |m| pass2(t, m, k, decrypt));
    } else if r <= 256 {
        pass::<4>(&mut io, i, r, |m| pass4(t, m, k, decrypt));
    } else {
        pass::<8>(&mut io, i, r, |m| pass8(t, m, k, decrypt));
    }
}

macro_rules! pass_fn {
    ($name:ident, $kernel:ident, $n:literal) => {
        fn $name(_t: Avx512, m: &mut [[u64; $n]; 64], keys: &[[u64; 16]], decrypt: bool) {
            // SAFETY: the `Avx512` token proves AVX-512 F/VL/BW.
            unsafe { $kernel(m, keys, decrypt) }
        }

        #[target_feature(enable = "avx512f,avx512vl,avx512bw")]
        fn $kernel(m: &mut [[u64; $n]; 64], keys: &[[u64; 16]], decrypt: bool) {
            bitsliced::crypt(m, keys, decrypt);
        }
    };
}
pass_fn!(pass2, kernel2, 2);
pass_fn!(pass4, kernel4, 4);
pass_fn!(pass8, kernel8, 8);
