//! How `shyfr speed` runs each algorithm of [`crate::algorithms::ALGORITHMS`].
//!
//! Each row names a [`Setup`] function of this file. It sets the key up once (untimed)
//! with a chosen backend and returns a [`Runner`]: a closure that processes a buffer in
//! place a given number of times. The buffer sizes a runner is given have passed the row's
//! [`SizeRule`](crate::algorithms::SizeRule), so the library calls in the runners cannot
//! fail on their length.

use std::hint::black_box;

use serde::Serialize;
use shyfr::aes::{Aes, Backend as AesBackend};
use shyfr::mode::BlockModes;
use shyfr::BlockCipher;

use crate::algorithms::Algorithm;
use crate::ciphers::KalynaVariant;

/// Processes the buffer in place `reps` times (the closure keeps the key).
pub type Runner = Box<dyn FnMut(&mut [u8], u64) + Send>;

/// What is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// Encryption.
    Encrypt,
    /// Decryption (for an AEAD: verify and decrypt).
    Decrypt,
    /// Hashing (one digest of the whole buffer per pass).
    Hash,
    /// A MAC over the whole buffer per pass.
    Mac,
    /// Key derivation (HKDF over the buffer as input key material; PBKDF2 filling the
    /// buffer with derived key).
    Derive,
    /// A signature (RSA rows; per operation, not per byte: see [`super::pk`]).
    Sign,
    /// A verification of a signature (RSA rows).
    Verify,
}

impl Operation {
    /// The name in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Encrypt => "encrypt",
            Operation::Decrypt => "decrypt",
            Operation::Hash => "hash",
            Operation::Mac => "mac",
            Operation::Derive => "derive",
            Operation::Sign => "sign",
            Operation::Verify => "verify",
        }
    }
}

/// A key set up with one backend, ready to be timed.
pub struct Prepared {
    /// The backend the key uses.
    pub backend: &'static str,
    /// Processes a buffer in place a number of times.
    pub run: Runner,
}

/// Sets up a key for `alg` with `backend` (the library's default choice for `None`).
pub type Setup =
    fn(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String>;

/// A fixed, non-trivial key of `len` bytes.
fn bench_key(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(37) ^ 0x5c)
        .collect()
}

/// Wraps a one-pass function into a [`Runner`]. Generic, so `f` is inlined into the loop
/// and the only per-pass cost beyond the library call is the loop itself.
fn repeat(mut f: impl FnMut(&mut [u8]) + Send + 'static) -> Runner {
    Box::new(move |buf: &mut [u8], reps: u64| {
        for _ in 0..reps {
            f(black_box(&mut *buf));
        }
        black_box(&*buf);
    })
}

/// [`Setup`] for AES in ECB mode (`encrypt_blocks` / `decrypt_blocks` over the buffer).
pub fn aes_ecb(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
    let backend = match backend {
        None => AesBackend::best(),
        Some(name) => AesBackend::from_name(name)
            .ok_or_else(|| format!("{}: no AES backend called '{name}'", alg.name))?,
    };
    let aes = Aes::with_backend(&bench_key(alg.key_len), backend)
        .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, backend.name()))?;
    let backend = aes.backend().name();
    let run = match op {
        Operation::Encrypt => repeat(move |buf| {
            aes.encrypt_blocks(buf)
                .expect("buffer sizes are checked to be whole blocks")
        }),
        Operation::Decrypt => repeat(move |buf| {
            aes.decrypt_blocks(buf)
                .expect("buffer sizes are checked to be whole blocks")
        }),
        other => return Err(format!("{} cannot {}", alg.name, other.name())),
    };
    Ok(Prepared { backend, run })
}

/// The AES backend named on the command line, or the library's choice.
fn aes_backend(alg: &Algorithm, backend: Option<&str>) -> Result<AesBackend, String> {
    match backend {
        None => Ok(AesBackend::best()),
        Some(name) => AesBackend::from_name(name)
            .ok_or_else(|| format!("{}: no AES backend called '{name}'", alg.name)),
    }
}

/// [`Setup`] for the AES block modes: CTR, CBC, CFB (128 and 8), OFB, XTS (16 bytes of
/// data-unit tweak, the whole buffer one unit), CMAC. Every pass restarts from the same
/// IV, so each pass is the whole-buffer one-shot call a user makes.
pub fn aes_mode(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
    use shyfr::mode::cbc::Cbc;
    use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
    use shyfr::mode::cmac::Cmac;
    use shyfr::mode::ctr::Ctr;
    use shyfr::mode::ofb::Ofb;
    use shyfr::mode::xts::Xts;
    let b = aes_backend(alg, backend)?;
    let key = bench_key(alg.key_len);
    let mk = |k: &[u8]| {
        Aes::with_backend(k, b)
            .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, b.name()))
    };
    const IV: [u8; 16] = [3; 16];
    let dec = op == Operation::Decrypt;
    let mode = alg.name.split('-').nth(2).unwrap_or("");
    let run = match mode {
        "ctr" => {
            let aes = mk(&key)?;
            repeat(move |buf| {
                Ctr::new(&aes, &IV)
                    .and_then(|mut c| c.apply_keystream(buf))
                    .expect("valid IV and length")
            })
        }
        "cbc" => {
            let cbc = Cbc::new(mk(&key)?);
            repeat(move |buf| {
                if dec {
                    cbc.decrypt(&IV, buf).expect("whole blocks")
                } else {
                    cbc.encrypt(&IV, buf).expect("whole blocks")
                }
            })
        }
        "cfb" | "cfb8" | "cfb1" => {
            let aes = mk(&key)?;
            let seg = match mode {
                "cfb8" => Segment::Byte,
                "cfb1" => Segment::Bit,
                _ => Segment::Block,
            };
            repeat(move |buf| {
                if dec {
                    let mut c = CfbDecryptor::with_segment(&aes, &IV, seg).expect("valid IV");
                    c.update(buf).expect("valid length");
                } else {
                    let mut c = CfbEncryptor::with_segment(&aes, &IV, seg).expect("valid IV");
                    c.update(buf).expect("valid length");
                }
            })
        }
        "ofb" => {
            let aes = mk(&key)?;
            repeat(move |buf| {
                Ofb::new(&aes, &IV)
                    .and_then(|mut c| c.apply_keystream(buf))
                    .expect("valid IV")
            })
        }
        "xts" => {
            let half = alg.key_len / 2;
            let xts = Xts::new(mk(&key[..half])?, mk(&key[half..])?)
                .map_err(|e| format!("{}: {e}", alg.name))?;
            repeat(move |buf| {
                if dec {
                    xts.decrypt(&IV, buf).expect("at least one block")
                } else {
                    xts.encrypt(&IV, buf).expect("at least one block")
                }
            })
        }
        "cmac" => {
            let aes = mk(&key)?;
            repeat(move |buf| {
                black_box(Cmac::mac(&aes, buf).expect("AES block"));
            })
        }
        other => return Err(format!("{}: no set-up for mode {other}", alg.name)),
    };
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// [`Setup`] for AES key wrap: KW (RFC 3394) wraps the whole buffer (a multiple of 8 bytes,
/// at least 16) per pass, KWP (RFC 5649) any non-empty buffer.
pub fn aes_kw(alg: &Algorithm, backend: Option<&str>, _op: Operation) -> Result<Prepared, String> {
    let b = aes_backend(alg, backend)?;
    let aes = Aes::with_backend(&bench_key(alg.key_len), b)
        .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, b.name()))?;
    let mut out = Vec::new();
    let run = if alg.name.ends_with("kwp") {
        let kwp = shyfr::mode::kw::Kwp::new(aes).map_err(|e| format!("{}: {e}", alg.name))?;
        repeat(move |buf| {
            out.resize(buf.len() + 16, 0);
            kwp.wrap(buf, &mut out).expect("any non-empty length");
            black_box(&out);
        })
    } else {
        let kw = shyfr::mode::kw::Kw::new(aes).map_err(|e| format!("{}: {e}", alg.name))?;
        repeat(move |buf| {
            out.resize(buf.len() + 8, 0);
            kw.wrap(buf, &mut out).expect("sizes checked");
            black_box(&out);
        })
    };
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// [`Setup`] for GMAC: the tag of the whole buffer as authenticated data.
pub fn aes_gmac(
    alg: &Algorithm,
    backend: Option<&str>,
    _op: Operation,
) -> Result<Prepared, String> {
    let b = aes_backend(alg, backend)?;
    let key_len = if alg.name.contains("256") { 32 } else { 16 };
    let gcm = shyfr::aead::gcm::AesGcm::with_backends(
        &bench_key(key_len),
        b,
        shyfr::aead::ghash::Backend::best(),
    )
    .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, b.name()))?;
    const NONCE: [u8; 12] = [5; 12];
    let run = repeat(move |buf| {
        black_box(gcm.gmac(&NONCE, buf).expect("within limits"));
    });
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// [`Setup`] for the HMAC rows over any hash, and the HMAC-based KDFs (HKDF, PBKDF2), on
/// the hash's default backend (an HMAC key cannot choose one; `--cpu` steers it).
pub fn hmac_any(
    alg: &Algorithm,
    backend: Option<&str>,
    _op: Operation,
) -> Result<Prepared, String> {
    use shyfr::hash::sha1::Sha1;
    use shyfr::hash::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};
    use shyfr::hash::sha3::{Sha3_224, Sha3_256, Sha3_384, Sha3_512};
    use shyfr::hash::Hash;
    use shyfr::mac::hmac::Hmac;
    fn run<H: Hash + Send + 'static>(key: &[u8]) -> Runner {
        hash_runner(Hmac::<H>::new(key), |m, d| m.update(d), |m| m.finalize())
    }
    let default = alg
        .backends()
        .into_iter()
        .find(|b| b.selected)
        .map(|b| b.backend)
        .unwrap_or("soft");
    if backend.is_some_and(|b| b != default) {
        return Err(unsteerable(alg));
    }
    let key = bench_key(alg.key_len);
    let run = match alg.name {
        "hmac-sha1" => run::<Sha1>(&key),
        "hmac-sha224" => run::<Sha224>(&key),
        "hmac-sha256" => run::<Sha256>(&key),
        "hmac-sha384" => run::<Sha384>(&key),
        "hmac-sha512" => run::<Sha512>(&key),
        "hmac-sha512-224" => run::<Sha512_224>(&key),
        "hmac-sha512-256" => run::<Sha512_256>(&key),
        "hmac-sha3-224" => run::<Sha3_224>(&key),
        "hmac-sha3-256" => run::<Sha3_256>(&key),
        "hmac-sha3-384" => run::<Sha3_384>(&key),
        "hmac-sha3-512" => run::<Sha3_512>(&key),
        "hmac-kupyna-256" => run::<shyfr::hash::kupyna::Kupyna256>(&key),
        // HKDF: extract over the buffer as input key material, then expand 32 bytes.
        "hkdf-sha256" => repeat(move |buf| {
            let mut okm = [0u8; 32];
            shyfr::kdf::hkdf::Hkdf::<Sha256>::derive(b"salt", buf, b"info", &mut okm)
                .expect("32 bytes");
            black_box(okm);
        }),
        // PBKDF2 with one iteration, deriving as many bytes as the buffer holds: the rate at
        // which the PRF produces key material (the cost of c iterations is c times this).
        "pbkdf2-sha256" => repeat(move |buf| {
            shyfr::kdf::pbkdf2::pbkdf2_hmac::<Sha256>(b"password", b"salt", 1, buf)
                .expect("non-empty");
        }),
        other => return Err(format!("no HMAC set-up for {other}")),
    };
    Ok(Prepared {
        backend: default,
        run,
    })
}

/// An AEAD runner: `seal` in place for encryption; for decryption, `open` from a
/// ciphertext sealed once per buffer size (buffer to buffer, so every pass verifies a
/// valid tag and decrypts).
fn aead_runner<T: Send + 'static>(
    op: Operation,
    seal: impl Fn(&mut [u8]) -> T + Send + 'static,
    seal_to: impl Fn(&[u8], &mut [u8]) -> T + Send + 'static,
    open_to: impl Fn(&[u8], &T, &mut [u8]) + Send + 'static,
) -> Runner {
    match op {
        Operation::Decrypt => {
            let mut sealed: Option<(Vec<u8>, T)> = None;
            Box::new(move |buf: &mut [u8], reps: u64| {
                if sealed.as_ref().is_none_or(|(ct, _)| ct.len() != buf.len()) {
                    let mut ct = vec![0u8; buf.len()];
                    let tag = seal_to(buf, &mut ct);
                    sealed = Some((ct, tag));
                }
                let (ct, tag) = sealed.as_ref().expect("sealed above");
                for _ in 0..reps {
                    open_to(black_box(ct), tag, black_box(&mut *buf));
                }
            })
        }
        _ => repeat(move |buf| {
            black_box(seal(buf));
        }),
    }
}

/// [`Setup`] for AES-GCM (96-bit nonce, 16-byte tag, no AAD); GHASH on its best backend.
pub fn aes_gcm(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
    let b = aes_backend(alg, backend)?;
    let gcm = shyfr::aead::gcm::AesGcm::with_backends(
        &bench_key(alg.key_len),
        b,
        shyfr::aead::ghash::Backend::best(),
    )
    .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, b.name()))?;
    let backend = gcm.aes_backend().name();
    let gcm = std::sync::Arc::new(gcm);
    let (g1, g2, g3) = (gcm.clone(), gcm.clone(), gcm);
    const NONCE: [u8; 12] = [7; 12];
    let run = aead_runner(
        op,
        move |buf| g1.seal_in_place(&NONCE, &[], buf).expect("within limits"),
        move |pt, ct| g2.seal_to(&NONCE, &[], pt, ct).expect("within limits"),
        move |ct, tag, pt| {
            g3.open_to(&NONCE, &[], ct, tag.as_ref(), pt)
                .expect("authentic")
        },
    );
    Ok(Prepared { backend, run })
}

/// The CCM nonce length for a message of `len` bytes: 13 bytes (the usual choice) while
/// the message fits the 2-byte length field that leaves, else the longest nonce whose
/// length field holds `len` (SP 800-38C: nonce of 15 - q bytes, messages below 2^(8q)).
fn ccm_nonce_len(len: usize) -> usize {
    let mut q = 2;
    while q < 8 && (len as u64) >> (8 * q) != 0 {
        q += 1;
    }
    15 - q
}

/// [`Setup`] for AES-CCM (16-byte tag, no AAD; a 13-byte nonce up to 65535 bytes, a
/// shorter one beyond, see [`ccm_nonce_len`]).
pub fn aes_ccm(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
    let b = aes_backend(alg, backend)?;
    let ccm = shyfr::aead::ccm::AesCcm::with_backend(&bench_key(alg.key_len), b)
        .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, b.name()))?;
    let ccm = std::sync::Arc::new(ccm);
    let (c1, c2, c3) = (ccm.clone(), ccm.clone(), ccm);
    const NONCE: [u8; 13] = [9; 13];
    let run = aead_runner(
        op,
        move |buf| {
            let n = &NONCE[..ccm_nonce_len(buf.len())];
            c1.seal_in_place(n, &[], buf).expect("within limits")
        },
        move |pt, ct| {
            let n = &NONCE[..ccm_nonce_len(pt.len())];
            c2.seal_to(n, &[], pt, ct).expect("within limits")
        },
        move |ct, tag, pt| {
            let n = &NONCE[..ccm_nonce_len(ct.len())];
            c3.open_to(n, &[], ct, tag.as_ref(), pt).expect("authentic")
        },
    );
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// The backend named on the command line (one of the family's, by [`from_name`]), or the
/// library's choice.
pub(super) fn pick_backend<B>(
    alg: &Algorithm,
    backend: Option<&str>,
    best: B,
    from_name: fn(&str) -> Option<B>,
) -> Result<B, String> {
    match backend {
        None => Ok(best),
        Some(n) => from_name(n).ok_or_else(|| format!("{}: no backend called '{n}'", alg.name)),
    }
}

/// An ECB runner: the block cipher's own multi-block calls over the buffer.
fn ecb_runner<C: BlockCipher + Send + 'static>(c: C, op: Operation) -> Runner {
    if op == Operation::Decrypt {
        repeat(move |buf| {
            c.decrypt_blocks(buf)
                .expect("buffer sizes are checked to be whole blocks")
        })
    } else {
        repeat(move |buf| {
            c.encrypt_blocks(buf)
                .expect("buffer sizes are checked to be whole blocks")
        })
    }
}

/// A CBC runner over the whole buffer from the same IV every pass.
fn cbc_runner<C: BlockModes + Sync + Send + 'static>(c: C, iv: Vec<u8>, op: Operation) -> Runner {
    let cbc = shyfr::mode::cbc::Cbc::new(c);
    let dec = op == Operation::Decrypt;
    repeat(move |buf| {
        if dec {
            cbc.decrypt(&iv, buf).expect("whole blocks")
        } else {
            cbc.encrypt(&iv, buf).expect("whole blocks")
        }
    })
}

/// [`Setup`] for every Kalyna (DSTU 7624:2014) row, `kalyna-BLOCK-KEY-MODE`: ECB, the
/// gamma (CTR), CBC, CFB with full-block segments, OFB, XTS (the whole buffer one unit),
/// CMAC and GMAC (tags of a whole block), GCM and CCM (tags of a whole block, no associated
/// data; CCM with an 8-byte length field). The IV is one block of 3s, the same every pass.
pub fn kalyna(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
    let (block, key, mode) = crate::ciphers::kalyna_name(alg.name)
        .ok_or_else(|| format!("{}: not a Kalyna variant", alg.name))?;
    crate::ciphers::for_kalyna!(
        block,
        key,
        kalyna_on(alg, backend, op, mode),
        Err(format!("{}: not a Kalyna variant", alg.name))
    )
}

fn kalyna_on<K: KalynaVariant>(
    alg: &Algorithm,
    backend: Option<&str>,
    op: Operation,
    mode: &str,
) -> Result<Prepared, String> {
    use shyfr::aead::dstu7624::ccm::Ccm;
    use shyfr::aead::dstu7624::gcm::{Gcm, Gmac};
    use shyfr::kalyna::Backend as B;
    use shyfr::mode::dstu7624::cfb::Cfb;
    use shyfr::mode::dstu7624::cmac::Cmac;
    use shyfr::mode::dstu7624::ctr::Ctr;
    use shyfr::mode::dstu7624::xts::Xts;
    use shyfr::mode::ofb::Ofb;
    let b = pick_backend(alg, backend, B::best(), B::from_name)?;
    let k = K::with_backend_slice(&bench_key(alg.key_len), b)
        .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, b.name()))?;
    let bl = K::BLOCK_LEN;
    let iv = vec![3u8; bl];
    let dec = op == Operation::Decrypt;
    let failed = |e: shyfr::Error| format!("{}: {e}", alg.name);
    let run = match mode {
        "ecb" => ecb_runner(k, op),
        "ctr" => repeat(move |buf| {
            Ctr::new(&k, &iv)
                .and_then(|mut c| c.apply_keystream(buf))
                .expect("valid IV")
        }),
        "cbc" => cbc_runner(k, iv, op),
        "cfb" => repeat(move |buf| {
            let mut c = Cfb::new(&k, &iv, bl).expect("valid IV and segment");
            if dec {
                c.decrypt(buf).expect("one call")
            } else {
                c.encrypt(buf).expect("one call")
            }
        }),
        "ofb" => repeat(move |buf| {
            Ofb::new(&k, &iv)
                .and_then(|mut c| c.apply_keystream(buf))
                .expect("valid IV")
        }),
        "xts" => {
            let xts = Xts::new(k).map_err(failed)?;
            repeat(move |buf| {
                if dec {
                    xts.decrypt(&iv, buf).expect("at least one block")
                } else {
                    xts.encrypt(&iv, buf).expect("at least one block")
                }
            })
        }
        "cmac" => repeat(move |buf| {
            black_box(Cmac::mac(&k, bl, buf).expect("tag of a block"));
        }),
        "gmac" => repeat(move |buf| {
            black_box(Gmac::new(&k, bl).expect("tag of a block").mac(buf));
        }),
        "gcm" => {
            let gcm = std::sync::Arc::new(Gcm::new(k, bl).map_err(failed)?);
            let (g1, g2, g3) = (gcm.clone(), gcm.clone(), gcm);
            let (iv1, iv2, iv3) = (iv.clone(), iv.clone(), iv);
            aead_runner(
                op,
                move |buf| g1.seal_in_place(&iv1, &[], buf).expect("valid IV"),
                move |pt, ct| g2.seal_to(&iv2, &[], pt, ct).expect("valid IV"),
                move |ct, tag, pt| {
                    g3.open_to(&iv3, &[], ct, pt, tag.as_bytes())
                        .expect("authentic")
                },
            )
        }
        "ccm" => {
            let ccm = std::sync::Arc::new(Ccm::new(k, bl, 8).map_err(failed)?);
            let (c1, c2, c3) = (ccm.clone(), ccm.clone(), ccm);
            let (iv1, iv2, iv3) = (iv.clone(), iv.clone(), iv);
            aead_runner(
                op,
                move |buf| c1.seal_in_place(&iv1, &[], buf).expect("within limits"),
                move |pt, ct| c2.seal_to(&iv2, &[], pt, ct).expect("within limits"),
                move |ct, tag, pt| {
                    c3.open_to(&iv3, &[], ct, pt, tag.as_bytes())
                        .expect("authentic")
                },
            )
        }
        other => return Err(format!("{}: no set-up for mode {other}", alg.name)),
    };
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// [`Setup`] for the GOST 28147-89 rows (S-box DKE No. 1): simple replacement (ECB),
/// gamma (CTR), gamma with feedback (CFB) and the MAC, from the same IV every pass.
pub fn gost28147(
    alg: &Algorithm,
    backend: Option<&str>,
    op: Operation,
) -> Result<Prepared, String> {
    use shyfr::gost28147::{Backend as B, Gost28147, Sbox};
    use shyfr::mode::gost28147::{Gamma, GammaFeedbackDecryptor, GammaFeedbackEncryptor, Mac};
    let b = pick_backend(alg, backend, B::best(), B::from_name)?;
    let c = Gost28147::with_backend(&bench_key(alg.key_len), &Sbox::DKE1, b)
        .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, b.name()))?;
    const IV: [u8; 8] = [3; 8];
    let dec = op == Operation::Decrypt;
    let run = match alg.name.strip_prefix("gost28147-").unwrap_or("") {
        "ecb" => ecb_runner(c, op),
        "ctr" => repeat(move |buf| Gamma::new(&c, &IV).expect("valid IV").apply_keystream(buf)),
        "cfb" => repeat(move |buf| {
            if dec {
                GammaFeedbackDecryptor::new(&c, &IV)
                    .expect("valid IV")
                    .update(buf)
            } else {
                GammaFeedbackEncryptor::new(&c, &IV)
                    .expect("valid IV")
                    .update(buf)
            }
        }),
        "mac" => repeat(move |buf| {
            black_box(Mac::mac(&c, buf));
        }),
        other => return Err(format!("{}: no set-up for mode {other}", alg.name)),
    };
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// The HMAC-GOST34.311 states keyed with `key` (RFC 2104 with the 32-byte block): the
/// inner and outer hashes after absorbing the padded key, on `backend` with DKE No. 1.
/// (The library's `Hmac<Gost34311>` uses the default backend; this lets `speed` steer it,
/// and the tests check that both give the same tags.)
fn gost34311_hmac_states(
    key: &[u8],
    backend: shyfr::gost28147::Backend,
) -> Result<
    (
        shyfr::hash::gost34311::Gost34311,
        shyfr::hash::gost34311::Gost34311,
    ),
    shyfr::Error,
> {
    use shyfr::gost28147::Sbox;
    use shyfr::hash::gost34311::{Gost34311, BLOCK_LEN};
    let fresh = || Gost34311::with_backend(&Sbox::DKE1, &[0; 32], backend);
    let mut k0 = [0u8; BLOCK_LEN];
    if key.len() > BLOCK_LEN {
        k0 = fresh()?.chain(key).finalize();
    } else {
        k0[..key.len()].copy_from_slice(key);
    }
    let ipad = k0.map(|b| b ^ 0x36);
    let opad = k0.map(|b| b ^ 0x5c);
    k0.fill(0);
    Ok((fresh()?.chain(&ipad), fresh()?.chain(&opad)))
}

/// The HMAC tag of `data` from the states of [`gost34311_hmac_states`].
fn gost34311_hmac(
    inner: &shyfr::hash::gost34311::Gost34311,
    outer: &shyfr::hash::gost34311::Gost34311,
    data: &[u8],
) -> [u8; 32] {
    let d = inner.clone().chain(data).finalize();
    outer.clone().chain(&d).finalize()
}

/// [`Setup`] for `gost34311` (DKE No. 1, zero starting value) and `hmac-gost34311`, on the
/// GOST 28147-89 backend named on the command line.
pub fn gost34311(
    alg: &Algorithm,
    backend: Option<&str>,
    _op: Operation,
) -> Result<Prepared, String> {
    use shyfr::gost28147::{Backend as B, Sbox};
    use shyfr::hash::gost34311::Gost34311;
    let b = pick_backend(alg, backend, B::best(), B::from_name)?;
    let unusable = |e: shyfr::Error| format!("{}: cannot use backend {}: {e}", alg.name, b.name());
    let run = match alg.name {
        "gost34311" => plain(Gost34311::with_backend(&Sbox::DKE1, &[0; 32], b), alg.name)?,
        "hmac-gost34311" => {
            let (inner, outer) =
                gost34311_hmac_states(&bench_key(alg.key_len), b).map_err(unusable)?;
            repeat(move |buf| {
                black_box(gost34311_hmac(&inner, &outer, buf));
            })
        }
        other => return Err(format!("no GOST 34.311 set-up for {other}")),
    };
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// [`Setup`] for DES and triple DES (three keys): `des-ecb`, `des-ede3-ecb`,
/// `des-ede3-cbc` (the same 8-byte IV every pass).
pub fn des(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
    use shyfr::des::{Backend as B, Des, Tdes};
    let b = pick_backend(alg, backend, B::best(), B::from_name)?;
    let key = bench_key(alg.key_len);
    let unusable = |e: shyfr::Error| format!("{}: cannot use backend {}: {e}", alg.name, b.name());
    let run = match alg.name {
        "des-ecb" => ecb_runner(Des::with_backend(&key, b).map_err(unusable)?, op),
        "des-ede3-ecb" => ecb_runner(Tdes::with_backend(&key, b).map_err(unusable)?, op),
        "des-ede3-cbc" => cbc_runner(
            Tdes::with_backend(&key, b).map_err(unusable)?,
            vec![3; 8],
            op,
        ),
        other => return Err(format!("no DES set-up for {other}")),
    };
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// A runner that hashes the whole buffer per pass, starting from a clone of `h` (a fresh
/// state, or a keyed HMAC state).
fn hash_runner<H: Clone + Send + 'static, O: 'static>(
    h: H,
    update: fn(&mut H, &[u8]),
    finish: fn(H) -> O,
) -> Runner {
    repeat(move |buf| {
        let mut h = h.clone();
        update(&mut h, buf);
        black_box(finish(h));
    })
}

/// The message for `--backend` on an HMAC row naming a backend other than the default.
fn unsteerable(alg: &Algorithm) -> String {
    format!(
        "{}: HMAC uses the hash's default backend; choose it with --cpu (e.g. --cpu -sha)",
        alg.name
    )
}

/// A runner for a fixed-output hash state (or the error that prevented setting it up).
fn plain<H: shyfr::hash::Hash + Send + 'static>(
    h: Result<H, shyfr::Error>,
    name: &str,
) -> Result<Runner, String> {
    let h = h.map_err(|e| format!("{name}: {e}"))?;
    Ok(hash_runner(h, |h, d| h.update(d), |h| h.finalize()))
}

/// [`Setup`] for SHA-1 and SHA-2: one digest of the whole buffer per pass, on the backend
/// of the compression function named on the command line.
pub fn sha_hash(
    alg: &Algorithm,
    backend: Option<&str>,
    _op: Operation,
) -> Result<Prepared, String> {
    use shyfr::hash::sha1::{Backend as B1, Sha1};
    use shyfr::hash::sha2::{
        Sha224, Sha256, Sha256Backend as B256, Sha384, Sha512, Sha512Backend as B512, Sha512_224,
        Sha512_256,
    };
    let (run, backend) = match alg.name {
        "sha1" => {
            let b = pick_backend(alg, backend, B1::best(), B1::from_name)?;
            (plain(Sha1::with_backend(b), alg.name)?, b.name())
        }
        "sha224" | "sha256" => {
            let b = pick_backend(alg, backend, B256::best(), B256::from_name)?;
            let run = if alg.name == "sha224" {
                plain(Sha224::with_backend(b), alg.name)?
            } else {
                plain(Sha256::with_backend(b), alg.name)?
            };
            (run, b.name())
        }
        "sha384" | "sha512" | "sha512-224" | "sha512-256" => {
            let b = pick_backend(alg, backend, B512::best(), B512::from_name)?;
            let run = match alg.name {
                "sha384" => plain(Sha384::with_backend(b), alg.name)?,
                "sha512" => plain(Sha512::with_backend(b), alg.name)?,
                "sha512-224" => plain(Sha512_224::with_backend(b), alg.name)?,
                _ => plain(Sha512_256::with_backend(b), alg.name)?,
            };
            (run, b.name())
        }
        other => return Err(format!("no SHA set-up for {other}")),
    };
    Ok(Prepared { backend, run })
}

/// A runner for an extendable-output function: absorb the buffer, read `n` bytes (at most 64).
fn xof_runner<X: shyfr::hash::Xof + Send + 'static>(x: X, n: usize) -> Runner {
    use shyfr::hash::XofReader;
    repeat(move |buf| {
        let mut x = x.clone();
        x.update(buf);
        let mut out = [0u8; 64];
        x.finalize_xof().read(&mut out[..n]);
        black_box(out);
    })
}

/// [`Setup`] for the Keccak-based rows: one digest (or 32/64-byte output, or tag) of the
/// whole buffer per pass.
pub fn keccak_hash(
    alg: &Algorithm,
    backend: Option<&str>,
    _op: Operation,
) -> Result<Prepared, String> {
    use shyfr::hash::sha3::{
        Backend, CShake128, CShake256, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256,
    };
    use shyfr::mac::kmac::{Kmac128, Kmac256};
    let b = pick_backend(alg, backend, Backend::best(), Backend::from_name)?;
    let unusable = |e: shyfr::Error| format!("{}: cannot use backend {}: {e}", alg.name, b.name());
    let key = bench_key(alg.key_len);
    let run = match alg.name {
        "sha3-224" => plain(Sha3_224::with_backend(b), alg.name)?,
        "sha3-256" => plain(Sha3_256::with_backend(b), alg.name)?,
        "sha3-384" => plain(Sha3_384::with_backend(b), alg.name)?,
        "sha3-512" => plain(Sha3_512::with_backend(b), alg.name)?,
        "shake128" => xof_runner(Shake128::with_backend(b).map_err(unusable)?, 32),
        "shake256" => xof_runner(Shake256::with_backend(b).map_err(unusable)?, 64),
        "cshake128" => xof_runner(
            CShake128::with_backend(b"", b"shyfr speed", b).map_err(unusable)?,
            32,
        ),
        "cshake256" => xof_runner(
            CShake256::with_backend(b"", b"shyfr speed", b).map_err(unusable)?,
            64,
        ),
        "kmac128" => {
            let k = Kmac128::with_backend(&key, b"", b).map_err(unusable)?;
            repeat(move |buf| {
                let mut k = k.clone();
                k.update(buf);
                let mut tag = [0u8; 32];
                k.finalize_into(&mut tag).expect("valid length");
                black_box(tag);
            })
        }
        "kmac256" => {
            let k = Kmac256::with_backend(&key, b"", b).map_err(unusable)?;
            repeat(move |buf| {
                let mut k = k.clone();
                k.update(buf);
                let mut tag = [0u8; 64];
                k.finalize_into(&mut tag).expect("valid length");
                black_box(tag);
            })
        }
        other => return Err(format!("no Keccak set-up for {other}")),
    };
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// [`Setup`] for Kupyna (DSTU 7564) and its keyed MAC: one digest or tag of the whole
/// buffer per pass, on the Kupyna backend named on the command line.
pub fn kupyna(alg: &Algorithm, backend: Option<&str>, _op: Operation) -> Result<Prepared, String> {
    use shyfr::hash::kupyna::{Backend, Kupyna256, Kupyna384, Kupyna512};
    use shyfr::mac::kupyna_kmac::KupynaKmac;
    let b = pick_backend(alg, backend, Backend::best(), Backend::from_name)?;
    let run = match alg.name {
        "kupyna-256" => plain(Kupyna256::with_backend(b), alg.name)?,
        "kupyna-384" => plain(Kupyna384::with_backend(b), alg.name)?,
        "kupyna-512" => plain(Kupyna512::with_backend(b), alg.name)?,
        "kupyna-kmac-256" | "kupyna-kmac-384" | "kupyna-kmac-512" => {
            let k = KupynaKmac::with_backend(&bench_key(alg.key_len), b)
                .map_err(|e| format!("{}: cannot use backend {}: {e}", alg.name, b.name()))?;
            hash_runner(k, |k, d| k.update(d), |k| k.finalize())
        }
        other => return Err(format!("no Kupyna set-up for {other}")),
    };
    Ok(Prepared {
        backend: b.name(),
        run,
    })
}

/// [`Setup`] for the RSA rows: makes a key of the row's size (random, from the operating
/// system) and signs or verifies a fixed digest per pass; the buffer is not used. `shyfr
/// speed` itself makes one key per row for both operations ([`super::pk`]).
pub fn rsa(alg: &Algorithm, backend: Option<&str>, op: Operation) -> Result<Prepared, String> {
    use shyfr::arith::bigint::Backend;
    let b = pick_backend(alg, backend, Backend::best(), Backend::from_name)?;
    let key = super::pk::generate(alg, b)?;
    Ok(Prepared {
        backend: key.backend().name(),
        run: super::pk::runner(&key, op)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::ALGORITHMS;

    #[test]
    fn every_backend_runs_and_agrees() {
        // Every available backend of every row runs; ciphers give the same output on all of
        // them (hash rows leave the buffer as it is). HMAC rows follow the hash's default
        // backend and refuse another one with a message. The RSA rows (a key per set-up)
        // are tested in `pk`.
        for a in ALGORITHMS.iter().filter(|a| a.rsa_bits.is_none()) {
            let op = a.operations[0];
            let mut outs = Vec::new();
            for b in a.backends().iter().filter(|b| b.available) {
                let prepared = a.prepare(Some(b.backend), op);
                // HMAC-GOST34.311 is set up on each backend (gost34311_hmac_states).
                let follows_hash = (a.name.starts_with("hmac-") && a.family != "gost34311")
                    || op == Operation::Derive;
                if follows_hash && !b.selected {
                    assert!(prepared.is_err(), "{} on {}", a.name, b.backend);
                    continue;
                }
                let mut p = prepared.unwrap_or_else(|e| panic!("{} on {}: {e}", a.name, b.backend));
                assert_eq!(p.backend, b.backend);
                let mut buf: Vec<u8> = (0..512).map(|i| i as u8).collect();
                (p.run)(&mut buf, 3);
                outs.push(buf);
            }
            assert!(!outs.is_empty(), "{}", a.name);
            assert!(outs.windows(2).all(|w| w[0] == w[1]), "{}", a.name);
        }
    }

    #[test]
    fn every_row_runs_at_the_edges_of_its_sizes() {
        // The smallest accepted size, the next one, and (for rows with a limit) the largest:
        // every operation runs without failing, so the runners' length checks cannot fire.
        let mut ran = 0;
        for a in ALGORITHMS.iter().filter(|a| a.rsa_bits.is_none()) {
            let r = a.sizes;
            let mut sizes = vec![
                r.min,
                r.min + r.multiple,
                65536,
                65537 / r.multiple * r.multiple,
            ];
            if r.max != usize::MAX {
                sizes.push(r.max);
            }
            for &op in a.operations {
                let mut p = a.prepare(None, op).unwrap();
                for &n in &sizes {
                    assert!(r.check(n, a.name).is_ok(), "{} {n}", a.name);
                    let mut buf = vec![1u8; n];
                    (p.run)(&mut buf, 1);
                    ran += 1;
                }
            }
        }
        assert!(ran > 4 * (ALGORITHMS.len() - 11), "{ran}");
    }

    #[test]
    fn gost34311_hmac_equals_the_library() {
        use shyfr::hash::gost34311::Gost34311;
        use shyfr::mac::hmac::Hmac;
        let mut ran = 0;
        for b in shyfr::gost28147::Backend::ALL {
            if !b.is_available() {
                continue;
            }
            for key_len in [0, 1, 31, 32, 33, 100] {
                let key: Vec<u8> = (0..key_len).map(|i| i as u8 ^ 0xa5).collect();
                let (inner, outer) = gost34311_hmac_states(&key, *b).unwrap();
                for len in [0, 1, 32, 33, 1000] {
                    let data = vec![len as u8; len];
                    assert_eq!(
                        gost34311_hmac(&inner, &outer, &data),
                        Hmac::<Gost34311>::mac(&key, &data),
                        "{} key {key_len} data {len}",
                        b.name()
                    );
                    ran += 1;
                }
            }
        }
        assert!(ran >= 30, "{ran}");
    }

    #[test]
    fn rsa_rows_set_up_sign_and_verify() {
        let a = crate::algorithms::find("rsa512").unwrap();
        for op in [Operation::Sign, Operation::Verify] {
            let mut p = a.prepare(Some("soft"), op).unwrap();
            assert_eq!(p.backend, "soft");
            (p.run)(&mut [0u8; 4], 2);
        }
        assert!(a.prepare(None, Operation::Encrypt).is_err());
        assert!(a.prepare(Some("nope"), Operation::Sign).is_err());
    }

    #[test]
    fn ccm_nonce_fits_the_length() {
        assert_eq!(ccm_nonce_len(0), 13);
        assert_eq!(ccm_nonce_len(65535), 13);
        assert_eq!(ccm_nonce_len(65536), 12);
        assert_eq!(ccm_nonce_len(1 << 30), 11);
    }
}
