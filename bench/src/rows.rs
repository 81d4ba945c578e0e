//! What is measured: one [`Row`] per algorithm, with shyfr's set-up and each peer's.
//!
//! Every set-up keys its implementation once (key schedule, HMAC pads, GHASH powers are not
//! timed) and returns an [`Op`] that processes one whole buffer per call, the way a user of
//! that library's ordinary API would: AEADs seal in place with a fresh 12- (GCM) or 13-byte
//! (CCM) nonce set-up each call, no AAD, 16-byte tag; CTR and CBC encrypt the buffer as one
//! message from a fixed 16-byte IV (full-block big-endian counter for CTR, no padding for
//! CBC), XTS as one data unit with a fixed 16-byte tweak (ciphertext stealing for a length
//! that is not a multiple of 16; at least 16 bytes); hashes hash the buffer from a fresh
//! state; MACs tag it from the keyed state (shyfr's CMAC derives its two subkeys per message,
//! one extra block, as `Cmac::mac` does); SHAKE128 squeezes 32 bytes; KMAC128 gives a 32-byte
//! tag with an empty customization string. All implementations of a row get the same
//! key and nonce, and `main` checks that they agree on the output before timing them.
//!
//! Adding an algorithm is one entry in [`ROWS`]. Peers that lack an algorithm are simply left
//! out of its entry.

use std::hint::black_box;

use openssl_sys as ffi;

use crate::ossl;

/// One pass over a buffer: processes `buf` in place (ciphers) and writes any digest or tag
/// into `out` (64 bytes), returning its length.
pub type Op = Box<dyn FnMut(&mut [u8], &mut [u8]) -> usize>;

/// Builds an [`Op`] (keyed, ready to run).
pub type Make = fn() -> Op;

/// The implementations compared, in column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// This crate.
    Shyfr,
    /// The system libcrypto through the `openssl` crate.
    OpenSsl,
    /// The RustCrypto crates (`aes`, `ctr`, `cbc`, `xts-mode`, `cmac`, `aes-gcm`, `ccm`,
    /// `sha2`, `sha3`, `shake`, `hmac`).
    RustCrypto,
    /// `ring`.
    Ring,
    /// `aws-lc-rs`.
    AwsLc,
}

impl Peer {
    /// Every implementation, in column order.
    pub const ALL: [Peer; 5] = [
        Peer::Shyfr,
        Peer::OpenSsl,
        Peer::RustCrypto,
        Peer::Ring,
        Peer::AwsLc,
    ];

    /// Column name.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Shyfr => "shyfr",
            Peer::OpenSsl => "openssl",
            Peer::RustCrypto => "rustcrypto",
            Peer::Ring => "ring",
            Peer::AwsLc => "aws-lc-rs",
        }
    }
}

/// One algorithm: shyfr's implementation and the peers that have it.
pub struct Row {
    /// Name, as in `shyfr speed`.
    pub name: &'static str,
    /// What one pass does, for the report.
    pub operation: &'static str,
    /// Buffer sizes must be a multiple of this (16 for ECB, 1 otherwise).
    pub granule: usize,
    /// Every implementation of the row, shyfr first.
    pub impls: &'static [(Peer, Make)],
}

/// A fixed key of `len` bytes (the same for every implementation).
pub fn key(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(29).wrapping_add(7))
        .collect()
}

const NONCE: [u8; 13] = [
    0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88, 0x01,
];
/// IV of CTR and CBC, tweak of XTS.
const IV: [u8; 16] = [
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
];
const GCM_NONCE_LEN: usize = 12;
const CCM_NONCE_LEN: usize = 13;
const TAG_LEN: usize = 16;

// ---- AES-ECB -------------------------------------------------------------------------

fn shyfr_ecb(klen: usize) -> Op {
    let c = shyfr::aes::Aes::new_from_slice(&key(klen)).expect("key");
    Box::new(move |buf, _| {
        c.encrypt_blocks(buf).expect("whole blocks");
        0
    })
}

fn ossl_ecb(cipher: *const ffi::EVP_CIPHER, klen: usize) -> Op {
    let mut c = ossl::Cipher::new(cipher, &key(klen));
    Box::new(move |buf, _| {
        c.update(buf);
        0
    })
}

fn rc_ecb<C>() -> Op
where
    C: aes::cipher::KeyInit
        + aes::cipher::BlockCipherEncrypt<BlockSize = aes::cipher::consts::U16>
        + 'static,
{
    let c = C::new_from_slice(&key(C::key_size())).expect("key");
    Box::new(move |buf, _| {
        let (blocks, rest) = aes::cipher::Array::slice_as_chunks_mut(buf);
        debug_assert!(rest.is_empty());
        c.encrypt_blocks(blocks);
        0
    })
}

fn awslc_ecb(alg: &'static aws_lc_rs::cipher::Algorithm, klen: usize) -> Op {
    use aws_lc_rs::cipher::{EncryptingKey, UnboundCipherKey};
    let k = EncryptingKey::ecb(UnboundCipherKey::new(alg, &key(klen)).expect("key")).expect("ecb");
    Box::new(move |buf, _| {
        black_box(k.encrypt(buf).expect("whole blocks"));
        0
    })
}

// ---- AES-CTR, AES-CBC (encrypt), AES-XTS (encrypt) --------------------------------------

fn shyfr_aes(k: &[u8]) -> shyfr::aes::Aes {
    shyfr::aes::Aes::new_from_slice(k).expect("key")
}

fn shyfr_ctr(klen: usize) -> Op {
    let c = shyfr_aes(&key(klen));
    Box::new(move |buf, _| {
        shyfr::mode::ctr::Ctr::new(&c, &IV)
            .expect("iv")
            .apply_keystream(buf)
            .expect("keystream");
        0
    })
}

fn shyfr_cbc(klen: usize) -> Op {
    let c = shyfr::mode::cbc::Cbc::new(shyfr_aes(&key(klen)));
    Box::new(move |buf, _| {
        c.encrypt(&IV, buf).expect("whole blocks");
        0
    })
}

/// XTS with `klen` bytes of key: the first half keys the data cipher, the second the tweak.
fn shyfr_xts(klen: usize) -> Op {
    let k = key(klen);
    let (k1, k2) = k.split_at(klen / 2);
    let x = shyfr::mode::xts::Xts::new(shyfr_aes(k1), shyfr_aes(k2)).expect("xts");
    Box::new(move |buf, _| {
        x.encrypt(&IV, buf).expect("one data unit");
        0
    })
}

/// OpenSSL CTR, CBC (padding off) or XTS: keyed once, a fresh IV each message.
fn ossl_iv(cipher: *const ffi::EVP_CIPHER, klen: usize) -> Op {
    let mut c = ossl::Cipher::new(cipher, &key(klen));
    Box::new(move |buf, _| {
        c.set_iv(&IV);
        c.update(buf);
        0
    })
}

fn rc_ctr<C>() -> Op
where
    C: aes::cipher::KeyInit
        + aes::cipher::BlockCipherEncrypt<BlockSize = aes::cipher::consts::U16>
        + 'static,
{
    use aes::cipher::{InnerIvInit, StreamCipher, StreamCipherSeek};
    let c = C::new_from_slice(&key(C::key_size())).expect("key");
    let mut s = ctr::Ctr128BE::<C>::from_core(ctr::CtrCore::inner_iv_init(c, &IV.into()));
    Box::new(move |buf, _| {
        s.seek(0u64);
        s.apply_keystream(buf);
        0
    })
}

fn rc_cbc<C>() -> Op
where
    C: aes::cipher::KeyInit
        + aes::cipher::BlockCipherEncrypt<BlockSize = aes::cipher::consts::U16>
        + 'static,
{
    use aes::cipher::{BlockModeEncrypt, InnerIvInit, SetIvState};
    let c = C::new_from_slice(&key(C::key_size())).expect("key");
    let mut e = cbc::Encryptor::<C>::inner_iv_init(c, &IV.into());
    Box::new(move |buf, _| {
        e.set_iv(&IV.into());
        let (blocks, rest) = aes::cipher::Array::slice_as_chunks_mut(buf);
        debug_assert!(rest.is_empty());
        e.encrypt_blocks(blocks);
        0
    })
}

fn rc_xts<C>() -> Op
where
    C: aes::cipher::KeyInit
        + aes::cipher::BlockCipherEncrypt<BlockSize = aes::cipher::consts::U16>
        + 'static,
{
    let k = key(2 * C::key_size());
    let (k1, k2) = k.split_at(C::key_size());
    let x = xts_mode::Xts128::new(
        C::new_from_slice(k1).expect("key"),
        C::new_from_slice(k2).expect("key"),
    );
    Box::new(move |buf, _| {
        x.encrypt_sector(buf, IV.into());
        0
    })
}

/// aws-lc-rs `EncryptingKey` (CTR or CBC): keyed once, `less_safe_encrypt` with the fixed IV.
fn awslc_iv(alg: &'static aws_lc_rs::cipher::Algorithm, klen: usize, cbc: bool) -> Op {
    use aws_lc_rs::cipher::{EncryptingKey, EncryptionContext, UnboundCipherKey};
    use aws_lc_rs::iv::FixedLength;
    let u = UnboundCipherKey::new(alg, &key(klen)).expect("key");
    let k = if cbc {
        EncryptingKey::cbc(u)
    } else {
        EncryptingKey::ctr(u)
    }
    .expect("mode");
    Box::new(move |buf, _| {
        black_box(
            k.less_safe_encrypt(buf, EncryptionContext::Iv128(FixedLength::from(IV)))
                .expect("encrypt"),
        );
        0
    })
}

// ---- AES-GCM -------------------------------------------------------------------------

fn shyfr_gcm(klen: usize) -> Op {
    let c = shyfr::aead::gcm::AesGcm::new_from_slice(&key(klen)).expect("key");
    Box::new(move |buf, out| {
        let tag = c
            .seal_in_place(&NONCE[..GCM_NONCE_LEN], b"", buf)
            .expect("seal");
        out[..TAG_LEN].copy_from_slice(tag.as_ref());
        TAG_LEN
    })
}

/// OpenSSL AEAD through `CipherCtx`: keyed once; per message the nonce is set (and for CCM
/// the length), then update in place, final, get the tag.
fn ossl_aead(
    cipher: &'static openssl::cipher::CipherRef,
    klen: usize,
    nonce_len: usize,
    ccm: bool,
) -> Op {
    use openssl::cipher_ctx::CipherCtx;
    let mut ctx = CipherCtx::new().expect("ctx");
    ctx.encrypt_init(Some(cipher), None, None).expect("init");
    ctx.set_iv_length(nonce_len).expect("iv length");
    if ccm {
        ctx.set_tag_length(TAG_LEN).expect("tag length");
    }
    ctx.encrypt_init(None, Some(&key(klen)), None).expect("key");
    Box::new(move |buf, out| {
        ctx.encrypt_init(None, None, Some(&NONCE[..nonce_len]))
            .expect("nonce");
        if ccm {
            ctx.set_data_len(buf.len()).expect("length");
        }
        let n = buf.len();
        ctx.cipher_update_inplace(buf, n).expect("update");
        ctx.cipher_final(&mut []).expect("final");
        ctx.tag(&mut out[..TAG_LEN]).expect("tag");
        TAG_LEN
    })
}

fn rc_aead<A>(nonce_len: usize) -> Op
where
    A: aes_gcm::aead::AeadInOut + aes_gcm::aead::KeyInit + 'static,
{
    let c = A::new_from_slice(&key(A::key_size())).expect("key");
    let nonce = aes_gcm::aead::Nonce::<A>::try_from(&NONCE[..nonce_len]).expect("nonce length");
    Box::new(move |buf, out| {
        let tag = c
            .encrypt_inout_detached(&nonce, b"", buf.into())
            .expect("seal");
        out[..tag.len()].copy_from_slice(&tag);
        tag.len()
    })
}

/// `ring` and `aws-lc-rs` share this API (`LessSafeKey`, one nonce per call).
macro_rules! ring_like_gcm {
    ($fn:ident, $krate:ident) => {
        fn $fn(alg: &'static $krate::aead::Algorithm, klen: usize) -> Op {
            use $krate::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
            let k = LessSafeKey::new(UnboundKey::new(alg, &key(klen)).expect("key"));
            let mut n = [0u8; 12];
            n.copy_from_slice(&NONCE[..12]);
            Box::new(move |buf, out| {
                let tag = k
                    .seal_in_place_separate_tag(Nonce::assume_unique_for_key(n), Aad::empty(), buf)
                    .expect("seal");
                out[..TAG_LEN].copy_from_slice(tag.as_ref());
                TAG_LEN
            })
        }
    };
}
ring_like_gcm!(ring_gcm, ring);
ring_like_gcm!(awslc_gcm, aws_lc_rs);

// ---- AES-CCM -------------------------------------------------------------------------

fn shyfr_ccm(klen: usize) -> Op {
    let c = shyfr::aead::ccm::AesCcm::new_from_slice(&key(klen)).expect("key");
    Box::new(move |buf, out| {
        let tag = c
            .seal_in_place(&NONCE[..CCM_NONCE_LEN], b"", buf)
            .expect("seal");
        out[..TAG_LEN].copy_from_slice(tag.as_ref());
        TAG_LEN
    })
}

// ---- Hashes --------------------------------------------------------------------------

/// The one-shot `digest`, as the RustCrypto, ring and aws-lc-rs rows call theirs.
fn shyfr_hash<H: shyfr::hash::Hash + 'static>() -> Op {
    Box::new(move |buf, out| {
        let d = H::digest(buf);
        let d = d.as_ref();
        out[..d.len()].copy_from_slice(d);
        d.len()
    })
}

/// OpenSSL `Hasher` reused across messages (`finish` leaves it ready for the next one).
fn ossl_hash(md: openssl::hash::MessageDigest) -> Op {
    let mut h = openssl::hash::Hasher::new(md).expect("hasher");
    Box::new(move |buf, out| {
        h.update(buf).expect("update");
        let d = h.finish().expect("finish");
        out[..d.len()].copy_from_slice(&d);
        d.len()
    })
}

fn rc_hash<D: sha2::Digest + 'static>() -> Op {
    Box::new(move |buf, out| {
        let d = D::digest(buf);
        out[..d.len()].copy_from_slice(&d);
        d.len()
    })
}

fn ring_hash(alg: &'static ring::digest::Algorithm) -> Op {
    Box::new(move |buf, out| {
        let d = ring::digest::digest(alg, buf);
        let d = d.as_ref();
        out[..d.len()].copy_from_slice(d);
        d.len()
    })
}

fn awslc_hash(alg: &'static aws_lc_rs::digest::Algorithm) -> Op {
    Box::new(move |buf, out| {
        let d = aws_lc_rs::digest::digest(alg, buf);
        let d = d.as_ref();
        out[..d.len()].copy_from_slice(d);
        d.len()
    })
}

// ---- SHA-256 of sixteen messages, SHA-512 and SHA3-256 of eight (`digest_many`; the peers
// one by one)

/// Messages a `sha256-x16` pass hashes: the buffer in sixteen equal pieces.
const MANY256: usize = 16;
/// Messages a `sha512-x8` or `sha3-256-x8` pass hashes.
const MANY512: usize = 8;

/// XORs the `N`-byte `d` into `out` (the output the implementations are checked on: the
/// XOR of the pieces' digests).
fn fold<const N: usize>(out: &mut [u8], d: [u8; N]) {
    for (a, b) in out.iter_mut().zip(d) {
        *a ^= b;
    }
}

/// The buffer in `pieces` equal messages, each hashed by `one`.
fn one_by_one<const N: usize>(
    pieces: usize,
    mut one: impl FnMut(&[u8]) -> [u8; N] + 'static,
) -> Op {
    Box::new(move |buf, out| {
        out[..N].fill(0);
        for m in buf.chunks_exact(buf.len() / pieces) {
            fold(&mut out[..N], one(m));
        }
        N
    })
}

/// A `digest_many` function with `N`-byte digests.
type DigestMany<const N: usize> = fn(&[&[u8]], &mut [[u8; N]]) -> Result<(), shyfr::Error>;

/// The buffer in `L` equal messages through one `digest_many` call (`f`).
fn shyfr_many<const L: usize, const N: usize>(f: DigestMany<N>) -> Op {
    Box::new(move |buf, out| {
        let n = buf.len() / L;
        let msgs: [&[u8]; L] = core::array::from_fn(|i| &buf[i * n..(i + 1) * n]);
        let mut d = [[0u8; N]; L];
        f(&msgs, &mut d).expect("digest_many");
        out[..N].fill(0);
        for d in d {
            fold(&mut out[..N], d);
        }
        N
    })
}

// ---- SHAKE128 (32 bytes out) ---------------------------------------------------------

const SHAKE_OUT: usize = 32;

fn shyfr_shake128() -> Op {
    use shyfr::hash::XofReader;
    let fresh = shyfr::hash::sha3::Shake128::new();
    Box::new(move |buf, out| {
        let mut x = fresh.clone();
        x.update(buf);
        x.finalize_xof().read(&mut out[..SHAKE_OUT]);
        SHAKE_OUT
    })
}

fn ossl_shake128() -> Op {
    let mut h =
        openssl::hash::Hasher::new(openssl::hash::MessageDigest::shake_128()).expect("hasher");
    Box::new(move |buf, out| {
        h.update(buf).expect("update");
        h.finish_xof(&mut out[..SHAKE_OUT]).expect("finish");
        SHAKE_OUT
    })
}

fn rc_shake128() -> Op {
    use shake::digest::{ExtendableOutput, Update};
    Box::new(move |buf, out| {
        let mut x = shake::Shake128::default();
        x.update(buf);
        x.finalize_xof_into(&mut out[..SHAKE_OUT]);
        SHAKE_OUT
    })
}

// ---- HMAC ----------------------------------------------------------------------------

const HMAC_KEY_LEN: usize = 32;

fn shyfr_hmac<H: shyfr::hash::Hash + 'static>() -> Op {
    let keyed = shyfr::mac::hmac::Hmac::<H>::new(&key(HMAC_KEY_LEN));
    Box::new(move |buf, out| {
        let mut m = keyed.clone();
        m.update(buf);
        let t = m.finalize();
        let t = t.as_ref();
        out[..t.len()].copy_from_slice(t);
        t.len()
    })
}

fn ossl_mac(
    alg: &'static std::ffi::CStr,
    param: Option<(&'static std::ffi::CStr, &'static std::ffi::CStr)>,
    klen: usize,
) -> Op {
    let m = ossl::Mac::new(alg, param, &key(klen));
    Box::new(move |buf, out| m.mac(buf, out))
}

fn rc_hmac<D>() -> Op
where
    D: hmac::EagerHash + 'static,
    hmac::Hmac<D>: hmac::KeyInit + hmac::Mac + Clone,
{
    use hmac::{KeyInit, Mac};
    let keyed = <hmac::Hmac<D> as KeyInit>::new_from_slice(&key(HMAC_KEY_LEN)).expect("key");
    Box::new(move |buf, out| {
        let mut m = keyed.clone();
        m.update(buf);
        let t = m.finalize().into_bytes();
        out[..t.len()].copy_from_slice(&t);
        t.len()
    })
}

fn ring_hmac(alg: ring::hmac::Algorithm) -> Op {
    let k = ring::hmac::Key::new(alg, &key(HMAC_KEY_LEN));
    Box::new(move |buf, out| {
        let t = ring::hmac::sign(&k, buf);
        let t = t.as_ref();
        out[..t.len()].copy_from_slice(t);
        t.len()
    })
}

fn awslc_hmac(alg: aws_lc_rs::hmac::Algorithm) -> Op {
    let k = aws_lc_rs::hmac::Key::new(alg, &key(HMAC_KEY_LEN));
    Box::new(move |buf, out| {
        let t = aws_lc_rs::hmac::sign(&k, buf);
        let t = t.as_ref();
        out[..t.len()].copy_from_slice(t);
        t.len()
    })
}

// ---- AES-CMAC ------------------------------------------------------------------------

fn shyfr_cmac(klen: usize) -> Op {
    let c = shyfr_aes(&key(klen));
    Box::new(move |buf, out| {
        let t = shyfr::mode::cmac::Cmac::mac(&c, buf).expect("cmac");
        let t = t.as_bytes();
        out[..t.len()].copy_from_slice(t);
        t.len()
    })
}

fn rc_cmac<C>() -> Op
where
    C: aes::cipher::KeyInit
        + aes::cipher::BlockCipherEncrypt<BlockSize = aes::cipher::consts::U16>
        + Clone
        + 'static,
    cmac::Cmac<C>: cmac::KeyInit + cmac::Mac + Clone,
{
    use cmac::{KeyInit, Mac};
    let keyed = <cmac::Cmac<C> as KeyInit>::new_from_slice(&key(C::key_size())).expect("key");
    Box::new(move |buf, out| {
        let mut m = keyed.clone();
        m.update(buf);
        let t = m.finalize().into_bytes();
        out[..t.len()].copy_from_slice(&t);
        t.len()
    })
}

// ---- KMAC128 (32-byte tag, empty customization) ----------------------------------------

const KMAC_KEY_LEN: usize = 32;
const KMAC_TAG: usize = 32;

fn shyfr_kmac128() -> Op {
    let keyed = shyfr::mac::kmac::Kmac128::new(&key(KMAC_KEY_LEN), b"").expect("key");
    Box::new(move |buf, out| {
        let mut m = keyed.clone();
        m.update(buf);
        m.finalize_into(&mut out[..KMAC_TAG]).expect("tag length");
        KMAC_TAG
    })
}

// ---- The table -----------------------------------------------------------------------

use shyfr::hash::sha2 as s2;
use shyfr::hash::sha3 as s3;
use Peer::*;

/// A hash row: shyfr's hash type, OpenSSL's digest, and whichever of RustCrypto's type,
/// ring's and aws-lc-rs's algorithms exist for it.
macro_rules! hash_row {
    ($name:expr, $shyfr:ty, $ossl:expr
        $(, rc: $rc:ty)? $(, ring: $ring:expr)? $(, awslc: $awslc:expr)? $(,)?) => {
        Row {
            name: $name,
            operation: "hash",
            granule: 1,
            impls: &[
                (Shyfr, shyfr_hash::<$shyfr>),
                (OpenSsl, || {
                    use openssl::hash::MessageDigest;
                    ossl_hash($ossl)
                }),
                $((RustCrypto, rc_hash::<$rc>),)?
                $((Ring, || ring_hash(&$ring)),)?
                $((AwsLc, || awslc_hash(&$awslc)),)?
            ],
        }
    };
}

/// A row of `$n` messages of one length: shyfr's `digest_many` (type `$shyfr`, digests of
/// `$len` bytes) against every peer hashing them one by one (OpenSSL's `MessageDigest::$ossl`,
/// RustCrypto's `$rc`, ring's `$ring`, aws-lc-rs's `$awslc`).
macro_rules! many_row {
    ($name:expr, $op:expr, $n:expr, $len:literal, $shyfr:ty, $ossl:ident, $rc:ty,
        $(ring: $ring:expr,)? awslc: $awslc:expr $(,)?) => {
        Row {
            name: $name,
            operation: $op,
            granule: $n,
            impls: &[
                (Shyfr, || shyfr_many::<{ $n }, $len>(<$shyfr>::digest_many)),
                (OpenSsl, || {
                    use openssl::hash::{Hasher, MessageDigest};
                    let mut h = Hasher::new(MessageDigest::$ossl()).expect("hasher");
                    one_by_one::<$len>($n, move |m| {
                        h.update(m).expect("update");
                        h.finish()
                            .expect("finish")
                            .as_ref()
                            .try_into()
                            .expect("digest length")
                    })
                }),
                (RustCrypto, || {
                    one_by_one::<$len>($n, |m| {
                        use sha2::Digest;
                        <$rc>::digest(m).into()
                    })
                }),
                $((Ring, || {
                    one_by_one::<$len>($n, |m| {
                        let d = ring::digest::digest(&$ring, m);
                        d.as_ref().try_into().expect("digest length")
                    })
                }),)?
                (AwsLc, || {
                    one_by_one::<$len>($n, |m| {
                        let d = aws_lc_rs::digest::digest(&$awslc, m);
                        d.as_ref().try_into().expect("digest length")
                    })
                }),
            ],
        }
    };
}

/// Every row measured.
pub static ROWS: &[Row] = &[
    Row {
        name: "aes-128-ecb",
        operation: "encrypt",
        granule: 16,
        impls: &[
            (Shyfr, || shyfr_ecb(16)),
            // SAFETY: EVP_aes_*_ecb return static tables.
            (OpenSsl, || ossl_ecb(unsafe { ffi::EVP_aes_128_ecb() }, 16)),
            (RustCrypto, rc_ecb::<aes::Aes128>),
            (AwsLc, || awslc_ecb(&aws_lc_rs::cipher::AES_128, 16)),
        ],
    },
    Row {
        name: "aes-192-ecb",
        operation: "encrypt",
        granule: 16,
        impls: &[
            (Shyfr, || shyfr_ecb(24)),
            // SAFETY: as above.
            (OpenSsl, || ossl_ecb(unsafe { ffi::EVP_aes_192_ecb() }, 24)),
            (RustCrypto, rc_ecb::<aes::Aes192>),
            (AwsLc, || awslc_ecb(&aws_lc_rs::cipher::AES_192, 24)),
        ],
    },
    Row {
        name: "aes-256-ecb",
        operation: "encrypt",
        granule: 16,
        impls: &[
            (Shyfr, || shyfr_ecb(32)),
            // SAFETY: as above.
            (OpenSsl, || ossl_ecb(unsafe { ffi::EVP_aes_256_ecb() }, 32)),
            (RustCrypto, rc_ecb::<aes::Aes256>),
            (AwsLc, || awslc_ecb(&aws_lc_rs::cipher::AES_256, 32)),
        ],
    },
    Row {
        name: "aes-128-ctr",
        operation: "encrypt",
        granule: 1,
        impls: &[
            (Shyfr, || shyfr_ctr(16)),
            // SAFETY: EVP_aes_* return static tables.
            (OpenSsl, || ossl_iv(unsafe { ffi::EVP_aes_128_ctr() }, 16)),
            (RustCrypto, rc_ctr::<aes::Aes128>),
            (AwsLc, || awslc_iv(&aws_lc_rs::cipher::AES_128, 16, false)),
        ],
    },
    Row {
        name: "aes-256-ctr",
        operation: "encrypt",
        granule: 1,
        impls: &[
            (Shyfr, || shyfr_ctr(32)),
            // SAFETY: as above.
            (OpenSsl, || ossl_iv(unsafe { ffi::EVP_aes_256_ctr() }, 32)),
            (RustCrypto, rc_ctr::<aes::Aes256>),
            (AwsLc, || awslc_iv(&aws_lc_rs::cipher::AES_256, 32, false)),
        ],
    },
    Row {
        name: "aes-128-cbc",
        operation: "encrypt",
        granule: 16,
        impls: &[
            (Shyfr, || shyfr_cbc(16)),
            // SAFETY: as above.
            (OpenSsl, || ossl_iv(unsafe { ffi::EVP_aes_128_cbc() }, 16)),
            (RustCrypto, rc_cbc::<aes::Aes128>),
            (AwsLc, || awslc_iv(&aws_lc_rs::cipher::AES_128, 16, true)),
        ],
    },
    Row {
        name: "aes-128-xts",
        operation: "encrypt (one data unit)",
        granule: 1,
        impls: &[
            (Shyfr, || shyfr_xts(32)),
            // SAFETY: as above.
            (OpenSsl, || ossl_iv(unsafe { ffi::EVP_aes_128_xts() }, 32)),
            (RustCrypto, rc_xts::<aes::Aes128>),
        ],
    },
    Row {
        name: "aes-256-xts",
        operation: "encrypt (one data unit)",
        granule: 1,
        impls: &[
            (Shyfr, || shyfr_xts(64)),
            // SAFETY: as above.
            (OpenSsl, || ossl_iv(unsafe { ffi::EVP_aes_256_xts() }, 64)),
            (RustCrypto, rc_xts::<aes::Aes256>),
        ],
    },
    Row {
        name: "aes-128-gcm",
        operation: "seal",
        granule: 1,
        impls: &[
            (Shyfr, || shyfr_gcm(16)),
            (OpenSsl, || {
                ossl_aead(
                    openssl::cipher::Cipher::aes_128_gcm(),
                    16,
                    GCM_NONCE_LEN,
                    false,
                )
            }),
            (RustCrypto, || rc_aead::<aes_gcm::Aes128Gcm>(GCM_NONCE_LEN)),
            (Ring, || ring_gcm(&ring::aead::AES_128_GCM, 16)),
            (AwsLc, || awslc_gcm(&aws_lc_rs::aead::AES_128_GCM, 16)),
        ],
    },
    Row {
        name: "aes-256-gcm",
        operation: "seal",
        granule: 1,
        impls: &[
            (Shyfr, || shyfr_gcm(32)),
            (OpenSsl, || {
                ossl_aead(
                    openssl::cipher::Cipher::aes_256_gcm(),
                    32,
                    GCM_NONCE_LEN,
                    false,
                )
            }),
            (RustCrypto, || rc_aead::<aes_gcm::Aes256Gcm>(GCM_NONCE_LEN)),
            (Ring, || ring_gcm(&ring::aead::AES_256_GCM, 32)),
            (AwsLc, || awslc_gcm(&aws_lc_rs::aead::AES_256_GCM, 32)),
        ],
    },
    Row {
        name: "aes-128-ccm",
        operation: "seal",
        granule: 1,
        impls: &[
            (Shyfr, || shyfr_ccm(16)),
            (OpenSsl, || {
                ossl_aead(
                    openssl::cipher::Cipher::aes_128_ccm(),
                    16,
                    CCM_NONCE_LEN,
                    true,
                )
            }),
            (RustCrypto, || {
                rc_aead::<ccm::Ccm<aes::Aes128, ccm::consts::U16, ccm::consts::U13>>(CCM_NONCE_LEN)
            }),
        ],
    },
    Row {
        name: "aes-256-ccm",
        operation: "seal",
        granule: 1,
        impls: &[
            (Shyfr, || shyfr_ccm(32)),
            (OpenSsl, || {
                ossl_aead(
                    openssl::cipher::Cipher::aes_256_ccm(),
                    32,
                    CCM_NONCE_LEN,
                    true,
                )
            }),
            (RustCrypto, || {
                rc_aead::<ccm::Ccm<aes::Aes256, ccm::consts::U16, ccm::consts::U13>>(CCM_NONCE_LEN)
            }),
        ],
    },
    hash_row!("sha1", shyfr::hash::sha1::Sha1, MessageDigest::sha1(),
        ring: ring::digest::SHA1_FOR_LEGACY_USE_ONLY,
        awslc: aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY),
    hash_row!("sha224", s2::Sha224, MessageDigest::sha224(),
        rc: sha2::Sha224, awslc: aws_lc_rs::digest::SHA224),
    hash_row!("sha256", s2::Sha256, MessageDigest::sha256(),
        rc: sha2::Sha256, ring: ring::digest::SHA256, awslc: aws_lc_rs::digest::SHA256),
    many_row!(
        "sha256-x16",
        "hash 16 messages of 1/16 the size each (shyfr digest_many, peers one by one)",
        MANY256,
        32,
        s2::Sha256,
        sha256,
        sha2::Sha256,
        ring: ring::digest::SHA256,
        awslc: aws_lc_rs::digest::SHA256
    ),
    many_row!(
        "sha512-x8",
        "hash 8 messages of 1/8 the size each (shyfr digest_many, peers one by one)",
        MANY512,
        64,
        s2::Sha512,
        sha512,
        sha2::Sha512,
        ring: ring::digest::SHA512,
        awslc: aws_lc_rs::digest::SHA512
    ),
    hash_row!("sha384", s2::Sha384, MessageDigest::sha384(),
        rc: sha2::Sha384, ring: ring::digest::SHA384, awslc: aws_lc_rs::digest::SHA384),
    hash_row!("sha512", s2::Sha512, MessageDigest::sha512(),
        rc: sha2::Sha512, ring: ring::digest::SHA512, awslc: aws_lc_rs::digest::SHA512),
    hash_row!("sha512-256", s2::Sha512_256,
        MessageDigest::from_name("SHA512-256").expect("sha512-256"),
        rc: sha2::Sha512_256, ring: ring::digest::SHA512_256,
        awslc: aws_lc_rs::digest::SHA512_256),
    hash_row!("sha3-256", s3::Sha3_256, MessageDigest::sha3_256(),
        rc: sha3::Sha3_256, awslc: aws_lc_rs::digest::SHA3_256),
    many_row!(
        "sha3-256-x8",
        "hash 8 messages of 1/8 the size each (shyfr digest_many, peers one by one)",
        MANY512,
        32,
        s3::Sha3_256,
        sha3_256,
        sha3::Sha3_256,
        awslc: aws_lc_rs::digest::SHA3_256
    ),
    hash_row!("sha3-512", s3::Sha3_512, MessageDigest::sha3_512(),
        rc: sha3::Sha3_512, awslc: aws_lc_rs::digest::SHA3_512),
    Row {
        name: "shake128",
        operation: "hash (32-byte output)",
        granule: 1,
        impls: &[
            (Shyfr, shyfr_shake128),
            (OpenSsl, ossl_shake128),
            (RustCrypto, rc_shake128),
        ],
    },
    Row {
        name: "hmac-sha256",
        operation: "mac",
        granule: 1,
        impls: &[
            (Shyfr, shyfr_hmac::<s2::Sha256>),
            (OpenSsl, || {
                ossl_mac(c"HMAC", Some((c"digest", c"SHA256")), HMAC_KEY_LEN)
            }),
            (RustCrypto, rc_hmac::<sha2::Sha256>),
            (Ring, || ring_hmac(ring::hmac::HMAC_SHA256)),
            (AwsLc, || awslc_hmac(aws_lc_rs::hmac::HMAC_SHA256)),
        ],
    },
    Row {
        name: "hmac-sha512",
        operation: "mac",
        granule: 1,
        impls: &[
            (Shyfr, shyfr_hmac::<s2::Sha512>),
            (OpenSsl, || {
                ossl_mac(c"HMAC", Some((c"digest", c"SHA512")), HMAC_KEY_LEN)
            }),
            (RustCrypto, rc_hmac::<sha2::Sha512>),
            (Ring, || ring_hmac(ring::hmac::HMAC_SHA512)),
            (AwsLc, || awslc_hmac(aws_lc_rs::hmac::HMAC_SHA512)),
        ],
    },
    Row {
        name: "aes-128-cmac",
        operation: "mac",
        granule: 1,
        impls: &[
            (Shyfr, || shyfr_cmac(16)),
            (OpenSsl, || {
                ossl_mac(c"CMAC", Some((c"cipher", c"AES-128-CBC")), 16)
            }),
            (RustCrypto, rc_cmac::<aes::Aes128>),
        ],
    },
    Row {
        name: "kmac128",
        operation: "mac (32-byte tag)",
        granule: 1,
        impls: &[
            (Shyfr, shyfr_kmac128),
            (OpenSsl, || ossl_mac(c"KMAC128", None, KMAC_KEY_LEN)),
        ],
    },
];
