//! GCM and GMAC (NIST SP 800-38D): AES (or any 128-bit block cipher) in counter mode,
//! authenticated with GHASH.
//!
//! # Types
//!
//! * [`Aes128Gcm`], [`Aes192Gcm`], [`Aes256Gcm`]: the key length in the type;
//!   [`AesGcm`] takes a 16-, 24- or 32-byte key chosen at run time.
//! * [`Gcm<C>`](Gcm): GCM over any [`BlockCipher`] with 16-byte blocks.
//!
//! The AES and GHASH backends are chosen when the key is set up (fastest available, or
//! explicitly with `with_backends`); see [`crate::aes::Backend`] and [`ghash::Backend`].
//! For AES the pair also picks the engine of the bulk pass ([`AesGcm::engine`]): counter
//! mode and GHASH in one loop with VAES + VPCLMULQDQ (`fused_vaes_vpclmul`), AES-NI +
//! PCLMULQDQ (`fused_aesni_pclmul`) or ARMv8 AES + PMULL (`fused_aes_pmull`), else the
//! AES backend's counter blocks and the GHASH backend one after the other (`generic`).
//!
//! With the `parallel` feature, the one-shot verbs of the AES types split messages of
//! [`PARALLEL_MIN_LEN`] bytes or more across threads (rayon); output and tags are the same
//! as on one thread, and `open` still checks the tag before any plaintext is released.
//!
//! # Verbs
//!
//! One-shot: [`seal_in_place`](AesGcm::seal_in_place) / [`open_in_place`](AesGcm::open_in_place)
//! and the buffer-to-buffer [`seal_to`](AesGcm::seal_to) / [`open_to`](AesGcm::open_to);
//! GMAC (authentication only): [`gmac`](AesGcm::gmac) / [`gmac_verify`](AesGcm::gmac_verify).
//! `open` verifies the tag in constant time and, on any error, leaves the output buffer all
//! zero: it never hands out plaintext that was not authenticated.
//!
//! Streaming: [`encryptor`](AesGcm::encryptor) gives a [`GcmEncryptor`] (also streaming GMAC:
//! feed only [`update_aad`](GcmEncryptor::update_aad)); [`decryptor`](AesGcm::decryptor)
//! gives a [`GcmDecryptor`], whose output is **unauthenticated** until
//! [`finalize`](GcmDecryptor::finalize) returns `Ok` — see its documentation before using it.
//!
//! # Nonces
//!
//! GCM's security rests on never using a nonce twice with the same key: a repeated nonce
//! reveals the XOR of the two plaintexts and lets an attacker recover the GHASH key `H` and
//! forge tags for every later message under that key. Use 12-byte nonces ([`NONCE_LEN`]) from
//! a counter (deterministic construction, SP 800-38D 8.2.1) or, with random nonces, stay
//! well below 2^32 messages per key (8.3). Other nonce lengths (1 byte or more) are accepted
//! as the standard allows; they are hashed with GHASH into the first counter block, so
//! distinct nonces can collide, and they are slower. Twelve bytes is the fast path.
//!
//! # Tags
//!
//! Tags are 16 bytes ([`TAG_LEN`]) unless the key is configured otherwise:
//! [`with_tag_len`](AesGcm::with_tag_len) accepts 12 to 16 bytes (96 to 128 bits, the lengths
//! SP 800-38D 5.2.1.2 allows in general). 4- and 8-byte tags are accepted only through
//! [`with_short_tag_len`](AesGcm::with_short_tag_len): SP 800-38D appendix C limits their use
//! (message lengths and the number of failed verifications per key) and the caller has to
//! enforce those limits.
//!
//! # Limits
//!
//! Plaintext at most 2^39 - 256 bits ([`MAX_PLAINTEXT_LEN`] bytes) per nonce, AAD at most
//! 2^64 - 1 bits ([`MAX_AAD_LEN`] bytes), nonce at most 2^64 - 1 bits; longer input is
//! [`Error::TooLong`] (or [`Error::InvalidNonceLength`]), checked before any output is
//! written.
//!
//! ```
//! use shyfr::aead::gcm::{AesGcm, NONCE_LEN};
//! let gcm = AesGcm::new_from_slice(&[1u8; 32]).unwrap();
//! let nonce = [0u8; NONCE_LEN];
//! let msg = b"sixteen byte msg and more";
//! let mut ct = [0u8; 25];
//! let tag = gcm.seal_to(&nonce, b"aad", msg, &mut ct).unwrap();
//! let mut pt = [0u8; 25];
//! gcm.open_to(&nonce, b"aad", &ct, &tag, &mut pt).unwrap();
//! assert_eq!(&pt, msg);
//! // GMAC: a tag over data that is not encrypted.
//! let mac = gcm.gmac(&nonce, b"public data").unwrap();
//! assert!(gcm.gmac_verify(&nonce, b"public data", &mac).is_ok());
//! assert!(gcm.gmac_verify(&nonce, b"public dat4", &mac).is_err());
//! ```

use zeroize::Zeroize;

use super::{ghash, xor_in_place, xor_to, Tag, MAX_TAG_LEN};
use crate::block::aes::{self, Aes};
use crate::block::BlockCipher;
use crate::wipe::wipe;
use crate::Error;

/// The recommended nonce length in bytes (96 bits), the fast path.
pub const NONCE_LEN: usize = 12;
/// The default (and longest) tag length in bytes.
pub const TAG_LEN: usize = 16;
/// The longest plaintext one nonce may encrypt, in bytes: 2^39 - 256 bits.
pub const MAX_PLAINTEXT_LEN: u64 = (1 << 36) - 32;
/// The longest AAD, in bytes: 2^64 - 1 bits, rounded down to whole bytes.
pub const MAX_AAD_LEN: u64 = (1 << 61) - 1;
/// The longest nonce, in bytes: 2^64 - 1 bits, rounded down to whole bytes.
pub const MAX_NONCE_LEN: u64 = (1 << 61) - 1;

/// Counter blocks encrypted per call into the block cipher: two passes of the VAES kernel's
/// 24-block loop, three of the widest GHASH kernel's 16-block groups, and more than the
/// 32 of the widest AES kernel (measured on Zen 3, AES-128-GCM at 16 KiB: 4.9 GB/s with
/// 48, 4.7 with 32, 4.0 with 24; no gain above 48).
const BATCH: usize = 48;

const BLOCK: usize = 16;

/// What a GCM key does for a message: encrypt single blocks, hash, and the bulk
/// CTR-and-GHASH pass. The generic engine ([`Gcm`]) does the bulk pass with the block
/// cipher's multi-block call and a GHASH backend; a fused AES-GCM kernel implements the
/// same trait, so the streaming and one-shot logic above it does not change.
pub(crate) trait Core {
    /// `block = E(K, block)`.
    fn encrypt_block(&self, block: &mut [u8; 16]) -> Result<(), Error>;
    /// The GHASH key.
    fn ghash(&self) -> &ghash::Key;
    /// For the whole blocks of `dst` (and of `src`, same length, when given; otherwise in
    /// place): counter-mode XOR with the counter blocks from `ctr` on (the last 32 bits
    /// counting modulo 2^32; `ctr` is left at the next unused block), and GHASH of the
    /// ciphertext into `y` — the output when encrypting, the input when decrypting.
    fn ctr_ghash(
        &self,
        decrypt: bool,
        ctr: &mut [u8; 16],
        y: &mut [u8; 16],
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<(), Error>;
}

/// Adds one to the last 32 bits of a counter block, modulo 2^32 (SP 800-38D `inc_32`).
#[inline]
fn inc32(ctr: &mut [u8; 16]) {
    let c = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]).wrapping_add(1);
    ctr[12..].copy_from_slice(&c.to_be_bytes());
}

/// The generic bulk pass: counter blocks in batches of [`BATCH`] through one
/// `encrypt_blocks` call (so the block cipher's wide kernel runs), XOR, GHASH.
fn ctr_ghash_generic<C: BlockCipher>(
    cipher: &C,
    gk: &ghash::Key,
    decrypt: bool,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    src: Option<&[u8]>,
    dst: &mut [u8],
) -> Result<(), Error> {
    // Short messages (and the fused engines' tails) get a small keystream buffer: setting
    // up and wiping the full one cost more than a few blocks of AES.
    if dst.len() <= SHORT * BLOCK {
        ctr_ghash_batches::<C, { SHORT * BLOCK }>(cipher, gk, decrypt, ctr, y, src, dst)
    } else {
        ctr_ghash_batches::<C, { BATCH * BLOCK }>(cipher, gk, decrypt, ctr, y, src, dst)
    }
}

/// Blocks of the small keystream buffer of [`ctr_ghash_generic`].
const SHORT: usize = 8;

/// [`ctr_ghash_generic`] with a keystream buffer of `KS` bytes (whole blocks).
fn ctr_ghash_batches<C: BlockCipher, const KS: usize>(
    cipher: &C,
    gk: &ghash::Key,
    decrypt: bool,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    src: Option<&[u8]>,
    dst: &mut [u8],
) -> Result<(), Error> {
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

/// The state of one message: counter, GHASH accumulator, lengths, the pending partial block.
struct State {
    /// The next counter block.
    ctr: [u8; 16],
    /// `E(K, J0)`, XORed onto the GHASH result to make the tag.
    ek_j0: [u8; 16],
    /// The GHASH accumulator.
    y: [u8; 16],
    aad_len: u64,
    data_len: u64,
    /// Bytes of an incomplete block: AAD before the data starts, ciphertext after.
    buf: [u8; 16],
    buf_len: usize,
    /// Keystream of the incomplete data block.
    ks: [u8; 16],
    in_data: bool,
    tag_len: usize,
}

impl Drop for State {
    fn drop(&mut self) {
        for b in [
            &mut self.ctr,
            &mut self.ek_j0,
            &mut self.y,
            &mut self.buf,
            &mut self.ks,
        ] {
            wipe(b);
        }
    }
}

impl State {
    /// SP 800-38D algorithm 4, steps 1-2: `J0` from the nonce, `E(K, J0)`, first counter.
    fn new(core: &dyn Core, tag_len: usize, nonce: &[u8]) -> Result<State, Error> {
        if nonce.is_empty() || nonce.len() as u64 > MAX_NONCE_LEN {
            return Err(Error::InvalidNonceLength { got: nonce.len() });
        }
        let mut j0 = [0u8; 16];
        if nonce.len() == NONCE_LEN {
            j0[..12].copy_from_slice(nonce);
            j0[15] = 1;
        } else {
            let gk = core.ghash();
            gk.update_padded(&mut j0, nonce);
            let mut len = [0u8; 16];
            len[8..].copy_from_slice(&(nonce.len() as u64 * 8).to_be_bytes());
            gk.update(&mut j0, &len);
        }
        let mut st = State {
            ctr: j0,
            ek_j0: j0,
            y: [0; 16],
            aad_len: 0,
            data_len: 0,
            buf: [0; 16],
            buf_len: 0,
            ks: [0; 16],
            in_data: false,
            tag_len,
        };
        j0.zeroize();
        core.encrypt_block(&mut st.ek_j0)?;
        inc32(&mut st.ctr);
        Ok(st)
    }

    fn aad(&mut self, core: &dyn Core, mut aad: &[u8]) -> Result<(), Error> {
        if self.in_data {
            return Err(Error::InvalidParameter {
                what: "gcm aad after data",
            });
        }
        let total = self.aad_len.checked_add(aad.len() as u64);
        match total {
            Some(t) if t <= MAX_AAD_LEN => self.aad_len = t,
            _ => return Err(Error::TooLong { what: "gcm aad" }),
        }
        let gk = core.ghash();
        if self.buf_len > 0 {
            let take = aad.len().min(BLOCK - self.buf_len);
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&aad[..take]);
            self.buf_len += take;
            aad = &aad[take..];
            if self.buf_len < BLOCK {
                return Ok(());
            }
            gk.update(&mut self.y, &self.buf);
            self.buf_len = 0;
        }
        let whole = aad.len() - aad.len() % BLOCK;
        gk.update(&mut self.y, &aad[..whole]);
        let rest = &aad[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
        Ok(())
    }

    /// Ends the AAD: its last partial block is absorbed zero-padded.
    fn start_data(&mut self, core: &dyn Core) {
        if !self.in_data {
            self.flush_padded(core);
            self.in_data = true;
        }
    }

    fn flush_padded(&mut self, core: &dyn Core) {
        if self.buf_len > 0 {
            self.buf[self.buf_len..].fill(0);
            core.ghash().update(&mut self.y, &self.buf);
            self.buf_len = 0;
        }
    }

    /// Encrypts or decrypts `dst` (from `src` when given, else in place).
    fn data(
        &mut self,
        core: &dyn Core,
        decrypt: bool,
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<(), Error> {
        if let Some(s) = src {
            if s.len() != dst.len() {
                return Err(Error::LengthMismatch {
                    input: s.len(),
                    output: dst.len(),
                });
            }
        }
        let total = self.data_len.checked_add(dst.len() as u64);
        let total = match total {
            Some(t) if t <= MAX_PLAINTEXT_LEN => t,
            _ => {
                return Err(Error::TooLong {
                    what: "gcm plaintext",
                })
            }
        };
        self.start_data(core);
        let n = dst.len();
        let mut off = 0;
        if self.buf_len > 0 {
            off = n.min(BLOCK - self.buf_len);
            self.partial(decrypt, src.map(|s| &s[..off]), &mut dst[..off]);
            if self.buf_len == BLOCK {
                core.ghash().update(&mut self.y, &self.buf);
                self.buf_len = 0;
            }
        }
        let whole = (n - off) - (n - off) % BLOCK;
        if whole > 0 {
            core.ctr_ghash(
                decrypt,
                &mut self.ctr,
                &mut self.y,
                src.map(|s| &s[off..off + whole]),
                &mut dst[off..off + whole],
            )?;
            off += whole;
        }
        if off < n {
            self.ks = self.ctr;
            core.encrypt_block(&mut self.ks)?;
            inc32(&mut self.ctr);
            self.partial(decrypt, src.map(|s| &s[off..]), &mut dst[off..]);
        }
        self.data_len = total;
        Ok(())
    }

    /// Bytes of the incomplete block (`dst` fits in what is left of it): XOR with the
    /// saved keystream, ciphertext kept for GHASH.
    fn partial(&mut self, decrypt: bool, src: Option<&[u8]>, dst: &mut [u8]) {
        for i in 0..dst.len() {
            let x = match src {
                Some(s) => s[i],
                None => dst[i],
            };
            let y = x ^ self.ks[self.buf_len + i];
            self.buf[self.buf_len + i] = if decrypt { x } else { y };
            dst[i] = y;
        }
        self.buf_len += dst.len();
    }

    /// The data of a one-shot call: with the `parallel` feature and a core threads may
    /// share, a buffer of [`PARALLEL_MIN_LEN`] bytes or more is split across threads
    /// ([`State::data_parallel`]); otherwise (and always for the tail) [`State::data`].
    fn data_one_shot(
        &mut self,
        core: &dyn Core,
        par: ParCore<'_>,
        decrypt: bool,
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<(), Error> {
        #[cfg(feature = "parallel")]
        if let Some(pc) = par {
            let n = parallel::pieces(dst.len());
            if n > 1 && self.data_len == 0 && !self.in_data {
                return self.data_parallel(pc, n, decrypt, src, dst);
            }
        }
        let _ = par;
        self.data(core, decrypt, src, dst)
    }

    /// The full 16-byte tag: GHASH of the length block on top, XOR `E(K, J0)`.
    fn finish(&mut self, core: &dyn Core) -> [u8; 16] {
        self.start_data(core);
        self.flush_padded(core);
        let mut len = [0u8; 16];
        len[..8].copy_from_slice(&(self.aad_len * 8).to_be_bytes());
        len[8..].copy_from_slice(&(self.data_len * 8).to_be_bytes());
        core.ghash().update(&mut self.y, &len);
        let mut t = self.y;
        for (t, e) in t.iter_mut().zip(&self.ek_j0) {
            *t ^= *e;
        }
        t
    }

    fn tag(&mut self, core: &dyn Core) -> Tag {
        let mut full = self.finish(core);
        let tag = Tag::truncated(&full, self.tag_len);
        full.zeroize();
        tag
    }
}

/// A core that threads may share, for the one-shot verbs' multi-core path (`None` where
/// the block cipher is not known to be `Sync`).
type ParCore<'a> = Option<&'a (dyn Core + Sync)>;

/// Below this many bytes a one-shot GCM call never uses more than one thread (the
/// `parallel` feature), and no piece of a split call is shorter than half of it.
///
/// The fused AES-GCM engine (VAES + VPCLMULQDQ, about 8 GB/s on one Zen 3 core) runs at
/// half the speed of AES-CTR, so the hand-off cost measured for [`crate::mode`] (about
/// 16 us per piece, see [`crate::mode::PARALLEL_MIN_LEN`]) is paid back from half its
/// length: pieces of 256 KiB take about 32 us. On the shared 2-core test machine (load
/// 5 to 10 from other jobs) the `gcm_parallel` example measured no gain and no loss
/// within 3% at 512 KiB to 16 MiB, and a 9% loss at 256 KiB, so the bar is set at
/// 512 KiB; slower engines (AES-NI, ARMv8, portable) gain earlier, never later.
pub const PARALLEL_MIN_LEN: usize = 512 << 10;

/// The multi-core one-shot path (feature `parallel`).
///
/// The whole blocks of the data are cut into pieces (multiples of [`UNIT`] blocks); each
/// thread runs the engine's bulk pass on its piece, with the counter advanced by the
/// piece's first block (modulo 2^32) and GHASH from zero. GHASH is linear: the state
/// after `m` blocks from `Y0` is `Y0 * H^m + S` with `S` the hash of those blocks from
/// zero, so the pieces combine as `Y = Y0 * H^M + sum S_i * H^(blocks after piece i)`.
/// The powers of `H` are taken by square-and-multiply on the portable constant-time
/// GHASH (the exponents are public lengths; the work is about 2 log2(M) multiplications).
#[cfg(feature = "parallel")]
mod parallel {
    use std::vec::Vec;

    use zeroize::Zeroize;

    use super::{ghash, Core, State, BLOCK, MAX_PLAINTEXT_LEN, PARALLEL_MIN_LEN};
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
        p.out = core
            .ctr_ghash(decrypt, &mut ctr, &mut y, p.src, p.dst)
            .map(|()| y);
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
            if let Some(s) = src {
                if s.len() != dst.len() {
                    return Err(Error::LengthMismatch {
                        input: s.len(),
                        output: dst.len(),
                    });
                }
            }
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
}

fn seal(
    core: &dyn Core,
    par: ParCore<'_>,
    tag_len: usize,
    nonce: &[u8],
    aad: &[u8],
    src: Option<&[u8]>,
    dst: &mut [u8],
) -> Result<Tag, Error> {
    let mut st = State::new(core, tag_len, nonce)?;
    st.aad(core, aad)?;
    st.data_one_shot(core, par, false, src, dst)?;
    Ok(st.tag(core))
}

#[allow(clippy::too_many_arguments)]
fn open(
    core: &dyn Core,
    par: ParCore<'_>,
    tag_len: usize,
    nonce: &[u8],
    aad: &[u8],
    src: Option<&[u8]>,
    dst: &mut [u8],
    tag: &[u8],
) -> Result<(), Error> {
    let r = (|| {
        if tag.len() != tag_len {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let mut st = State::new(core, tag_len, nonce)?;
        st.aad(core, aad)?;
        st.data_one_shot(core, par, true, src, dst)?;
        let mut full = st.finish(core);
        let ok = crate::ct::ct_eq(&full[..tag_len], tag);
        full.zeroize();
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    })();
    if r.is_err() {
        dst.zeroize();
    }
    r
}

/// Streaming GCM encryption (and streaming GMAC): AAD first, then data, in pieces of any
/// length; [`finalize`](Self::finalize) returns the tag.
///
/// ```
/// use shyfr::aead::gcm::Aes256Gcm;
/// let gcm = Aes256Gcm::new(&[9u8; 32]);
/// let nonce = [1u8; 12];
/// let mut e = gcm.encryptor(&nonce).unwrap();
/// e.update_aad(b"head").unwrap();
/// e.update_aad(b"er").unwrap();
/// let mut part1 = *b"hello, ";
/// let mut part2 = *b"world";
/// e.encrypt(&mut part1).unwrap();
/// e.encrypt(&mut part2).unwrap();
/// let tag = e.finalize();
///
/// let mut whole = *b"hello, world";
/// assert_eq!(gcm.seal_in_place(&nonce, b"header", &mut whole).unwrap(), tag);
/// assert_eq!(&whole[..7], &part1);
/// ```
pub struct GcmEncryptor<'a> {
    core: &'a dyn Core,
    st: State,
}

impl core::fmt::Debug for GcmEncryptor<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GcmEncryptor").finish_non_exhaustive()
    }
}

impl GcmEncryptor<'_> {
    /// Absorbs more AAD. An error once data has been encrypted, or past [`MAX_AAD_LEN`].
    pub fn update_aad(&mut self, aad: &[u8]) -> Result<(), Error> {
        self.st.aad(self.core, aad)
    }

    /// Encrypts the next piece of plaintext in place. [`Error::TooLong`] (and nothing
    /// done) if the message would pass [`MAX_PLAINTEXT_LEN`].
    pub fn encrypt(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.st.data(self.core, false, None, buf)
    }

    /// Encrypts the next piece from `plaintext` into `ciphertext` (same length).
    pub fn encrypt_to(&mut self, plaintext: &[u8], ciphertext: &mut [u8]) -> Result<(), Error> {
        self.st.data(self.core, false, Some(plaintext), ciphertext)
    }

    /// Ends the message and returns its tag.
    pub fn finalize(mut self) -> Tag {
        self.st.tag(self.core)
    }
}

/// Streaming GCM decryption. **The plaintext it writes is not authenticated** until
/// [`finalize`](Self::finalize) returns `Ok`.
///
/// GCM can only check the tag after the whole ciphertext has been read, so a streaming
/// decryptor has to release plaintext before it knows whether the message is genuine. An
/// attacker can change ciphertext bits and the matching plaintext bits change with them.
/// Use this only where the output is held back (for example written to a temporary file)
/// until `finalize` succeeds, and discarded otherwise; prefer
/// [`open_in_place`](AesGcm::open_in_place), which never releases unauthenticated
/// plaintext, or a chunked construction with one tag per chunk. The methods that release
/// plaintext are named `decrypt_unverified` to keep this visible at the call site.
///
/// ```
/// use shyfr::aead::gcm::Aes128Gcm;
/// let gcm = Aes128Gcm::new(&[3u8; 16]);
/// let nonce = [5u8; 12];
/// let mut buf = *b"streamed message";
/// let tag = gcm.seal_in_place(&nonce, b"", &mut buf).unwrap();
///
/// let mut d = gcm.decryptor(&nonce).unwrap();
/// let (a, b) = buf.split_at_mut(5);
/// d.decrypt_unverified(a).unwrap();
/// d.decrypt_unverified(b).unwrap();
/// d.finalize(&tag).unwrap(); // only now is `buf` trustworthy
/// assert_eq!(&buf, b"streamed message");
/// ```
pub struct GcmDecryptor<'a> {
    core: &'a dyn Core,
    st: State,
}

impl core::fmt::Debug for GcmDecryptor<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GcmDecryptor").finish_non_exhaustive()
    }
}

impl GcmDecryptor<'_> {
    /// Absorbs more AAD. An error once data has been decrypted, or past [`MAX_AAD_LEN`].
    pub fn update_aad(&mut self, aad: &[u8]) -> Result<(), Error> {
        self.st.aad(self.core, aad)
    }

    /// Decrypts the next piece of ciphertext in place. The result is **unauthenticated**
    /// until [`finalize`](Self::finalize) succeeds.
    pub fn decrypt_unverified(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.st.data(self.core, true, None, buf)
    }

    /// Decrypts the next piece from `ciphertext` into `plaintext` (same length). The result
    /// is **unauthenticated** until [`finalize`](Self::finalize) succeeds.
    pub fn decrypt_unverified_to(
        &mut self,
        ciphertext: &[u8],
        plaintext: &mut [u8],
    ) -> Result<(), Error> {
        self.st.data(self.core, true, Some(ciphertext), plaintext)
    }

    /// Checks the tag (in constant time). On `Err`, everything this decryptor produced
    /// must be discarded.
    pub fn finalize(mut self, tag: &[u8]) -> Result<(), Error> {
        if tag.len() != self.st.tag_len {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let mut full = self.st.finish(self.core);
        let ok = crate::ct::ct_eq(&full[..self.st.tag_len], tag);
        full.zeroize();
        if ok {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }
}

/// Checks a tag length for [`with_tag_len`](Gcm::with_tag_len) (`short == false`: 12..=16)
/// or [`with_short_tag_len`](Gcm::with_short_tag_len) (`short == true`: also 4 and 8).
fn check_tag_len(len: usize, short: bool) -> Result<u8, Error> {
    match len {
        12..=MAX_TAG_LEN => Ok(len as u8),
        4 | 8 if short => Ok(len as u8),
        _ => Err(Error::InvalidTagLength { got: len }),
    }
}

/// The AEAD verbs, the same on every GCM type; `$core` turns `&self` into `&dyn Core`.
macro_rules! gcm_verbs {
    ($self:ident => $core:expr) => {
        /// Encrypts `buf` in place and returns the tag (SP 800-38D algorithm 4).
        ///
        /// Errors (nothing written): [`Error::InvalidNonceLength`] for an empty nonce,
        /// [`Error::TooLong`] for a message or AAD beyond the limits.
        pub fn seal_in_place(
            &$self,
            nonce: &[u8],
            aad: &[u8],
            buf: &mut [u8],
        ) -> Result<Tag, Error> {
            let (core, tl, par) = $core;
            seal(core, par, tl, nonce, aad, None, buf)
        }

        /// Encrypts `plaintext` into `ciphertext` (same length) and returns the tag.
        pub fn seal_to(
            &$self,
            nonce: &[u8],
            aad: &[u8],
            plaintext: &[u8],
            ciphertext: &mut [u8],
        ) -> Result<Tag, Error> {
            let (core, tl, par) = $core;
            seal(core, par, tl, nonce, aad, Some(plaintext), ciphertext)
        }

        /// Verifies `tag` (in constant time) and decrypts `buf` in place (SP 800-38D
        /// algorithm 5).
        ///
        /// On any error — [`Error::AuthenticationFailed`], a tag of the wrong length
        /// ([`Error::InvalidTagLength`]), a bad nonce or a length beyond the limits — `buf`
        /// is left all zero.
        pub fn open_in_place(
            &$self,
            nonce: &[u8],
            aad: &[u8],
            buf: &mut [u8],
            tag: &[u8],
        ) -> Result<(), Error> {
            let (core, tl, par) = $core;
            open(core, par, tl, nonce, aad, None, buf, tag)
        }

        /// Verifies `tag` and decrypts `ciphertext` into `plaintext` (same length). On any
        /// error `plaintext` is left all zero.
        pub fn open_to(
            &$self,
            nonce: &[u8],
            aad: &[u8],
            ciphertext: &[u8],
            tag: &[u8],
            plaintext: &mut [u8],
        ) -> Result<(), Error> {
            let (core, tl, par) = $core;
            open(core, par, tl, nonce, aad, Some(ciphertext), plaintext, tag)
        }

        /// GMAC: the tag of `data` authenticated but not encrypted (GCM with `data` as AAD
        /// and an empty plaintext).
        pub fn gmac(&$self, nonce: &[u8], data: &[u8]) -> Result<Tag, Error> {
            let (core, tl, _) = $core;
            seal(core, None, tl, nonce, data, None, &mut [])
        }

        /// GMAC verification, in constant time: `Ok` when `tag` is the GMAC of `data`.
        pub fn gmac_verify(&$self, nonce: &[u8], data: &[u8], tag: &[u8]) -> Result<(), Error> {
            let (core, tl, _) = $core;
            open(core, None, tl, nonce, data, None, &mut [], tag)
        }

        /// Starts a streaming encryption (or streaming GMAC) under `nonce`.
        pub fn encryptor(&$self, nonce: &[u8]) -> Result<GcmEncryptor<'_>, Error> {
            let (core, tl, _) = $core;
            Ok(GcmEncryptor {
                core,
                st: State::new(core, tl, nonce)?,
            })
        }

        /// Starts a streaming decryption under `nonce`; read [`GcmDecryptor`] first: its
        /// output is unauthenticated until `finalize` succeeds.
        pub fn decryptor(&$self, nonce: &[u8]) -> Result<GcmDecryptor<'_>, Error> {
            let (core, tl, _) = $core;
            Ok(GcmDecryptor {
                core,
                st: State::new(core, tl, nonce)?,
            })
        }
    };
}

/// GCM over any block cipher with 16-byte blocks.
///
/// ```
/// use shyfr::aead::gcm::Gcm;
/// use shyfr::Aes128;
/// let gcm = Gcm::new(Aes128::new(&[0u8; 16])).unwrap();
/// // SP 800-38D / McGrew-Viega test case 1: empty message, zero key and nonce.
/// let tag = gcm.seal_in_place(&[0u8; 12], b"", &mut []).unwrap();
/// assert_eq!(tag.as_bytes(), [
///     0x58, 0xe2, 0xfc, 0xce, 0xfa, 0x7e, 0x30, 0x61,
///     0x36, 0x7f, 0x1d, 0x57, 0xa4, 0xe7, 0x45, 0x5a,
/// ]);
/// ```
#[derive(Clone)]
pub struct Gcm<C: BlockCipher> {
    cipher: C,
    ghash: ghash::Key,
    tag_len: u8,
}

impl<C: BlockCipher> core::fmt::Debug for Gcm<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Gcm")
            .field("ghash", &self.ghash.backend())
            .field("tag_len", &self.tag_len)
            .finish_non_exhaustive()
    }
}

impl<C: BlockCipher> Core for Gcm<C> {
    fn encrypt_block(&self, block: &mut [u8; 16]) -> Result<(), Error> {
        self.cipher.encrypt_blocks(block)
    }

    fn ghash(&self) -> &ghash::Key {
        &self.ghash
    }

    fn ctr_ghash(
        &self,
        decrypt: bool,
        ctr: &mut [u8; 16],
        y: &mut [u8; 16],
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<(), Error> {
        ctr_ghash_generic(&self.cipher, &self.ghash, decrypt, ctr, y, src, dst)
    }
}

impl<C: BlockCipher> Gcm<C> {
    /// GCM with `cipher`, the fastest GHASH backend and 16-byte tags.
    /// [`Error::InvalidParameter`] unless the cipher has 16-byte blocks.
    pub fn new(cipher: C) -> Result<Self, Error> {
        Self::with_ghash_backend(cipher, ghash::Backend::best())
    }

    /// GCM with an explicit GHASH backend ([`Error::BackendUnavailable`] if this CPU cannot
    /// run it).
    pub fn with_ghash_backend(cipher: C, backend: ghash::Backend) -> Result<Self, Error> {
        if C::BLOCK_LEN != BLOCK {
            return Err(Error::InvalidParameter {
                what: "gcm needs a block cipher with 16-byte blocks",
            });
        }
        let mut h = [0u8; 16];
        cipher.encrypt_blocks(&mut h)?;
        let ghash = ghash::Key::new(&h, backend);
        h.zeroize();
        Ok(Gcm {
            cipher,
            ghash: ghash?,
            tag_len: TAG_LEN as u8,
        })
    }

    /// The same key with `len`-byte tags, `len` in 12..=16 (96 to 128 bits).
    pub fn with_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.tag_len = check_tag_len(len, false)?;
        Ok(self)
    }

    /// The same key with `len`-byte tags where `len` may also be 4 or 8 (32 or 64 bits).
    /// SP 800-38D appendix C bounds the message length and the number of verification
    /// attempts per key for such tags; the caller must enforce them.
    pub fn with_short_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.tag_len = check_tag_len(len, true)?;
        Ok(self)
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.tag_len as usize
    }

    /// The GHASH backend this key uses.
    pub fn ghash_backend(&self) -> ghash::Backend {
        self.ghash.backend()
    }

    /// The block cipher.
    pub fn cipher(&self) -> &C {
        &self.cipher
    }

    gcm_verbs!(self => (self as &dyn Core, self.tag_len as usize, ParCore::None));
}

/// How an [`AesGcm`] key does its bulk work. Today the generic engine (AES's multi-block
/// call plus a GHASH backend); a fused one-pass AES-CTR + GHASH kernel becomes another
/// variant here, chosen at key set-up, without changing the public API.
#[derive(Clone)]
enum Engine {
    /// AES and GHASH in one loop (VAES + VPCLMULQDQ on 256-bit registers).
    #[cfg(target_arch = "x86_64")]
    Fused(Fused),
    /// AES and GHASH in one loop on 128-bit registers (AES-NI + PCLMULQDQ, or ARMv8 AES +
    /// PMULL).
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    Fused8(Fused8),
    Generic(Gcm<Aes>),
}

/// The fused engine: the same key material as the generic one (whose single-block and
/// GHASH calls it uses for everything but the bulk pass), with the bulk pass done by
/// `aes::x86_gcm` — counter mode and GHASH interleaved in one loop over groups of sixteen
/// blocks. Built only when the AES key is on the VAES backend and the GHASH key on the
/// VPCLMULQDQ one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone)]
struct Fused(Gcm<Aes>);

#[cfg(target_arch = "x86_64")]
impl Core for Fused {
    fn encrypt_block(&self, block: &mut [u8; 16]) -> Result<(), Error> {
        self.0.encrypt_block(block)
    }

    fn ghash(&self) -> &ghash::Key {
        &self.0.ghash
    }

    fn ctr_ghash(
        &self,
        decrypt: bool,
        ctr: &mut [u8; 16],
        y: &mut [u8; 16],
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<(), Error> {
        let g = &self.0;
        let mut done = 0;
        if let Some((t, pow, kar)) = g.ghash.vpclmul_powers() {
            // The kernel's counters do not carry out of the last word: it runs only when
            // the word does not wrap inside `dst` (always, with 12-byte nonces).
            let low = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
            if (dst.len() / BLOCK) as u64 <= (1u64 << 32) - low as u64 {
                done = g
                    .cipher
                    .gcm_ctr_ghash(t, pow, kar, decrypt, ctr, y, src, dst)?;
                let next = low.wrapping_add((done / BLOCK) as u32);
                ctr[12..].copy_from_slice(&next.to_be_bytes());
            }
        }
        if done == dst.len() {
            return Ok(());
        }
        ctr_ghash_generic(
            &g.cipher,
            &g.ghash,
            decrypt,
            ctr,
            y,
            src.map(|s| &s[done..]),
            &mut dst[done..],
        )
    }
}

/// The fused engine with eight blocks in flight on 128-bit registers, for CPUs without
/// VAES: as [`Fused`], with the bulk pass done by `aes::x86_aesni_gcm` (AES-NI and
/// PCLMULQDQ) or `aes::aarch64_gcm` (ARMv8 AES and PMULL) — counter mode on eight blocks
/// and the GHASH of eight blocks between their rounds. Built only when the AES key is on
/// the AES-NI (ARMv8 AES) backend and the GHASH key on the PCLMULQDQ (PMULL) one.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[derive(Clone)]
struct Fused8(Gcm<Aes>);

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
impl Fused8 {
    /// The engine's name (see [`AesGcm::engine`]).
    #[cfg(target_arch = "x86_64")]
    const NAME: &'static str = "fused_aesni_pclmul";
    #[cfg(target_arch = "aarch64")]
    const NAME: &'static str = "fused_aes_pmull";

    /// Whether `g`'s AES and GHASH keys are on the backends this engine needs.
    fn fits(g: &Gcm<Aes>) -> bool {
        #[cfg(target_arch = "x86_64")]
        return g.cipher.aesni().is_some() && g.ghash.pclmul_powers().is_some();
        #[cfg(target_arch = "aarch64")]
        return g.cipher.armce().is_some() && g.ghash.pmull_powers().is_some();
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
impl Core for Fused8 {
    fn encrypt_block(&self, block: &mut [u8; 16]) -> Result<(), Error> {
        self.0.encrypt_block(block)
    }

    fn ghash(&self) -> &ghash::Key {
        &self.0.ghash
    }

    fn ctr_ghash(
        &self,
        decrypt: bool,
        ctr: &mut [u8; 16],
        y: &mut [u8; 16],
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<(), Error> {
        let g = &self.0;
        // The kernels' counter word counts modulo 2^32, as GCM's does.
        #[cfg(target_arch = "x86_64")]
        let done = match g.ghash.pclmul_powers() {
            Some((t, pow, kar)) => g
                .cipher
                .gcm_ctr_ghash_aesni(t, pow, kar, decrypt, ctr, y, src, dst)?,
            None => 0,
        };
        #[cfg(target_arch = "aarch64")]
        let done = match g.ghash.pmull_powers() {
            Some((t, pow, kar)) => g
                .cipher
                .gcm_ctr_ghash_armce(t, pow, kar, decrypt, ctr, y, src, dst)?,
            None => 0,
        };
        let low = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]);
        let next = low.wrapping_add((done / BLOCK) as u32);
        ctr[12..].copy_from_slice(&next.to_be_bytes());
        if done == dst.len() {
            return Ok(());
        }
        ctr_ghash_generic(
            &g.cipher,
            &g.ghash,
            decrypt,
            ctr,
            y,
            src.map(|s| &s[done..]),
            &mut dst[done..],
        )
    }
}

/// AES-GCM with a 16-, 24- or 32-byte key chosen at run time.
///
/// Prefer [`Aes128Gcm`] / [`Aes256Gcm`] when the key length is known.
#[derive(Clone)]
pub struct AesGcm {
    engine: Engine,
}

impl core::fmt::Debug for AesGcm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AesGcm")
            .field("aes", &self.aes_backend())
            .field("ghash", &self.ghash_backend())
            .field("tag_len", &self.tag_len())
            .finish_non_exhaustive()
    }
}

impl AesGcm {
    /// Sets up a 16-, 24- or 32-byte key with the fastest AES and GHASH backends.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        Self::with_backends(key, aes::Backend::best(), ghash::Backend::best())
    }

    /// Sets up a key with explicit AES and GHASH backends (for tests and benchmarks);
    /// [`Error::BackendUnavailable`] if either is not available here.
    pub fn with_backends(
        key: &[u8],
        aes_backend: aes::Backend,
        ghash_backend: ghash::Backend,
    ) -> Result<Self, Error> {
        let g = AesGcm::with_backends_generic(key, aes_backend, ghash_backend)?;
        #[cfg(target_arch = "x86_64")]
        if let Engine::Generic(gen) = &g.engine {
            if gen.cipher.vaes256().is_some() && gen.ghash.vpclmul_powers().is_some() {
                return Ok(AesGcm {
                    engine: Engine::Fused(Fused(gen.clone())),
                });
            }
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        if let Engine::Generic(gen) = &g.engine {
            if Fused8::fits(gen) {
                return Ok(AesGcm {
                    engine: Engine::Fused8(Fused8(gen.clone())),
                });
            }
        }
        Ok(g)
    }

    /// As [`with_backends`](Self::with_backends), but never with the fused AES-and-GHASH
    /// kernel: the bulk pass runs the AES backend's counter blocks and the GHASH backend
    /// one after the other (for tests and benchmarks).
    pub fn with_backends_generic(
        key: &[u8],
        aes_backend: aes::Backend,
        ghash_backend: ghash::Backend,
    ) -> Result<Self, Error> {
        let aes = Aes::with_backend(key, aes_backend)?;
        Ok(AesGcm {
            engine: Engine::Generic(Gcm::with_ghash_backend(aes, ghash_backend)?),
        })
    }

    /// The engine of the bulk pass: `"fused_vaes_vpclmul"`, `"fused_aesni_pclmul"` or
    /// `"fused_aes_pmull"` (AES and GHASH in one loop, with VAES and VPCLMULQDQ, AES-NI and
    /// PCLMULQDQ, or ARMv8 AES and PMULL) or `"generic"` (the AES backend, then the GHASH
    /// backend).
    pub fn engine(&self) -> &'static str {
        match &self.engine {
            #[cfg(target_arch = "x86_64")]
            Engine::Fused(_) => "fused_vaes_vpclmul",
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            Engine::Fused8(_) => Fused8::NAME,
            Engine::Generic(_) => "generic",
        }
    }

    fn generic(&self) -> &Gcm<Aes> {
        match &self.engine {
            #[cfg(target_arch = "x86_64")]
            Engine::Fused(f) => &f.0,
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            Engine::Fused8(f) => &f.0,
            Engine::Generic(g) => g,
        }
    }

    fn generic_mut(&mut self) -> &mut Gcm<Aes> {
        match &mut self.engine {
            #[cfg(target_arch = "x86_64")]
            Engine::Fused(f) => &mut f.0,
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            Engine::Fused8(f) => &mut f.0,
            Engine::Generic(g) => g,
        }
    }

    fn core(&self) -> &(dyn Core + Sync) {
        match &self.engine {
            #[cfg(target_arch = "x86_64")]
            Engine::Fused(f) => f,
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            Engine::Fused8(f) => f,
            Engine::Generic(g) => g,
        }
    }

    /// The same key with `len`-byte tags, `len` in 12..=16 (96 to 128 bits).
    pub fn with_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.generic_mut().tag_len = check_tag_len(len, false)?;
        Ok(self)
    }

    /// The same key with `len`-byte tags where `len` may also be 4 or 8 (32 or 64 bits);
    /// see [`Gcm::with_short_tag_len`] for the limits the caller must enforce.
    pub fn with_short_tag_len(mut self, len: usize) -> Result<Self, Error> {
        self.generic_mut().tag_len = check_tag_len(len, true)?;
        Ok(self)
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.generic().tag_len()
    }

    /// Key length in bytes (16, 24 or 32).
    pub fn key_len(&self) -> usize {
        self.generic().cipher().key_len()
    }

    /// The AES backend this key uses.
    pub fn aes_backend(&self) -> aes::Backend {
        self.generic().cipher().backend()
    }

    /// The GHASH backend this key uses.
    pub fn ghash_backend(&self) -> ghash::Backend {
        self.generic().ghash_backend()
    }

    gcm_verbs!(self => (self.core(), self.tag_len(), Some(self.core())));
}

macro_rules! sized_gcm {
    ($(#[$m:meta])* $name:ident, $len:expr) => {
        $(#[$m])*
        #[derive(Clone, Debug)]
        pub struct $name(AesGcm);

        impl $name {
            /// Key length in bytes.
            pub const KEY_LEN: usize = $len;
            /// The recommended nonce length in bytes.
            pub const NONCE_LEN: usize = NONCE_LEN;
            /// The default tag length in bytes.
            pub const TAG_LEN: usize = TAG_LEN;

            /// Sets up the key with the fastest AES and GHASH backends.
            pub fn new(key: &[u8; $len]) -> Self {
                $name(
                    AesGcm::new_from_slice(key)
                        .expect("a key of the right length on the best backends is accepted"),
                )
            }

            /// Sets up a key given as a slice; [`Error::InvalidKeyLength`] unless it is
            #[doc = concat!(stringify!($len), " bytes long.")]
            pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
                if key.len() != $len {
                    return Err(Error::InvalidKeyLength { got: key.len() });
                }
                AesGcm::new_from_slice(key).map($name)
            }

            /// Sets up the key with explicit AES and GHASH backends.
            pub fn with_backends(
                key: &[u8; $len],
                aes_backend: aes::Backend,
                ghash_backend: ghash::Backend,
            ) -> Result<Self, Error> {
                AesGcm::with_backends(key, aes_backend, ghash_backend).map($name)
            }

            /// The same key with `len`-byte tags, `len` in 12..=16.
            pub fn with_tag_len(self, len: usize) -> Result<Self, Error> {
                self.0.with_tag_len(len).map($name)
            }

            /// The same key with `len`-byte tags where `len` may also be 4 or 8; see
            /// [`Gcm::with_short_tag_len`].
            pub fn with_short_tag_len(self, len: usize) -> Result<Self, Error> {
                self.0.with_short_tag_len(len).map($name)
            }

            /// Tag length in bytes.
            pub fn tag_len(&self) -> usize {
                self.0.tag_len()
            }

            /// The AES backend this key uses.
            pub fn aes_backend(&self) -> aes::Backend {
                self.0.aes_backend()
            }

            /// The GHASH backend this key uses.
            pub fn ghash_backend(&self) -> ghash::Backend {
                self.0.ghash_backend()
            }

            gcm_verbs!(self => (self.0.core(), self.0.tag_len(), Some(self.0.core())));
        }
    };
}

sized_gcm!(
    /// AES-128-GCM: 16-byte key.
    Aes128Gcm, 16
);
sized_gcm!(
    /// AES-192-GCM: 24-byte key.
    Aes192Gcm, 24
);
sized_gcm!(
    /// AES-256-GCM: 32-byte key.
    Aes256Gcm, 32
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    fn key() -> Gcm<Aes> {
        Gcm::with_ghash_backend(
            Aes::with_backend(&[0x5a; 16], aes::Backend::Soft).unwrap(),
            ghash::Backend::Soft,
        )
        .unwrap()
    }

    /// The exact plaintext limit, checked on the running total without encrypting 64 GB:
    /// a state is advanced to just below the limit by setting its counter of bytes.
    #[test]
    fn plaintext_limit_edges() {
        let k = key();
        let core: &dyn Core = &k;
        let mut st = State::new(core, 16, &[0; 12]).unwrap();
        st.data_len = MAX_PLAINTEXT_LEN - 17;
        let mut buf = [0u8; 18];
        assert_eq!(
            st.data(core, false, None, &mut buf),
            Err(Error::TooLong {
                what: "gcm plaintext"
            })
        );
        assert_eq!(buf, [0u8; 18], "nothing written on error");
        st.data(core, false, None, &mut buf[..17]).unwrap();
        assert_eq!(st.data_len, MAX_PLAINTEXT_LEN);
        assert!(st.data(core, false, None, &mut []).is_ok());
        assert!(st.data(core, false, None, &mut [0u8; 1]).is_err());

        // The one-shot path refuses a length past the limit before touching anything;
        // a zero-copy slice of that length cannot be made, so check the arithmetic guard.
        let mut st = State::new(core, 16, &[0; 12]).unwrap();
        st.data_len = u64::MAX - 3;
        assert!(st.data(core, false, None, &mut [0u8; 8]).is_err());
    }

    #[test]
    fn aad_limit_edges() {
        let k = key();
        let core: &dyn Core = &k;
        let mut st = State::new(core, 16, &[0; 12]).unwrap();
        st.aad_len = MAX_AAD_LEN - 5;
        assert_eq!(
            st.aad(core, &[0u8; 6]),
            Err(Error::TooLong { what: "gcm aad" })
        );
        st.aad(core, &[0u8; 5]).unwrap();
        assert!(st.aad(core, &[0u8; 1]).is_err());
        let mut st = State::new(core, 16, &[0; 12]).unwrap();
        st.aad_len = u64::MAX - 1;
        assert!(st.aad(core, &[0u8; 4]).is_err());
    }

    /// The 32-bit counter wraps without carrying into the nonce part, in the bulk path and
    /// in the one-block path alike.
    #[test]
    fn counter_wraps_mod_2_32() {
        let k = key();
        let aes = k.cipher();
        let start: [u8; 16] = [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0xff, 0xff, 0xff, 0xfd,
        ];
        // Keystream block by block, built by hand.
        let mut expect = Vec::new();
        let mut c = start;
        for _ in 0..40 {
            let mut b = c;
            aes.encrypt_block(&mut b);
            expect.extend_from_slice(&b);
            let n = u32::from_be_bytes([c[12], c[13], c[14], c[15]]).wrapping_add(1);
            c[12..].copy_from_slice(&n.to_be_bytes());
        }
        assert_eq!(&c[..12], &start[..12]);
        let mut ctr = start;
        let mut y = [0u8; 16];
        let mut buf = vec![0u8; 40 * 16];
        k.ctr_ghash(false, &mut ctr, &mut y, None, &mut buf)
            .unwrap();
        assert_eq!(buf, expect);
        assert_eq!(ctr, c);
        let mut one = start;
        for _ in 0..3 {
            inc32(&mut one);
        }
        assert_eq!(&one[12..], &[0, 0, 0, 0]);
        assert_eq!(&one[..12], &start[..12]);
    }

    /// The fused engine's bulk pass equals the generic one for counters whose last word
    /// ends just before, at and past 2^32 (where it falls back), and for every length
    /// around its group and tail sizes, both directions.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn fused_bulk_pass_equals_generic_near_counter_wrap() {
        let Ok(g) =
            AesGcm::with_backends(&[0x33; 32], aes::Backend::best(), ghash::Backend::best())
        else {
            return;
        };
        let Engine::Fused(f) = &g.engine else {
            return;
        };
        let gen: &dyn Core = &f.0;
        let fused: &dyn Core = f;
        for blocks in [1usize, 7, 8, 15, 16, 17, 23, 24, 31, 32, 33, 47, 48, 70] {
            for low in [
                1u32,
                0xf0,
                0xfffe_ff00,
                0xffff_ffff - 70,
                0xffff_ffff - blocks as u32,
                0xffff_ffff - blocks as u32 + 1,
                0xffff_fff0,
                0xffff_ffff,
            ] {
                for decrypt in [false, true] {
                    let mut start = [9u8; 16];
                    start[12..].copy_from_slice(&low.to_be_bytes());
                    let data: Vec<u8> = (0..16 * blocks).map(|i| (i * 7 + 3) as u8).collect();
                    let (mut c1, mut c2) = (start, start);
                    let (mut y1, mut y2) = ([5u8; 16], [5u8; 16]);
                    let mut out1 = vec![0u8; data.len()];
                    let mut out2 = data.clone();
                    gen.ctr_ghash(decrypt, &mut c1, &mut y1, Some(&data), &mut out1)
                        .unwrap();
                    fused
                        .ctr_ghash(decrypt, &mut c2, &mut y2, None, &mut out2)
                        .unwrap();
                    let what = (blocks, low, decrypt);
                    assert_eq!(out1, out2, "{what:?}");
                    assert_eq!(y1, y2, "{what:?}");
                    assert_eq!(c1, c2, "{what:?}");
                }
            }
        }
    }

    #[test]
    fn tag_len_policy() {
        for len in 0..=20 {
            let ok = (12..=16).contains(&len);
            assert_eq!(key().with_tag_len(len).is_ok(), ok, "{len}");
            let ok_short = ok || len == 4 || len == 8;
            assert_eq!(key().with_short_tag_len(len).is_ok(), ok_short, "{len}");
        }
    }
}
