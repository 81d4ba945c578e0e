//! Modes of operation, generic over [`BlockCipher`] and this module's [`BlockModes`] (the
//! inner loops: `ctr_blocks`, `cbc_decrypt_blocks`, `xts_encrypt_blocks`, ...): they never
//! mention an instruction set. The portable loops are in `generic.rs`; AES reaches its
//! fused kernels by implementing [`BlockModes`].
//!
//! | mode | module | standard | block lengths |
//! |------|--------|----------|---------------|
//! | ECB | [`ecb`] | SP 800-38A | any |
//! | CBC (+ padding, streaming) | [`cbc`] | SP 800-38A | any |
//! | CFB-1, CFB-8, full-block CFB | [`cfb`] | SP 800-38A | any |
//! | OFB | [`ofb`] | SP 800-38A | any |
//! | CTR, full-width or `n`-byte counter, seek | [`ctr`] | SP 800-38A, RFC 3686 | any |
//! | XTS with ciphertext stealing | [`xts`] | IEEE 1619, SP 800-38E (DSTU 7624 fields for 256/512) | 128, 256, 512 |
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
pub(crate) mod generic;
pub mod gost28147;
pub mod kw;
pub mod ofb;
pub mod xts;

use crate::block::{BlockCipher, InOutBuf, MAX_BLOCK_LEN};
use crate::Error;

/// The inner loops of the modes, on whole blocks, with the chaining value (IV, counter,
/// tweak, MAC state) passed in and updated: what a cipher's fused kernels can speed up.
///
/// Every method has a portable default (in `mode/generic.rs`) written with
/// [`BlockCipher::encrypt_blocks`] / [`BlockCipher::decrypt_blocks`], correct for any block
/// length up to [`MAX_BLOCK_LEN`]; a cipher with fused kernels (AES) overrides them, and a
/// cipher without writes `impl BlockModes for MyCipher {}`. The mode files only ever call
/// this trait, so they never mention an instruction set. Use the mode types rather than
/// these methods: the mode types add partial blocks, padding, limits and streaming.
///
/// Every method checks its arguments and returns an error, never panics: a chaining value
/// that is not one block is [`Error::InvalidNonceLength`], data that is not whole blocks
/// [`Error::NotWholeBlocks`].
pub trait BlockModes: BlockCipher {
    /// CTR on whole blocks: XORs `E(counter + i)` into block `i`, where the last
    /// `counter_len` bytes of the one-block `counter` are a big-endian integer incremented
    /// modulo `2^(8 * counter_len)` (the bytes before it never change). On return `counter`
    /// is the next unused counter block. `counter_len` is `BLOCK_LEN` for SP 800-38A and 4
    /// for the GCM / RFC 3686 32-bit counter; outside `1..=BLOCK_LEN` it is
    /// [`Error::InvalidParameter`]. Wrapping is not an error here: the mode checks limits.
    fn ctr_blocks(
        &self,
        counter: &mut [u8],
        counter_len: usize,
        data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        generic::ctr(self, counter, counter_len, data)
    }

    /// CBC encryption of whole blocks; `iv` becomes the last ciphertext block.
    fn cbc_encrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::cbc_encrypt(self, iv, data)
    }

    /// CBC decryption of whole blocks; `iv` becomes the last ciphertext block.
    fn cbc_decrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::cbc_decrypt(self, iv, data)
    }

    /// Full-block CFB encryption of whole blocks; `iv` becomes the last ciphertext block.
    fn cfb_encrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::cfb_encrypt(self, iv, data)
    }

    /// Full-block CFB decryption of whole blocks; `iv` becomes the last ciphertext block.
    fn cfb_decrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::cfb_decrypt(self, iv, data)
    }

    /// OFB on whole blocks: `iv` is replaced by `E(iv)` once per block and XORed in; on
    /// return it is the last keystream block.
    fn ofb_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::ofb(self, iv, data)
    }

    /// CBC-MAC absorption: `state = E(state ^ block)` for every whole block of `data`.
    fn cbc_mac_blocks(&self, state: &mut [u8], data: &[u8]) -> Result<(), Error> {
        generic::cbc_mac(self, state, data)
    }

    /// XTS (IEEE 1619) encryption of whole blocks with the *encrypted* tweak `tweak` (one
    /// block) for the first block; on return `tweak` is the tweak of the next block
    /// (multiplied by `x` once per block, little-endian as in IEEE 1619, in the field of
    /// the block length: `x^128 + x^7 + x^2 + x + 1`, `x^256 + x^10 + x^5 + x^2 + 1` or
    /// `x^512 + x^8 + x^5 + x^2 + 1`).
    fn xts_encrypt_blocks(&self, tweak: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::xts::<Self, false>(self, tweak, data)
    }

    /// XTS decryption of whole blocks; `tweak` as for
    /// [`xts_encrypt_blocks`](Self::xts_encrypt_blocks).
    fn xts_decrypt_blocks(&self, tweak: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::xts::<Self, true>(self, tweak, data)
    }

    /// One XTS data unit of whole blocks, tweak encryption included: `tweak` (one block,
    /// *not* yet encrypted) is enciphered with `tweak_cipher` (`K2`), and `data` is then
    /// encrypted (or, with `decrypt`, decrypted) with this cipher (`K1`) as in
    /// [`xts_encrypt_blocks`](Self::xts_encrypt_blocks). The default makes those two
    /// calls; a cipher with fused kernels runs short units in one (the two ciphers
    /// enciphering one after the other is the whole cost of a one-block unit).
    fn xts_unit_blocks(
        &self,
        tweak_cipher: &Self,
        tweak: &[u8],
        data: InOutBuf<'_>,
        decrypt: bool,
    ) -> Result<(), Error> {
        xts_unit(self, tweak_cipher, tweak, data, decrypt)
    }

    /// CCM's bulk pass (SP 800-38C) on whole blocks: counter mode as in
    /// [`ctr_blocks`](Self::ctr_blocks) (`counter`, `counter_len`) and the CBC-MAC
    /// `mac = E(mac ^ p)` of every *plaintext* block `p` as in
    /// [`cbc_mac_blocks`](Self::cbc_mac_blocks): with `decrypt` false the input is the
    /// plaintext (MACed, then encrypted), with `decrypt` true the input is the ciphertext
    /// (decrypted, then its output MACed). On return `counter` is the next unused counter
    /// block and `mac` the chain value after the last block. The default runs the two
    /// passes one after the other; fused kernels run both in one loop, the counter blocks
    /// in the latency shadow of the serial MAC chain.
    fn ccm_blocks(
        &self,
        mac: &mut [u8],
        counter: &mut [u8],
        counter_len: usize,
        data: InOutBuf<'_>,
        decrypt: bool,
    ) -> Result<(), Error> {
        generic::ccm(self, mac, counter, counter_len, data, decrypt)
    }
}

impl<T: BlockModes> BlockModes for &T {
    #[inline]
    fn ctr_blocks(&self, c: &mut [u8], n: usize, d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).ctr_blocks(c, n, d)
    }
    #[inline]
    fn cbc_encrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).cbc_encrypt_blocks(iv, d)
    }
    #[inline]
    fn cbc_decrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).cbc_decrypt_blocks(iv, d)
    }
    #[inline]
    fn cfb_encrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).cfb_encrypt_blocks(iv, d)
    }
    #[inline]
    fn cfb_decrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).cfb_decrypt_blocks(iv, d)
    }
    #[inline]
    fn ofb_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).ofb_blocks(iv, d)
    }
    #[inline]
    fn cbc_mac_blocks(&self, state: &mut [u8], data: &[u8]) -> Result<(), Error> {
        (**self).cbc_mac_blocks(state, data)
    }
    #[inline]
    fn xts_encrypt_blocks(&self, t: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).xts_encrypt_blocks(t, d)
    }
    #[inline]
    fn xts_decrypt_blocks(&self, t: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).xts_decrypt_blocks(t, d)
    }
    #[inline]
    fn xts_unit_blocks(
        &self,
        tc: &Self,
        t: &[u8],
        d: InOutBuf<'_>,
        decrypt: bool,
    ) -> Result<(), Error> {
        (**self).xts_unit_blocks(*tc, t, d, decrypt)
    }
    #[inline]
    fn ccm_blocks(
        &self,
        mac: &mut [u8],
        c: &mut [u8],
        n: usize,
        d: InOutBuf<'_>,
        decrypt: bool,
    ) -> Result<(), Error> {
        (**self).ccm_blocks(mac, c, n, d, decrypt)
    }
}

/// The portable [`BlockModes::xts_unit_blocks`]: the tweak enciphered, then the data.
fn xts_unit<C: BlockModes + ?Sized>(
    c: &C,
    tweak_cipher: &C,
    tweak: &[u8],
    data: InOutBuf<'_>,
    decrypt: bool,
) -> Result<(), Error> {
    generic::check_xts::<C>(data.len())?;
    let b = C::BLOCK_LEN;
    crate::block::check_iv(tweak.len(), b)?;
    let mut t = [0u8; MAX_BLOCK_LEN];
    t[..b].copy_from_slice(tweak);
    tweak_cipher.encrypt_blocks(&mut t[..b])?;
    let res = if decrypt {
        c.xts_decrypt_blocks(&mut t[..b], data)
    } else {
        c.xts_encrypt_blocks(&mut t[..b], data)
    };
    crate::wipe::wipe(&mut t[..b]);
    res
}

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
