//! The generic bulk pass of GCM: the block cipher's multi-block call on batches of counter
//! blocks, XOR, and a GHASH backend, one after the other. Every engine ends here for what
//! its fused kernel does not cover (tails, a counter about to wrap).

use super::{BATCH, BLOCK};
use crate::aead::ghash;
use crate::aead::{xor_in_place, xor_to};
use crate::block::BlockCipher;
use crate::wipe::wipe;
use crate::Error;

/// One bulk pass of GCM over the whole blocks of `dst` (and of `src`, same length, when
/// given; otherwise in place): counter-mode XOR with the counter blocks from `ctr` on (the
/// last 32 bits counting modulo 2^32; `ctr` is left at the next unused block), and GHASH of
/// the ciphertext into `y` — the output when encrypting, the input when decrypting.
pub(crate) struct Bulk<'a> {
    pub(crate) decrypt: bool,
    pub(crate) ctr: &'a mut [u8; 16],
    pub(crate) y: &'a mut [u8; 16],
    pub(crate) src: Option<&'a [u8]>,
    pub(crate) dst: &'a mut [u8],
}

/// The generic bulk pass: counter blocks in batches of [`BATCH`] through one
/// `encrypt_blocks` call (so the block cipher's wide kernel runs), XOR, GHASH.
pub(crate) fn ctr_ghash_generic<C: BlockCipher>(
    cipher: &C,
    gk: &ghash::Key,
    b: Bulk<'_>,
) -> Result<(), Error> {
    // Short messages (and the fused engines' tails) get a small keystream buffer: setting
    // up and wiping the full one cost more than a few blocks of AES.
    if b.dst.len() <= SHORT * BLOCK {
        ctr_ghash_batches::<C, { SHORT * BLOCK }>(cipher, gk, b)
    } else {
        ctr_ghash_batches::<C, { BATCH * BLOCK }>(cipher, gk, b)
    }
}

/// Blocks of the small keystream buffer of [`ctr_ghash_generic`].
const SHORT: usize = 8;

/// [`ctr_ghash_generic`] with a keystream buffer of `KS` bytes (whole blocks).
fn ctr_ghash_batches<C: BlockCipher, const KS: usize>(
    cipher: &C,
    gk: &ghash::Key,
    b: Bulk<'_>,
) -> Result<(), Error> {
    let (decrypt, ctr, y, src, dst) = (b.decrypt, b.ctr, b.y, b.src, b.dst);
    let n = dst.len() - dst.len() % BLOCK;
    let mut ks = [0u8; KS];
    let mut used = 0;
    let mut c = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
    let mut fixed = *ctr;
    fixed[12..].fill(0);
    let prefix = u128::from_le_bytes(fixed);
    let mut off = 0;
    // Encrypting, each batch of ciphertext is hashed one batch later: read back at once,
    // GHASH's wide loads would span several of the XOR loop's narrower stores still in the
    // store buffer, which cannot forward to them (measured on Zen 3, AES-128-GCM with VAES
    // and VPCLMULQDQ at 16 KiB: 2.6 GB/s hashing at once, 4.4 GB/s one batch later).
    let mut unhashed = 0..0;
    let mut result = Ok(());
    while off < n {
        let len = (n - off).min(KS);
        // Each counter block as one 128-bit value: the fixed 96 bits, and the counter
        // byte-swapped into the last four bytes (little-endian bits 96..127).
        for blk in ks[..len].chunks_exact_mut(BLOCK) {
            let v = prefix | ((c.swap_bytes() as u128) << 96);
            blk.copy_from_slice(&v.to_le_bytes());
            c = c.wrapping_add(1);
        }
        used = used.max(len);
        if let Err(e) = cipher.encrypt_blocks(&mut ks[..len]) {
            result = Err(e);
            break;
        }
        let d = &mut dst[off..off + len];
        match src {
            Some(s) => {
                let s = &s[off..off + len];
                if decrypt {
                    gk.update(y, s);
                }
                xor_to(d, s, &ks);
            }
            None => {
                if decrypt {
                    gk.update(y, d);
                }
                xor_in_place(d, &ks);
            }
        }
        if !decrypt {
            gk.update(y, &dst[unhashed]);
            unhashed = off..off + len;
        }
        off += len;
    }
    if !decrypt {
        gk.update(y, &dst[unhashed]);
    }
    ctr[12..].copy_from_slice(&c.to_be_bytes());
    wipe(&mut ks[..used]);
    result
}
