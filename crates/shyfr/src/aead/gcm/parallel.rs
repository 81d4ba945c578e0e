//! The multi-core one-shot path (feature `parallel`).
//!
//! The whole blocks of the data are cut into pieces (multiples of [`UNIT`] blocks); each
//! thread runs the engine's bulk pass on its piece, with the counter advanced by the
//! piece's first block (modulo 2^32) and GHASH from zero. GHASH is linear: the state
//! after `m` blocks from `Y0` is `Y0 * H^m + S` with `S` the hash of those blocks from
//! zero, so the pieces combine as `Y = Y0 * H^M + sum S_i * H^(blocks after piece i)`.
//! The powers of `H` are taken by square-and-multiply on the portable constant-time
//! GHASH (the exponents are public lengths; the work is about 2 log2(M) multiplications).

use std::vec::Vec;

use zeroize::Zeroize;

use super::state::State;
use super::{Bulk, Core, BLOCK, MAX_PLAINTEXT_LEN, PARALLEL_MIN_LEN};
use crate::aead::{check_same_len, ghash};
use crate::Error;

/// Pieces start at multiples of this many blocks (so the wide kernels run whole
/// groups everywhere but at the end).
const UNIT: usize = 48 * 4;

/// How many pieces a one-shot call of `len` bytes is split into.
pub(super) fn pieces(len: usize) -> usize {
    if len < PARALLEL_MIN_LEN {
        return 1;
    }
    let t = rayon::current_num_threads().max(1);
    t.min(len / (PARALLEL_MIN_LEN / 2)).max(1)
}

/// `a * b` in GCM's field (both in GCM byte order), with the portable backend.
fn mul(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    let mut y = *a;
    let k = ghash::Key::new(b, ghash::Backend::Soft);
    match k {
        Ok(k) => k.update(&mut y, &[0u8; 16]),
        // The portable backend is always available.
        Err(_) => y = [0; 16],
    }
    y
}

/// `a * h^n` (`n` public).
pub(super) fn mul_pow(a: &[u8; 16], h: &[u8; 16], mut n: u64) -> [u8; 16] {
    let mut r = *a;
    let mut p = *h;
    while n > 0 {
        if n & 1 == 1 {
            r = mul(&r, &p);
        }
        n >>= 1;
        if n > 0 {
            let q = mul(&p, &p);
            p.zeroize();
            p = q;
        }
    }
    p.zeroize();
    r
}

/// One piece: its first block, its input (when not in place), its output, and the
/// result (GHASH of its ciphertext from zero).
struct Piece<'a> {
    first: usize,
    src: Option<&'a [u8]>,
    dst: &'a mut [u8],
    out: Result<[u8; 16], Error>,
}

fn run_piece(core: &(dyn Core + Sync), ctr0: &[u8; 16], decrypt: bool, p: &mut Piece<'_>) {
    let mut ctr = *ctr0;
    let low = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
    // GCM's counter is the last 32 bits, modulo 2^32.
    let low = low.wrapping_add(p.first as u32);
    ctr[12..].copy_from_slice(&low.to_be_bytes());
    let mut y = [0u8; 16];
    let bulk = Bulk {
        decrypt,
        ctr: &mut ctr,
        y: &mut y,
        src: p.src,
        dst: p.dst,
    };
    p.out = core.ctr_ghash(bulk).map(|()| y);
    ctr.zeroize();
}

impl State {
    /// [`State::data`] for a whole one-shot message (nothing absorbed of the data yet)
    /// on up to `n` threads.
    pub(super) fn data_parallel(
        &mut self,
        core: &(dyn Core + Sync),
        n: usize,
        decrypt: bool,
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<(), Error> {
        check_same_len(src, dst)?;
        if dst.len() as u64 > MAX_PLAINTEXT_LEN {
            return Err(Error::TooLong {
                what: "gcm plaintext",
            });
        }
        self.start_data(core);
        let blocks = dst.len() / BLOCK;
        let whole = blocks * BLOCK;
        let units = blocks / UNIT;
        let (body, _) = dst.split_at_mut(whole);
        // Piece boundaries, in blocks: `n` near-equal runs of whole units, the last
        // one also taking the blocks after the last whole unit.
        let mut pieces: Vec<Piece<'_>> = Vec::with_capacity(n);
        let mut rest_dst = body;
        let mut rest_src = src.map(|s| &s[..whole]);
        let mut first = 0;
        for i in 0..n {
            let end = if i + 1 == n {
                blocks
            } else {
                units * (i + 1) / n * UNIT
            };
            let take = (end - first) * BLOCK;
            let (d, r) = core::mem::take(&mut rest_dst).split_at_mut(take);
            rest_dst = r;
            let s = rest_src.map(|s| {
                let (a, b) = s.split_at(take);
                rest_src = Some(b);
                a
            });
            pieces.push(Piece {
                first,
                src: s,
                dst: d,
                out: Ok([0; 16]),
            });
            first = end;
        }
        let ctr0 = self.ctr;
        {
            let (mine, others) = pieces.split_at_mut(1);
            // The calling thread keeps the first piece (as `mode::run_pieces` does).
            rayon::in_place_scope(|scope| {
                for p in others.iter_mut() {
                    scope.spawn(move |_| run_piece(core, &ctr0, decrypt, p));
                }
                run_piece(core, &ctr0, decrypt, &mut mine[0]);
            });
        }
        // Combine: Y0 * H^M, then each piece's hash times H^(blocks after it).
        let mut h = [0u8; 16];
        let mut result = core.encrypt_block(&mut h);
        let mut y = mul_pow(&self.y, &h, blocks as u64);
        for p in &mut pieces {
            match p.out {
                Ok(mut s) => {
                    let after = blocks - p.first - p.dst.len() / BLOCK;
                    let t = mul_pow(&s, &h, after as u64);
                    for (a, b) in y.iter_mut().zip(&t) {
                        *a ^= b;
                    }
                    s.zeroize();
                }
                Err(e) => result = Err(e),
            }
        }
        h.zeroize();
        result?;
        self.y = y;
        y.zeroize();
        let low = u32::from_be_bytes([self.ctr[12], self.ctr[13], self.ctr[14], self.ctr[15]])
            .wrapping_add(blocks as u32);
        self.ctr[12..].copy_from_slice(&low.to_be_bytes());
        self.data_len = whole as u64;
        self.data(core, decrypt, src.map(|s| &s[whole..]), &mut dst[whole..])
    }
}
