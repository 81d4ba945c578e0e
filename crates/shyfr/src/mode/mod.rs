//! Modes of operation, generic over [`BlockCipher`]: they never
//! mention an instruction set; AES reaches its fused kernels through the trait's provided
//! methods (`ctr_blocks`, `cbc_decrypt_blocks`, `xts_encrypt_blocks`, ...).
//!
//! | mode | module | standard | block lengths |
//! |------|--------|----------|---------------|
//! | ECB | [`ecb`] | SP 800-38A | any |
//! | CBC (+ padding, streaming) | [`cbc`] | SP 800-38A | any |
//! | CFB-1, CFB-8, full-block CFB | [`cfb`] | SP 800-38A | any |
//! | OFB | [`ofb`] | SP 800-38A | any |
//! | CTR, full-width or `n`-byte counter, seek | [`ctr`] | SP 800-38A, RFC 3686 | any |
//! | XTS with ciphertext stealing | [`xts`] | IEEE 1619, SP 800-38E | 128-bit |
//! | KW, KWP | [`kw`] | RFC 3394, RFC 5649, SP 800-38F | 128-bit |
//! | CMAC | [`cmac`] | SP 800-38B | 64, 128 (+ 256, 512) |
//!
//! "Any" means any block length up to [`MAX_BLOCK_LEN`]
//! (64 bytes). Every API exists in place and buffer to buffer; the stream-like modes (CTR,
//! CFB, OFB) and CBC also stream (`update` / `finalize`), with chunked results equal to
//! one-shot ones. Nothing allocates (except that a `parallel` split hands rayon one small
//! job per piece, on buffers of a megabyte or more).
//!
//! With the `parallel` feature, ECB, CTR, CBC decryption and XTS over many data units
//! split large buffers across threads (rayon) from [`PARALLEL_MIN_LEN`] bytes on; the
//! output is the same as on one thread. That is why those modes ask for a `Sync` cipher
//! (every cipher in this crate is).

pub mod cbc;
pub mod cfb;
pub mod cmac;
pub mod ctr;
pub mod dstu7624;
pub mod ecb;
pub mod kw;
pub mod ofb;
pub mod xts;

use crate::block::{BlockCipher, InOutBuf, MAX_BLOCK_LEN};
use crate::Error;

/// Below this many bytes a bulk call never uses more than one thread (the `parallel`
/// feature), and no piece of a split call is shorter than half of it.
///
/// Chosen by measurement on a 2-core Zen 3 with AES-128-CTR on VAES, the fastest path
/// (about 16 GB/s, so 1 MiB takes 65 us on one core): handing a piece to a pool thread
/// cost about 16 us there, so a two-way split of 256 KiB ran at 0.5x, of 1 MiB at about
/// break-even under load and up to 2x on a quiet machine from 4 MiB on. Slower modes
/// (XTS, CBC decryption) and ciphers gain earlier, never later.
pub const PARALLEL_MIN_LEN: usize = 1 << 20;

/// One block of up to [`MAX_BLOCK_LEN`] bytes, of which the first `C::BLOCK_LEN` are used.
pub(crate) type Buf = [u8; MAX_BLOCK_LEN];

/// `Err` unless `C` has a block length the modes support.
pub(crate) fn check_cipher<C: BlockCipher>() -> Result<(), Error> {
    if C::BLOCK_LEN == 0 || C::BLOCK_LEN > MAX_BLOCK_LEN {
        return Err(Error::InvalidParameter {
            what: "block length above MAX_BLOCK_LEN",
        });
    }
    Ok(())
}

/// Copies a one-block IV into a [`Buf`]; [`Error::InvalidNonceLength`] unless it is one
/// block.
pub(crate) fn load_iv<C: BlockCipher>(iv: &[u8]) -> Result<Buf, Error> {
    check_cipher::<C>()?;
    crate::block::check_iv(iv.len(), C::BLOCK_LEN)?;
    let mut b = [0u8; MAX_BLOCK_LEN];
    b[..iv.len()].copy_from_slice(iv);
    Ok(b)
}

/// How many pieces a bulk call of `len` bytes is split into (1 without `parallel`).
#[inline]
pub(crate) fn pieces(len: usize) -> usize {
    #[cfg(feature = "parallel")]
    {
        if len >= PARALLEL_MIN_LEN {
            let t = rayon::current_num_threads().max(1);
            return t.min(len / (PARALLEL_MIN_LEN / 2)).max(1);
        }
    }
    let _ = len;
    1
}

/// Runs `f(first_unit, piece)` on consecutive pieces of `data`, cut at multiples of
/// `unit` bytes (`first_unit` counts units from the start), on up to `n` threads. With
/// `n == 1` (or without the `parallel` feature) it is one call on the whole buffer.
pub(crate) fn run_pieces<F>(data: InOutBuf<'_>, unit: usize, n: usize, f: &F) -> Result<(), Error>
where
    F: Fn(usize, InOutBuf<'_>) -> Result<(), Error> + Sync,
{
    run_pieces_with(data, unit, n, (), &|_, _| (), &|first, (), p| f(first, p))
}

/// [`run_pieces`] with a state per piece: the first piece gets `s0`, every other piece
/// `seed(data, at)`, computed from the whole buffer (with `at` the byte offset where the
/// piece starts) before any piece runs, so a piece can carry what an in-place neighbour
/// overwrites (the CBC IV of a piece is the last ciphertext block of the one before).
pub(crate) fn run_pieces_with<S, G, F>(
    data: InOutBuf<'_>,
    unit: usize,
    n: usize,
    s0: S,
    seed: &G,
    f: &F,
) -> Result<(), Error>
where
    S: Send,
    G: Fn(&InOutBuf<'_>, usize) -> S + Sync,
    F: Fn(usize, S, InOutBuf<'_>) -> Result<(), Error> + Sync,
{
    let units = data.len() / unit;
    let n = n.clamp(1, units.max(1));
    if n <= 1 {
        return f(0, s0, data);
    }
    #[cfg(feature = "parallel")]
    {
        // The calling thread keeps the first piece and hands the others to the pool, so a
        // two-way split wakes one thread (`rayon::join` from outside the pool would wake
        // two and park the caller).
        let err = std::sync::Mutex::new(Ok(()));
        rayon::in_place_scope(|scope| {
            spawn_pieces(scope, data, unit, units, 0, n, s0, seed, f, &err);
        });
        err.into_inner().unwrap_or(Ok(()))
    }
    #[cfg(not(feature = "parallel"))]
    {
        let _ = (seed, unit);
        f(0, s0, data)
    }
}

/// Runs pieces of `data` (which starts at unit `first` and holds `units` units) split
/// `n` ways: the right half goes to the pool, the left half stays on this thread.
#[cfg(feature = "parallel")]
#[allow(clippy::too_many_arguments)]
fn spawn_pieces<'s, S, G, F>(
    scope: &rayon::Scope<'s>,
    data: InOutBuf<'s>,
    unit: usize,
    units: usize,
    first: usize,
    n: usize,
    s0: S,
    seed: &'s G,
    f: &'s F,
    err: &'s std::sync::Mutex<Result<(), Error>>,
) where
    S: Send + 's,
    G: Fn(&InOutBuf<'_>, usize) -> S + Sync,
    F: Fn(usize, S, InOutBuf<'_>) -> Result<(), Error> + Sync,
{
    if n <= 1 || units < 2 {
        if let Err(e) = f(first, s0, data) {
            if let Ok(mut slot) = err.lock() {
                *slot = Err(e);
            }
        }
        return;
    }
    let left_units = units * (n / 2) / n;
    let at = left_units * unit;
    // The right piece's state is read before either half runs (see `run_pieces_with`).
    let s1 = seed(&data, at);
    let (a, b) = data.split_at(at);
    let right_n = n - n / 2;
    scope.spawn(move |sc| {
        spawn_pieces(
            sc,
            b,
            unit,
            units - left_units,
            first + left_units,
            right_n,
            s1,
            seed,
            f,
            err,
        )
    });
    spawn_pieces(scope, a, unit, left_units, first, n / 2, s0, seed, f, err);
}
