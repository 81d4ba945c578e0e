//! Constant-time check under valgrind's memcheck (see SIDE-CHANNELS.md).
//!
//! The key and the data are marked *undefined* with memcheck's client requests; memcheck
//! then reports every branch ("Conditional jump or move depends on uninitialised value")
//! and every memory address ("Use of uninitialised value") computed from them. A run with
//! no error means no secret-dependent branch or table index on the paths exercised.
//!
//! ```text
//! cargo build --release -p shyfr --example ct_valgrind
//! valgrind --error-exitcode=1 target/release/examples/ct_valgrind            # every backend valgrind offers
//! SHYFR_CPU=portable valgrind --error-exitcode=1 target/release/examples/ct_valgrind
//! ```
//!
//! Every entry point runs on **every backend the CPU (as valgrind presents it) allows**,
//! through the explicit-backend constructors, and prints one `checked: ENTRY on BACKEND`
//! line each; the last line counts them. Valgrind runs no AVX-512 code (it hides those
//! CPUID bits), nor VAES, VPCLMULQDQ, GFNI or SHA-NI (3.19): natively this covers the
//! AES-NI, PCLMULQDQ, AVX2 and BMI backends and the portable ones; the AVX-512 and VAES
//! kernels are not checked by this tool. HMAC, HKDF and PBKDF2 have no explicit backend
//! and run on the hash's default one (the `SHYFR_CPU=portable` run puts them on `soft`).
//!
//! Left out on purpose: the accept/reject verdict of AEAD open, MAC verify, key unwrap and
//! unpadding is by nature a branch on a key-derived value (the comparisons themselves are
//! `ct::ct_eq` and masks), which memcheck would report; their timing is checked
//! statistically by `examples/dudect.rs` instead.
//!
//! Outside valgrind the requests do nothing and the program just runs. With the argument
//! `leaky` it runs a deliberately leaky look-up instead, which memcheck must report.

use shyfr::aead::ccm::AesCcm;
use shyfr::aead::chunked::{Cobblestone, Suite};
use shyfr::aead::dstu7624::gcm::Gcm as DstuGcm;
use shyfr::aead::gcm::AesGcm;
use shyfr::aead::ghash;
use shyfr::aes::{self, Aes};
use shyfr::arith::bigint::{self, BoxedUint, Modulus};
use shyfr::des::{self, Des, Tdes};
use shyfr::gost28147::{self, Gost28147, Sbox};
use shyfr::hash::gost34311::Gost34311;
use shyfr::hash::kupyna::{self, Kupyna};
use shyfr::hash::sha1::{self, Sha1};
use shyfr::hash::sha2::{Sha256, Sha256Backend, Sha512, Sha512Backend};
use shyfr::hash::sha3::{self, Sha3_256, Shake256};
use shyfr::hash::XofReader;
use shyfr::kalyna::{
    self, Kalyna, Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512,
};
use shyfr::kdf::hkdf::Hkdf;
use shyfr::kdf::pbkdf2::pbkdf2_hmac;
use shyfr::mac::hmac::Hmac;
use shyfr::mac::kmac::Kmac128;
use shyfr::mac::kupyna_kmac::KupynaKmac;
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor};
use shyfr::mode::cmac::Cmac;
use shyfr::mode::ctr::Ctr;
use shyfr::mode::dstu7624::{cmac::Cmac as DstuCmac, ctr::Ctr as DstuCtr};
use shyfr::mode::gost28147::{Gamma, GammaFeedbackEncryptor, Mac as GostMac};
use shyfr::mode::kw::{Kw, Kwp};
use shyfr::mode::ofb::Ofb;
use shyfr::mode::xts::Xts;
use shyfr::pad::Padding;
use shyfr::rand::OsRng;
use shyfr::sig::rsa::RsaPrivateKey;

/// Memcheck's client request codes: `VG_USERREQ_TOOL_BASE('M','C') + n` (valgrind's
/// documented client-request protocol, `memcheck.h`).
const MAKE_MEM_UNDEFINED: u64 = (((b'M' as u64) << 24) | ((b'C' as u64) << 16)) + 1;
const MAKE_MEM_DEFINED: u64 = MAKE_MEM_UNDEFINED + 1;
/// `VG_USERREQ__RUNNING_ON_VALGRIND` (`valgrind.h`): nonzero under valgrind.
const RUNNING_ON_VALGRIND: u64 = 0x1001;
/// `VG_USERREQ__CHANGE_ERR_DISABLEMENT` (`valgrind.h`): argument `1` stops error
/// reporting in this thread, `-1` resumes it.
const CHANGE_ERR_DISABLEMENT: u64 = 0x1801;

/// Issues a valgrind client request; a no-op returning `0` on real hardware.
#[cfg(target_arch = "x86_64")]
fn client_request_raw(request: u64, arg1: u64, arg2: u64) -> u64 {
    let args: [u64; 6] = [request, arg1, arg2, 0, 0, 0];
    let mut result: u64 = 0;
    // SAFETY: the "special instruction preamble" (four rotations of rdi summing to 128
    // bits, then xchg rbx,rbx) leaves every register unchanged on real hardware; under
    // valgrind it reads `args` through rax and writes the result to rdx.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51", "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") args.as_ptr(),
            inout("rdi") 0u64 => _,
            options(nostack, preserves_flags)
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request_raw(_request: u64, _arg1: u64, _arg2: u64) -> u64 {
    0
}

/// A client request about the memory `addr .. addr + len`.
fn client_request(request: u64, addr: *const u8, len: usize) -> u64 {
    client_request_raw(request, addr as u64, len as u64)
}

/// Backends whose kernels valgrind 3.19 cannot decode: their self-test would stop the run
/// with SIGILL, so under valgrind they are skipped, and reported as not checked. The DES
/// AVX2 kernel uses `vmovq xmm, xmm` in its `VEX.66.0F D6` register form, which valgrind
/// 3.19's decoder lacks.
const VALGRIND_CANNOT_RUN: &[(&str, &str)] = &[("des", "x86_avx2")];

/// Whether `family`'s `backend` is to be checked: the CPU allows it, valgrind can decode
/// it, and (only then, since it runs the backend) its self-test passed.
fn check_backend(
    family: &str,
    backend: &str,
    cpu_allows: bool,
    available: impl Fn() -> bool,
) -> bool {
    if !cpu_allows {
        return false;
    }
    if client_request(RUNNING_ON_VALGRIND, core::ptr::null(), 0) != 0
        && VALGRIND_CANNOT_RUN.contains(&(family, backend))
    {
        println!("not checked: {family} {backend} (valgrind cannot decode its instructions)");
        return false;
    }
    available()
}

fn secret(buf: &[u8]) {
    client_request(MAKE_MEM_UNDEFINED, buf.as_ptr(), buf.len());
}

fn public(buf: &[u8]) {
    client_request(MAKE_MEM_DEFINED, buf.as_ptr(), buf.len());
}

/// Runs `f` with memcheck's error reporting off (the secrets stay undefined in what `f`
/// computes): for set-up code whose accept/reject verdict is a branch by nature.
fn unreported<T>(f: impl FnOnce() -> T) -> T {
    client_request_raw(CHANGE_ERR_DISABLEMENT, 1, 0);
    let r = f();
    client_request_raw(CHANGE_ERR_DISABLEMENT, u64::MAX, 0);
    r
}

/// A deliberately leaky computation: a table look-up and a branch on a secret byte. CI runs
/// it to show that the check can fail (memcheck must report it).
fn leaky() {
    let key = std::hint::black_box([0x3cu8; 16]);
    secret(&key);
    let table: Vec<u8> = std::hint::black_box((0..=255u8).rev().collect());
    let v = std::hint::black_box(table[std::hint::black_box(key[0]) as usize]);
    if v > 0x10 {
        println!("leaky: branch taken");
    }
}

/// Deterministic bytes the compiler cannot fold (`black_box`).
fn bytes(n: usize, seed: u8) -> Vec<u8> {
    std::hint::black_box(
        (0..n)
            .map(|i| (i as u8).wrapping_mul(37).wrapping_add(seed) ^ (i >> 8) as u8)
            .collect(),
    )
}

/// The entry points checked, with their backends.
struct Log(Vec<(String, &'static str)>);

impl Log {
    fn checked(&mut self, entry: &str, backend: &'static str) {
        println!("checked: {entry} on {backend}");
        self.0.push((entry.to_string(), backend));
    }
}

/// `run(key, data)` with key and data secret; every output is declassified by `run` only
/// after the computation (by calling [`public`] on it).
fn with_secrets(klen: usize, dlen: usize, seed: u8, run: impl FnOnce(&[u8], &mut Vec<u8>)) {
    let key = bytes(klen, seed);
    let mut data = bytes(dlen, seed ^ 0x5a);
    secret(&key);
    secret(&data);
    run(&key, &mut data);
    public(&data);
}

fn aes_checks(log: &mut Log) {
    for &b in aes::Backend::ALL.iter().filter(|b| b.is_available()) {
        let n = b.name();
        for klen in [16usize, 24, 32] {
            with_secrets(klen, 16 * 37, 1, |key, data| {
                let aes = Aes::with_backend(key, b).expect("backend");
                let orig = data.clone();
                aes.encrypt_blocks(data).expect("blocks");
                let mut one = [0u8; 16];
                one.copy_from_slice(&data[..16]);
                aes.decrypt_block(&mut one);
                aes.decrypt_blocks(data).expect("blocks");
                public(&one);
                public(data);
                public(&orig);
                assert_eq!(*data, orig, "round trip");
            });
        }
        log.checked("AES-128/192/256 key set-up, encrypt, decrypt", n);
        with_secrets(64, 16 * 41 + 5, 2, |key, data| {
            let aes = Aes::with_backend(&key[..16], b).expect("backend");
            Ctr::new(&aes, &[3u8; 16])
                .expect("iv")
                .apply_keystream(data)
                .expect("length");
            let whole = data.len() / 16 * 16;
            let cbc = Cbc::new(&aes);
            cbc.encrypt(&[4u8; 16], &mut data[..whole]).expect("blocks");
            cbc.decrypt(&[5u8; 16], &mut data[..whole]).expect("blocks");
            CfbEncryptor::new(&aes, &[6u8; 16])
                .expect("iv")
                .update(data)
                .expect("cfb");
            CfbDecryptor::new(&aes, &[7u8; 16])
                .expect("iv")
                .update(data)
                .expect("cfb");
            Ofb::new(&aes, &[8u8; 16])
                .expect("iv")
                .apply_keystream(data)
                .expect("ofb");
            let xts = Xts::new(
                Aes::with_backend(&key[..32], b).expect("backend"),
                Aes::with_backend(&key[32..], b).expect("backend"),
            )
            .expect("keys");
            xts.encrypt(&[6u8; 16], data).expect("length");
            xts.decrypt(&[7u8; 16], data).expect("length");
            let t = Cmac::mac(&aes, data).expect("cipher");
            public(t.as_bytes());
            let ccm = AesCcm::with_backend(&key[..32], b).expect("key");
            let t = ccm.seal_in_place(&[8u8; 13], b"aad", data).expect("seal");
            public(t.as_bytes());
            // Key wrap (wrapping only: unwrapping ends in the integrity verdict).
            let mut w = vec![0u8; 48 + 16];
            let m = Kw::new(&aes)
                .expect("kw")
                .wrap(&data[..48], &mut w)
                .expect("kw");
            public(&w[..m]);
            let m = Kwp::new(&aes)
                .expect("kwp")
                .wrap(&data[..45], &mut w)
                .expect("kwp");
            public(&w[..m]);
            // PKCS#7 padding of secret data (the pad length is public).
            let mut p = data[..40].to_vec();
            p.resize(48, 0);
            cbc.encrypt_padded(&[9u8; 16], &mut p, 40, Padding::Pkcs7)
                .expect("pad");
            public(&p);
        });
        log.checked(
            "AES CTR, CBC, CFB, OFB, XTS, CMAC, CCM seal, KW/KWP wrap, CBC-PKCS#7",
            n,
        );
    }
}

fn gcm_checks(log: &mut Log) {
    let avail_a: Vec<_> = aes::Backend::ALL
        .iter()
        .filter(|b| b.is_available())
        .collect();
    let avail_g: Vec<_> = ghash::Backend::ALL
        .iter()
        .filter(|b| b.is_available())
        .collect();
    let mut seen = Vec::new();
    for &&a in &avail_a {
        for &&g in &avail_g {
            for fused in [true, false] {
                with_secrets(32, 1000, 3, |key, data| {
                    let gcm = if fused {
                        AesGcm::with_backends(key, a, g)
                    } else {
                        AesGcm::with_backends_generic(key, a, g)
                    }
                    .expect("backends");
                    let engine = gcm.engine();
                    let what = format!("AES-GCM seal (aes {}, ghash {})", a.name(), g.name());
                    if seen.contains(&(what.clone(), engine)) {
                        return;
                    }
                    let t = gcm.seal_in_place(&[1u8; 12], b"aad", data).expect("seal");
                    public(t.as_bytes());
                    let t = gcm.gmac(&[2u8; 12], &data[..100]).expect("gmac");
                    public(t.as_bytes());
                    log.checked(&format!("{what} + GMAC"), engine);
                    seen.push((what, engine));
                });
            }
        }
    }
}

fn hash_checks(log: &mut Log) {
    let msg_len = 1000;
    for &b in sha1::Backend::ALL.iter().filter(|b| b.is_available()) {
        with_secrets(0, msg_len, 4, |_, data| {
            let mut h = Sha1::with_backend(b).expect("backend");
            h.update(data);
            public(&h.finalize());
        });
        log.checked("SHA-1", b.name());
    }
    for &b in Sha256Backend::ALL.iter().filter(|b| b.is_available()) {
        with_secrets(0, msg_len, 5, |_, data| {
            let mut h = Sha256::with_backend(b).expect("backend");
            h.update(data);
            public(&h.finalize());
        });
        log.checked("SHA-256", b.name());
    }
    for &b in Sha512Backend::ALL.iter().filter(|b| b.is_available()) {
        with_secrets(0, msg_len, 6, |_, data| {
            let mut h = Sha512::with_backend(b).expect("backend");
            h.update(data);
            public(&h.finalize());
        });
        log.checked("SHA-512", b.name());
    }
    for &b in sha3::Backend::ALL.iter().filter(|b| b.is_available()) {
        with_secrets(32, msg_len, 7, |key, data| {
            let mut h = Sha3_256::with_backend(b).expect("backend");
            h.update(data);
            public(&h.finalize());
            let mut x = Shake256::with_backend(b).expect("backend");
            x.update(data);
            let mut out = [0u8; 200];
            x.finalize_xof().read(&mut out);
            public(&out);
            let mut k = Kmac128::with_backend(key, b"custom", b).expect("key");
            k.update(data);
            let mut t = [0u8; 32];
            k.finalize_into(&mut t).expect("length");
            public(&t);
        });
        log.checked("SHA3-256, SHAKE256, KMAC128", b.name());
    }
    // The constructions on the hashes' default backends.
    with_secrets(32, msg_len, 8, |key, data| {
        public(Hmac::<Sha256>::mac(key, data).as_ref());
        public(Hmac::<Sha512>::mac(key, data).as_ref());
        let mut okm = [0u8; 100];
        Hkdf::<Sha256>::derive(b"salt", key, b"info", &mut okm).expect("hkdf");
        public(&okm);
        Hkdf::<Sha512>::derive(b"salt", key, b"info", &mut okm).expect("hkdf");
        public(&okm);
        let mut dk = [0u8; 40];
        pbkdf2_hmac::<Sha256>(key, b"salt", 3, &mut dk).expect("pbkdf2");
        public(&dk);
        pbkdf2_hmac::<Sha512>(key, b"salt", 3, &mut dk).expect("pbkdf2");
        public(&dk);
    });
    log.checked(
        "HMAC, HKDF, PBKDF2 over SHA-256 and SHA-512",
        if Sha256Backend::best() == Sha256Backend::Soft {
            "default (sha256 soft)"
        } else {
            "default (sha256 hardware)"
        },
    );
}

/// Kalyna, every variant: key set-up, encrypt, decrypt; and the DSTU 7624 CTR (gamma),
/// CBC encryption, OFB, CMAC and GCM seal on each variant.
fn kalyna_checks(log: &mut Log) {
    macro_rules! modes {
        ($t:ident, $b:expr, $key:expr, $data:expr) => {{
            let k = $t::with_backend($key.try_into().expect("key length"), $b).expect("backend");
            let bl = $t::BLOCK_LEN;
            DstuCtr::new(&k, &vec![3u8; bl])
                .expect("iv")
                .apply_keystream($data)
                .expect("ctr");
            // The chained kernels (one block in a register): CBC encryption, OFB.
            Cbc::new(&k).encrypt(&vec![5u8; bl], $data).expect("cbc");
            Ofb::new(&k, &vec![6u8; bl])
                .expect("iv")
                .apply_keystream($data)
                .expect("ofb");
            let t = DstuCmac::mac(&k, bl, $data).expect("cmac");
            public(t.as_bytes());
            let g = DstuGcm::new(&k, bl).expect("gcm");
            let t = g
                .seal_in_place(&vec![4u8; bl], b"aad", $data)
                .expect("seal");
            public(t.as_bytes());
        }};
    }
    for &b in kalyna::Backend::ALL.iter().filter(|b| b.is_available()) {
        for (bits, klen) in [(128, 16), (128, 32), (256, 32), (256, 64), (512, 64)] {
            with_secrets(klen, 64 * 9, 9, |key, data| {
                let k = Kalyna::with_backend(bits, key, b).expect("backend");
                let orig = data.clone();
                k.encrypt_blocks(data).expect("blocks");
                k.decrypt_blocks(data).expect("blocks");
                public(data);
                public(&orig);
                assert_eq!(*data, orig);
                match (bits, klen) {
                    (128, 16) => modes!(Kalyna128_128, b, key, data),
                    (128, 32) => modes!(Kalyna128_256, b, key, data),
                    (256, 32) => modes!(Kalyna256_256, b, key, data),
                    (256, 64) => modes!(Kalyna256_512, b, key, data),
                    _ => modes!(Kalyna512_512, b, key, data),
                }
            });
        }
        log.checked(
            "Kalyna (5 variants) key set-up, encrypt, decrypt, DSTU CTR (gamma), CBC enc, OFB, CMAC, GCM seal",
            b.name(),
        );
    }
}

fn gost_checks(log: &mut Log) {
    for &b in gost28147::Backend::ALL.iter().filter(|b| b.is_available()) {
        for sbox in [Sbox::DKE1, Sbox::TEST] {
            with_secrets(32, 8 * 65 + 3, 10, |key, data| {
                let g = Gost28147::with_backend(key, &sbox, b).expect("backend");
                let whole = data.len() / 8 * 8;
                g.encrypt_blocks(&mut data[..whole]).expect("blocks");
                g.decrypt_blocks(&mut data[..whole]).expect("blocks");
                Gamma::new(&g, &[1u8; 8]).expect("iv").apply_keystream(data);
                GammaFeedbackEncryptor::new(&g, &[2u8; 8])
                    .expect("iv")
                    .update(data);
                public(&GostMac::mac(&g, data));
            });
        }
        log.checked(
            "GOST 28147-89 key set-up, ECB encrypt/decrypt, gamma, gamma with feedback, MAC",
            b.name(),
        );
        with_secrets(0, 1000, 11, |_, data| {
            let mut h = Gost34311::with_backend(&Sbox::DKE1, &[0; 32], b).expect("backend");
            h.update(data);
            public(&h.finalize());
        });
        log.checked("GOST 34.311-95", b.name());
    }
}

fn des_checks(log: &mut Log) {
    for &b in des::Backend::ALL
        .iter()
        .filter(|b| check_backend("des", b.name(), b.cpu_allows(), || b.is_available()))
    {
        for klen in [8usize, 16, 24] {
            with_secrets(klen, 8 * 67, 12, |key, data| {
                let orig = data.clone();
                if klen == 8 {
                    let d = Des::with_backend(key, b).expect("backend");
                    d.encrypt_blocks(data).expect("blocks");
                    d.decrypt_blocks(data).expect("blocks");
                } else {
                    let d = Tdes::with_backend(key, b).expect("backend");
                    d.encrypt_blocks(data).expect("blocks");
                    d.decrypt_blocks(data).expect("blocks");
                    Cbc::new(&d).encrypt(&[1u8; 8], data).expect("cbc");
                    Cbc::new(&d).decrypt(&[1u8; 8], data).expect("cbc");
                }
                public(data);
                public(&orig);
                assert_eq!(*data, orig);
            });
        }
        log.checked(
            "DES and TDES (2 and 3 keys) key set-up, encrypt, decrypt, CBC",
            b.name(),
        );
    }
}

/// Kupyna (DSTU 7564) with every output size class (256: 8-column state, 512: 16-column)
/// over secret data, and the Kupyna KMAC with a secret key, on every backend.
fn kupyna_checks(log: &mut Log) {
    for &b in kupyna::Backend::ALL
        .iter()
        .filter(|b| check_backend("kupyna", b.name(), b.cpu_allows(), || b.is_available()))
    {
        for bits in [256usize, 384, 512] {
            with_secrets(bits / 8, 1000, 13, |key, data| {
                let mut h = Kupyna::with_backend(bits, b).expect("backend");
                h.update(data);
                let mut out = vec![0u8; bits / 8];
                h.finalize_bits_into(data[0], 3, &mut out).expect("length");
                public(&out);
                let mut k = KupynaKmac::with_backend(key, b).expect("key");
                k.update(data);
                public(&k.finalize());
            });
        }
        log.checked(
            "Kupyna-256/384/512 (with a partial last byte), Kupyna KMAC",
            b.name(),
        );
    }
}

/// File encryption's chunked AEAD (`shyfr encrypt`): key derivation (HKDF-SHA-512), the
/// commitment and three chunks of every suite, with the input key and the plaintext secret.
fn chunked_checks(log: &mut Log) {
    for &suite in Suite::ALL {
        with_secrets(suite.key_len(), 40_000, 9, |key, data| {
            let c = Cobblestone::new(suite, key).expect("key");
            let mut sealed = c.seal_with_salt(&[7u8; 24], b"header", data).expect("seal");
            public(&sealed);
            let engine = c
                .seal_header(&[7u8; 24], b"header")
                .expect("header")
                .1
                .engine();
            log.checked(&format!("chunked seal ({})", suite.aead_name()), engine);
            data.clear();
            data.append(&mut sealed);
        });
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Big integers on every backend: a public 2048-bit modulus, a secret base and a secret
/// 2048-bit exponent (modular multiplication, reduction of a double-width value, the
/// fixed-window exponentiation, the paired CRT exponentiation, Fermat inversion); then
/// the RSA private operation (blinded CRT with its fault check) with a secret key on a
/// public input. The key set-up's own accept/reject checks (`n = p q`, `e d = 1`) run
/// with reports off, the key's values staying secret for the operation that follows.
/// The fault check's verdict (`m^e == c`, and the result's width) is a branch on
/// key-derived values by nature: `scripts/ct_valgrind.supp` names those two branches
/// (in `private_op` itself and in the `resize` it calls), and nothing inlined into them,
/// which needs the line tables (`CARGO_PROFILE_RELEASE_DEBUG=line-tables-only`).
fn bigint_rsa_checks(log: &mut Log) {
    let n = BoxedUint::from_be_bytes(&hex(RSA_N));
    let p = BoxedUint::from_be_bytes(&hex(RSA_P));
    let q = BoxedUint::from_be_bytes(&hex(RSA_Q));
    for &b in bigint::Backend::ALL
        .iter()
        .filter(|b| check_backend("bigint", b.name(), b.cpu_allows(), || b.is_available()))
    {
        let m = Modulus::with_backend(&n, b).expect("backend");
        let mp = Modulus::with_backend(&p, b).expect("backend");
        let mq = Modulus::with_backend(&q, b).expect("backend");
        with_secrets(256, 512, 14, |e, x| {
            let e = BoxedUint::from_be_bytes(e);
            let base = BoxedUint::from_be_bytes(&x[..256]);
            let wide = BoxedUint::from_be_bytes(x);
            let mut outs = vec![
                m.reduce(&wide),
                m.mul(&base, &wide),
                m.pow(&base, &e),
                mp.inv_prime(&base),
            ];
            let (y1, y2) = mp.pow_pair(&base, &e, &mq, &wide, &e);
            outs.push(y1);
            outs.push(y2);
            for o in &mut outs {
                let v = o.to_be_bytes(256).expect("fits");
                public(&v);
            }
        });
        log.checked(
            "bigint 2048-bit reduce, mul, pow (secret exponent), pow_pair, inv_prime",
            b.name(),
        );
        let d = hex(RSA_D);
        let (pb, qb) = (hex(RSA_P), hex(RSA_Q));
        // The primes' top limbs stay public: their widths are (half the key size), and
        // the set-up reads them from the top limb.
        secret(&d);
        secret(&pb[8..]);
        secret(&qb[8..]);
        let key = unreported(|| {
            RsaPrivateKey::from_components_with_backend(&hex(RSA_N), &[1, 0, 1], &d, &pb, &qb, b)
        })
        .expect("key");
        // The input (a ciphertext, or the encoded message to sign) is public; its range
        // check is a branch on it.
        let mut x = bytes(256, 15);
        x[0] = 0; // below n
        let y = key.raw_private(&mut OsRng, &x).expect("private op");
        public(&y);
        log.checked(
            "RSA-2048 private operation (blinded CRT, fault check)",
            b.name(),
        );
    }
}

/// A 2048-bit RSA key made for this check (openssl genrsa 2048; e = 65537): modulus,
/// private exponent, primes.
const RSA_N: &str = "add8d41e001c722e0cba37461147e8987ea645c689e35cdd92944e0c9e9ebb05\
                     9196ec139aa480fcf26862c3e718910cb478bfb308169d269a875b71d623f2fa\
                     97c1016ee30bb940b27958a60e55dacee52253ca4a0bf278682b2f1afc0eddd5\
                     829543067a105ecbba4cda89257f3ecde6bf6e4d4c5bc6a5ef27c01bb4304d75\
                     7ae4a35eecc8b9cf4070b8c18d02542df8ca3aa951bdf79053134b74b3226b4f\
                     14ae87e813c403b494f5c1c91e6a373ee6591e5662f1ee21acd4a018a03a513e\
                     b5b158bf63b04a58e219d885ac63df97db8097139450be47c362d6746f5b33ad\
                     96e50f43a7d419b494227a234aa958ba4616b2908a8e5f413122414f70ebac3b";
const RSA_D: &str = "103d5303426b65d71b6541c88fd0b1cf9cf5174b8691f098da1a747805513a93\
                     38986a91223effb5a14753028dd1e3aad628f96f55f016da0651629f6dab8a05\
                     12abfae04ae14b7ad9b13030c2e20e408972fd74c619fb9a77d0a0e3da6be119\
                     12cbb2a92639e5410eb4232df08cc4672388fa5aca2940933b95f1022580e59b\
                     4e3fa20e0458c1cda9eab52f1c125fe38df8ef678b6cfbc1c2fbc6f2e088c25b\
                     087a3b19b4d368193559f39d509d1f8fd407779abe16ca2b79b969eaf3182da0\
                     8fec77ae681043a284376b385179ea94025e5481706deab2b2d41438317ebaeb\
                     61aa9c1a8debb262e9d03e0c80692ef805cb3a29a86a5330bad385a45b67c9c1";
const RSA_P: &str = "e69c26dbd5b597f6e6ef2bb7fcc533bd23a3bf1ce0bc2e388ba91eb28185d282\
                     7925e6bd05a51087329c0c617b711aa7bf690ca8317c962cff8cb155aef04583\
                     a0c39538d52310bda39e5c7e4f34078c161ac14bf53545e9fb29fccc498a8dc8\
                     5ecb3feb151704a55ab31573bde07f1d9cf0dddd198107a72ccb62277e1c51f1";
const RSA_Q: &str = "c0fcc937cdc7b06be3bc4c7b002939485c3262704e5c651ea0760db414db7397\
                     61db9c675b84b13fb9077509ca83596f719154137c3ee346e47102e6dcc085f8\
                     92158180b6956f03dffae17c8123a19aa8f2cdad525bfcd0a13777e0f242343b\
                     d695d8d4d9bb7afb7a8968ab43f41d386fce9a8a04ea6671b48b09fb293fb4eb";

fn main() {
    if std::env::args().any(|a| a == "leaky") {
        leaky();
        return;
    }
    let mut log = Log(Vec::new());
    aes_checks(&mut log);
    gcm_checks(&mut log);
    hash_checks(&mut log);
    kalyna_checks(&mut log);
    gost_checks(&mut log);
    des_checks(&mut log);
    kupyna_checks(&mut log);
    bigint_rsa_checks(&mut log);
    chunked_checks(&mut log);
    let entries: std::collections::BTreeSet<_> = log.0.iter().map(|(e, _)| e.as_str()).collect();
    println!(
        "{} (entry point group, backend) pairs checked, {} entry point groups",
        log.0.len(),
        entries.len()
    );
}
