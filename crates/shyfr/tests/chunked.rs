//! Chunked encryption (c2sp.org/chunked-encryption, Cobblestone): both Wycheproof files in
//! full under every AES and GHASH backend pair (one-shot, streaming, random access, raw
//! mode, re-encryption with the vector's salt), then round trips, the parallel batch path
//! against the sequential one, and bad input.
//!
//! shyfr's Kalyna-GCM instantiations have no published vectors: every chunk they seal, on
//! every Kalyna backend, is recomputed here from the construction (HKDF-Expand-SHA-512 with
//! the info string, the base nonce XOR the chunk index, a one-shot DSTU 7624 GCM seal on
//! the portable Kalyna with the chunk nonce as the associated data; that GCM is checked
//! against the standard's examples in `kalyna_modes.rs`), and the detection tests (bit
//! flips, cuts, reordering, splicing) run over every suite.

mod common;

use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};

use common::{aes_backends, note_exercised, testdata};
use proptest::prelude::*;
use shyfr::aead::chunked::{
    opened_chunks_len, opened_len, sealed_chunks_len, sealed_len, Cobblestone, Decryptor,
    Encryptor, SeekingDecryptor, Suite, CHUNK_LEN, ENCRYPTED_CHUNK_LEN, HEADER_LEN, MAX_CHUNKS,
    SALT_LEN, TAG_LEN,
};
use shyfr::aead::dstu7624::gcm::Gcm;
use shyfr::aead::gcm::AesGcm;
use shyfr::aead::ghash;
use shyfr::aes;
use shyfr::hash::sha2::Sha512;
use shyfr::kalyna::{
    self, Kalyna128_128, Kalyna128_256, Kalyna256_256, Kalyna256_512, Kalyna512_512,
};
use shyfr::kdf::hkdf::Hkdf;
use shyfr::Error;

/// One Wycheproof chunked-encryption test, decoded.
struct Vector {
    id: u64,
    comment: String,
    valid: bool,
    flags: Vec<String>,
    key: Vec<u8>,
    ctx: Vec<u8>,
    ct: Vec<u8>,
    #[cfg_attr(not(feature = "hazmat"), allow(dead_code))]
    aead_key: Option<Vec<u8>>,
    #[cfg_attr(not(feature = "hazmat"), allow(dead_code))]
    base_nonce: Option<Vec<u8>>,
    msg_len: Option<usize>,
    msg_sha512: Option<Vec<u8>>,
}

impl Vector {
    fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }

    fn name(&self, file: &str) -> String {
        format!("{file} tcId {} ({})", self.id, self.comment)
    }
}

fn hexf(t: &serde_json::Value, k: &str) -> Option<Vec<u8>> {
    t[k].as_str()
        .map(|s| hex::decode(s).unwrap_or_else(|e| panic!("bad hex in {k}: {e}")))
}

/// The tests of `testdata/c2sp/FILE`, with `ct` inflated; checks the declared count.
fn vectors(file: &str) -> (Suite, Vec<Vector>) {
    let path = testdata(&format!("c2sp/{file}"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    let mut suite = None;
    for g in v["testGroups"].as_array().unwrap() {
        assert_eq!(g["type"], "ChunkedEncryption");
        assert_eq!(g["sha"], "SHA-512");
        let s = match g["aead"].as_str().unwrap() {
            "AEAD_AES_128_GCM" => Suite::Cobblestone128,
            "AEAD_AES_256_GCM" => Suite::Cobblestone256,
            other => panic!("unknown aead {other}"),
        };
        assert_eq!(s.aead_name(), g["aead"].as_str().unwrap());
        suite = Some(s);
        for t in g["tests"].as_array().unwrap() {
            let z = hexf(t, "ct").unwrap();
            let mut ct = Vec::new();
            flate2::read::ZlibDecoder::new(&z[..])
                .read_to_end(&mut ct)
                .expect("zlib");
            out.push(Vector {
                id: t["tcId"].as_u64().unwrap(),
                comment: t["comment"].as_str().unwrap().to_string(),
                valid: match t["result"].as_str().unwrap() {
                    "valid" => true,
                    "invalid" => false,
                    r => panic!("unexpected result {r}"),
                },
                flags: t["flags"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f.as_str().unwrap().to_string())
                    .collect(),
                key: hexf(t, "key").unwrap(),
                ctx: hexf(t, "ctx").unwrap(),
                ct,
                aead_key: hexf(t, "aeadKey"),
                base_nonce: hexf(t, "baseNonce"),
                msg_len: t["msgLength"].as_u64().map(|n| n as usize),
                msg_sha512: hexf(t, "msgSha512"),
            });
        }
    }
    assert_eq!(out.len() as u64, v["numberOfTests"].as_u64().unwrap());
    (suite.expect("one group"), out)
}

/// Every (AES, GHASH) backend pair this CPU runs, generic and (where the pair has one)
/// fused: `(aes, ghash, fused)`.
fn pairs() -> Vec<(aes::Backend, ghash::Backend, bool)> {
    let gs: Vec<_> = ghash::Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    let mut v = Vec::new();
    for a in aes_backends() {
        for &g in &gs {
            v.push((a, g, false));
            if AesGcm::with_backends(&[0; 16], a, g).unwrap().engine() != "generic" {
                v.push((a, g, true));
            }
        }
    }
    v
}

fn key_on(
    suite: Suite,
    key: &[u8],
    p: (aes::Backend, ghash::Backend, bool),
) -> Result<Cobblestone, Error> {
    if p.2 {
        Cobblestone::with_backends(suite, key, p.0, p.1)
    } else {
        Cobblestone::with_backends_generic(suite, key, p.0, p.1)
    }
}

fn engine_name(p: (aes::Backend, ghash::Backend, bool)) -> String {
    let e = AesGcm::with_backends(&[0; 16], p.0, p.1).unwrap().engine();
    if p.2 {
        e.to_string()
    } else {
        format!("generic:{}+{}", p.0.name(), p.1.name())
    }
}

/// Reads `r` until it fails or ends, `step` bytes at a time: what it released, and the
/// error (if any).
fn drain<R: Read>(r: &mut R, step: usize) -> (Vec<u8>, Option<io::Error>) {
    let mut out = Vec::new();
    let mut buf = vec![0u8; step];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Some(e)),
        }
    }
}

fn lib_err(e: &io::Error) -> Option<Error> {
    e.get_ref().and_then(|i| i.downcast_ref::<Error>()).copied()
}

/// The checks of one vector under one key (made on one backend pair). Returns the number
/// of interfaces checked.
fn check_vector(file: &str, suite: Suite, v: &Vector, key: &Cobblestone) -> usize {
    let name = v.name(file);
    let mut checks = 0;
    let open = key.open(&v.ctx, &v.ct);
    if v.valid {
        let msg = open.unwrap_or_else(|e| panic!("{name}: one-shot open: {e}"));
        assert_eq!(msg.len(), v.msg_len.unwrap(), "{name}: length");
        assert_eq!(
            Sha512::digest(&msg)[..],
            v.msg_sha512.as_deref().unwrap()[..],
            "{name}: sha512"
        );
        // Re-encryption with the vector's salt gives the vector's ciphertext.
        let salt: [u8; SALT_LEN] = v.ct[..SALT_LEN].try_into().unwrap();
        assert_eq!(
            key.seal_with_salt(&salt, &v.ctx, &msg).unwrap(),
            v.ct,
            "{name}: re-encrypt"
        );
        // Streaming, with small and whole-batch reads, and batches of 1 and 3 chunks.
        for (batch, step) in [
            (1usize, 1000usize),
            (3, 3 * CHUNK_LEN),
            (64, 64 * CHUNK_LEN + 5),
            (64, 7),
        ] {
            let mut d = Decryptor::new(key, &v.ctx, &v.ct[..])
                .unwrap()
                .with_batch_chunks(batch);
            let (got, err) = drain(&mut d, step);
            assert!(
                err.is_none(),
                "{name}: streaming ({batch}, {step}): {err:?}"
            );
            assert!(got == msg, "{name}: streaming ({batch}, {step}) output");
            assert!(d.is_complete());
            assert_eq!(
                d.read(&mut [0u8; 10]).unwrap(),
                0,
                "{name}: stays at the end"
            );
        }
        // Random access: length, whole message, ranges, seeks from the end.
        let mut s = SeekingDecryptor::new(key, &v.ctx, Cursor::new(&v.ct)).unwrap();
        assert_eq!(s.len().unwrap(), msg.len() as u64, "{name}: seek len");
        let mut all = Vec::new();
        s.read_to_end(&mut all).unwrap();
        assert!(all == msg, "{name}: seek read all");
        for &(from, n) in &[
            (0usize, 1usize),
            (1, 5),
            (CHUNK_LEN - 3, 10),
            (CHUNK_LEN, 1),
            (msg.len() / 2, 40000),
        ] {
            if from > msg.len() {
                continue;
            }
            s.seek(SeekFrom::Start(from as u64)).unwrap();
            let mut buf = vec![0u8; n];
            let mut got = 0;
            while got < n {
                let k = s.read(&mut buf[got..]).unwrap();
                if k == 0 {
                    break;
                }
                got += k;
            }
            let want = &msg[from..msg.len().min(from + n)];
            assert_eq!(&buf[..got], want, "{name}: range {from}+{n}");
        }
        let back = 3.min(msg.len());
        assert_eq!(
            s.seek(SeekFrom::End(-(back as i64))).unwrap(),
            (msg.len() - back) as u64
        );
        let mut tail = Vec::new();
        s.read_to_end(&mut tail).unwrap();
        assert_eq!(tail, msg[msg.len() - back..], "{name}: tail");
        assert!(s.seek(SeekFrom::End(-(msg.len() as i64) - 1)).is_err());
        checks += 4;
    } else {
        let err = open.expect_err(&name);
        if v.has("HeaderFailure") {
            assert!(
                matches!(err, Error::CommitmentMismatch | Error::Truncated),
                "{name}: {err:?}"
            );
            assert!(Decryptor::new(key, &v.ctx, &v.ct[..]).is_err(), "{name}");
            assert!(
                SeekingDecryptor::new(key, &v.ctx, Cursor::new(&v.ct)).is_err(),
                "{name}"
            );
            return 3;
        }
        assert!(
            matches!(
                err,
                Error::Truncated | Error::ChunkAuthenticationFailed { .. }
            ),
            "{name}: {err:?}"
        );
        // Streaming: at most the authentic prefix, then an error, and errors from then on.
        let prefix = if v.has("PartialPlaintext") {
            v.msg_len.unwrap()
        } else {
            0
        };
        for (batch, step) in [
            (1usize, 1000usize),
            (3, 3 * CHUNK_LEN),
            (64, 64 * CHUNK_LEN),
            (64, 7),
        ] {
            let mut d = Decryptor::new(key, &v.ctx, &v.ct[..])
                .unwrap()
                .with_batch_chunks(batch);
            let (got, err) = drain(&mut d, step);
            let err =
                err.unwrap_or_else(|| panic!("{name}: streaming ({batch}, {step}) ended cleanly"));
            assert!(lib_err(&err).is_some(), "{name}: {err}");
            assert!(
                got.len() <= prefix,
                "{name}: released {} > {prefix}",
                got.len()
            );
            // This decryptor releases every authentic whole chunk: exactly the prefix.
            assert_eq!(got.len(), prefix, "{name}: released");
            if let Some(h) = &v.msg_sha512 {
                assert_eq!(Sha512::digest(&got)[..], h[..], "{name}: prefix sha512");
            }
            for _ in 0..3 {
                assert!(d.read(&mut [0u8; 100]).is_err(), "{name}: keeps failing");
            }
            assert!(!d.is_complete());
        }
        // Random access: reading everything fails; authenticating the length fails unless
        // the final chunk itself is valid.
        let mut s = SeekingDecryptor::new(key, &v.ctx, Cursor::new(&v.ct)).unwrap();
        assert!(
            s.read_to_end(&mut Vec::new()).is_err(),
            "{name}: seek read all"
        );
        let mut s = SeekingDecryptor::new(key, &v.ctx, Cursor::new(&v.ct)).unwrap();
        assert_eq!(
            s.len().is_ok(),
            v.has("ValidFinalChunk"),
            "{name}: seek len"
        );
        assert_eq!(
            s.seek(SeekFrom::End(0)).is_ok(),
            v.has("ValidFinalChunk"),
            "{name}: seek end"
        );
        checks += 3;
    }
    let _ = suite;
    checks
}

/// Raw mode: the ciphertext without its header, under `aeadKey` and `baseNonce`.
#[cfg(feature = "hazmat")]
fn check_raw(file: &str, suite: Suite, v: &Vector) {
    use shyfr::aead::chunked::MessageKey;
    let name = v.name(file);
    let (Some(k), Some(n)) = (&v.aead_key, &v.base_nonce) else {
        assert!(v.has("HeaderFailure"), "{name}: no raw key");
        return;
    };
    let mk = MessageKey::from_raw(suite, k, n).unwrap();
    let body = &v.ct[HEADER_LEN..];
    let mut out = vec![0u8; opened_chunks_len(body.len(), true).unwrap_or(0)];
    let r = if opened_chunks_len(body.len(), true).is_some() {
        mk.open_chunks(0, body, true, &mut out)
    } else {
        Err(Error::Truncated)
    };
    if v.valid {
        r.unwrap_or_else(|e| panic!("{name}: raw: {e}"));
        assert_eq!(
            Sha512::digest(&out)[..],
            v.msg_sha512.as_deref().unwrap()[..],
            "{name}: raw"
        );
        let mut again = vec![0u8; body.len()];
        mk.seal_chunks(0, &out, true, &mut again).unwrap();
        assert_eq!(again, body, "{name}: raw re-encryption");
    } else {
        assert!(r.is_err(), "{name}: raw accepted");
        if let Err(Error::ChunkAuthenticationFailed { chunk }) = r {
            let good = chunk as usize * CHUNK_LEN;
            assert!(
                out[good..].iter().all(|&b| b == 0),
                "{name}: raw released a bad chunk"
            );
            if v.has("PartialPlaintext") {
                assert_eq!(good, v.msg_len.unwrap(), "{name}: raw prefix");
            }
        }
    }
}

fn run_file(file: &str) {
    let (suite, vs) = vectors(file);
    assert_eq!(vs.len(), 35);
    assert_eq!(vs.iter().filter(|v| v.valid).count(), 10);
    let pairs = pairs();
    for &p in &pairs {
        let mut ran = 0;
        let mut rejected_keys = 0;
        for v in &vs {
            let key = match key_on(suite, &v.key, p) {
                Ok(k) => k,
                Err(e) => {
                    assert!(v.has("InvalidKeySize"), "{}: {e}", v.name(file));
                    assert_eq!(e, Error::InvalidKeyLength { got: v.key.len() });
                    rejected_keys += 1;
                    continue;
                }
            };
            assert!(!v.has("InvalidKeySize"), "{}: key accepted", v.name(file));
            check_vector(file, suite, v, &key);
            ran += 1;
        }
        assert_eq!((ran, rejected_keys), (33, 2), "{file}");
        // Cobblestone runs on the AES-GCM engines: note the one this pair used.
        let engine = engine_name(p);
        note_exercised("aes-gcm", engine.split(':').next().unwrap_or("generic"));
    }
    #[cfg(feature = "hazmat")]
    for v in &vs {
        check_raw(file, suite, v);
    }
    eprintln!("{file}: 35 vectors under {} backend pairs", pairs.len());
}

#[test]
fn wycheproof_cobblestone_128() {
    run_file("c2sp_chunked_encryption_aes_128_gcm_test.json");
}

#[test]
fn wycheproof_cobblestone_256() {
    run_file("c2sp_chunked_encryption_aes_256_gcm_test.json");
}

/// The Kalyna instantiations as FORMAT.md and the module docs state them, written out here
/// rather than asked of the library: the AEAD name bound into the key derivation, the
/// Kalyna block length (which is also the nonce length) and the key length.
const KALYNA_SPEC: [(Suite, &str, usize, usize); 5] = [
    (
        Suite::Kalyna128_128Gcm,
        "DSTU7624_KALYNA_128_128_GCM",
        16,
        16,
    ),
    (
        Suite::Kalyna128_256Gcm,
        "DSTU7624_KALYNA_128_256_GCM",
        16,
        32,
    ),
    (
        Suite::Kalyna256_256Gcm,
        "DSTU7624_KALYNA_256_256_GCM",
        32,
        32,
    ),
    (
        Suite::Kalyna256_512Gcm,
        "DSTU7624_KALYNA_256_512_GCM",
        32,
        64,
    ),
    (
        Suite::Kalyna512_512Gcm,
        "DSTU7624_KALYNA_512_512_GCM",
        64,
        64,
    ),
];

/// Every Kalyna backend this CPU can run now.
fn kalyna_backends() -> Vec<kalyna::Backend> {
    let v: Vec<_> = kalyna::Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    assert!(v.contains(&kalyna::Backend::Soft));
    v
}

/// A one-shot DSTU 7624:2014 GCM seal (16-byte tag) with the portable Kalyna of `block`
/// and `key.len()` bytes, the IV also the associated data: ciphertext || tag.
fn dstu_gcm_seal(block: usize, key: &[u8], iv: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut buf = msg.to_vec();
    macro_rules! seal {
        ($t:ty) => {{
            let k = <$t>::with_backend(key.try_into().unwrap(), kalyna::Backend::Soft).unwrap();
            Gcm::new(&k, 16)
                .unwrap()
                .seal_in_place(iv, iv, &mut buf)
                .unwrap()
                .as_bytes()
                .to_vec()
        }};
    }
    let tag = match (block, key.len()) {
        (16, 16) => seal!(Kalyna128_128),
        (16, 32) => seal!(Kalyna128_256),
        (32, 32) => seal!(Kalyna256_256),
        (32, 64) => seal!(Kalyna256_512),
        (64, 64) => seal!(Kalyna512_512),
        other => panic!("no Kalyna variant {other:?}"),
    };
    assert_eq!(tag.len(), 16);
    buf.extend_from_slice(&tag);
    buf
}

/// The construction's key derivation, from HKDF itself: `(AEAD key, base nonce,
/// commitment)` = HKDF-Expand-SHA-512(input key, "c2sp.org/chunked-encryption@v1+" ||
/// name || 0x00 || salt || context).
fn derive_spec(
    name: &str,
    nonce_len: usize,
    input_key: &[u8],
    salt: &[u8],
    ctx: &[u8],
) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut info = b"c2sp.org/chunked-encryption@v1+".to_vec();
    info.extend_from_slice(name.as_bytes());
    info.push(0);
    info.extend_from_slice(salt);
    info.extend_from_slice(ctx);
    let kl = input_key.len();
    let mut okm = vec![0u8; kl + nonce_len + 32];
    Hkdf::<Sha512>::from_prk(input_key)
        .expand(&info, &mut okm)
        .unwrap();
    let commitment = okm.split_off(kl + nonce_len);
    let base = okm.split_off(kl);
    (okm, base, commitment)
}

/// The nonce of chunk `index`: the base nonce with `index` XORed big-endian into its last
/// 8 bytes.
fn chunk_nonce(base: &[u8], index: u64) -> Vec<u8> {
    let mut n = base.to_vec();
    let l = n.len();
    for (b, x) in n[l - 8..].iter_mut().zip(index.to_be_bytes()) {
        *b ^= x;
    }
    n
}

/// The whole ciphertext of `msg`, recomputed from the construction: salt || commitment ||
/// one DSTU GCM seal per 16 KiB chunk under its nonce (also its associated data), the
/// last one shorter (possibly empty). Also the number of chunks.
fn kalyna_reference(
    (name, block): (&str, usize),
    input_key: &[u8],
    salt: &[u8; SALT_LEN],
    ctx: &[u8],
    msg: &[u8],
) -> (Vec<u8>, usize) {
    let (key, base, commitment) = derive_spec(name, block, input_key, salt, ctx);
    let mut out = salt.to_vec();
    out.extend_from_slice(&commitment);
    let mut chunks: Vec<&[u8]> = msg.chunks(CHUNK_LEN).collect();
    if msg.len().is_multiple_of(CHUNK_LEN) {
        chunks.push(&[]);
    }
    for (i, c) in chunks.iter().enumerate() {
        out.extend(dstu_gcm_seal(block, &key, &chunk_nonce(&base, i as u64), c));
    }
    (out, chunks.len())
}

/// Kalyna-GCM chunks equal one-shot DSTU 7624 GCM seals under the derived key and chunk
/// nonces, on every Kalyna backend, for messages around the chunk boundaries, past the
/// parallel threshold (16 chunks), and at chunk indices up to the last one allowed.
#[test]
fn kalyna_chunks_recomputed_from_the_construction() {
    let lens = [
        0usize,
        1,
        16,
        100,
        CHUNK_LEN - 1,
        CHUNK_LEN,
        CHUNK_LEN + 1,
        2 * CHUNK_LEN + 17,
        17 * CHUNK_LEN + 5,
    ];
    let backends = kalyna_backends();
    let mut compared = 0usize;
    for (suite, name, block, kl) in KALYNA_SPEC {
        assert_eq!(
            (suite.aead_name(), suite.key_len(), suite.nonce_len()),
            (name, kl, block),
            "{suite:?}"
        );
        let input_key = pattern(kl, block as u8);
        // The references, once per suite (the portable Kalyna is slow).
        let refs: Vec<_> = lens
            .iter()
            .map(|&n| {
                let msg = pattern(n, n as u8);
                let salt = [n as u8 ^ 0x5a; SALT_LEN];
                let ctx = pattern(n % 70, 1);
                let (ct, chunks) = kalyna_reference((name, block), &input_key, &salt, &ctx, &msg);
                (msg, salt, ctx, ct, chunks)
            })
            .collect();
        // Single chunks at high indices, through the message key of one salt.
        let salt = [0xc3; SALT_LEN];
        let (aead_key, base, _) = derive_spec(name, block, &input_key, &salt, b"hi");
        let far: Vec<(u64, Vec<u8>, Vec<u8>)> = [1u64, 0x01_0203_0405, 1 << 37, MAX_CHUNKS - 1]
            .iter()
            .map(|&i| {
                let m = pattern((i % 1000) as usize, 3);
                let want = dstu_gcm_seal(block, &aead_key, &chunk_nonce(&base, i), &m);
                (i, m, want)
            })
            .collect();
        for &b in &backends {
            let key = Cobblestone::with_kalyna_backend(suite, &input_key, b).unwrap();
            let mut chunks_here = 0;
            for (msg, salt, ctx, want, chunks) in &refs {
                let ct = key.seal_with_salt(salt, ctx, msg).unwrap();
                assert!(
                    ct == *want,
                    "{suite:?} on {}: {} bytes",
                    b.name(),
                    msg.len()
                );
                assert!(key.open(ctx, want).unwrap() == *msg);
                let (_, mk) = key.seal_header(salt, ctx).unwrap();
                assert_eq!(mk.kalyna_backend(), Some(b));
                assert_eq!(mk.engine(), b.name());
                assert!(mk.aes_gcm().is_none());
                chunks_here += chunks;
            }
            let (_, mk) = key.seal_header(&salt, b"hi").unwrap();
            for (i, m, want) in &far {
                let mut out = vec![0u8; m.len() + TAG_LEN];
                mk.seal_chunk(*i, m, &mut out).unwrap();
                assert_eq!(out, *want, "{suite:?} on {}: chunk {i}", b.name());
                let mut back = vec![0u8; m.len()];
                mk.open_chunk(*i, want, &mut back).unwrap();
                assert_eq!(back, *m);
                chunks_here += 1;
            }
            // 1 + 1 + 1 + 1 + 1 + 2 + 2 + 3 + 18 chunks, and the four far ones.
            assert_eq!(chunks_here, 30 + 4, "{suite:?}");
            compared += chunks_here;
            note_exercised("kalyna", b.name());
        }
    }
    assert_eq!(compared, 5 * backends.len() * 34);
    eprintln!(
        "Kalyna-GCM chunked: {compared} chunks recomputed on {} backends",
        backends.len()
    );
}

/// Kalyna suites refuse the wrong backends and key lengths; AES suites refuse a Kalyna
/// backend.
#[test]
fn kalyna_keys_refuse_bad_input() {
    for (suite, _, _, kl) in KALYNA_SPEC {
        for bad in [0usize, 15, kl - 1, kl + 1, 48] {
            if bad == 16 || bad == 32 || bad == 64 {
                continue;
            }
            assert_eq!(
                Cobblestone::new(suite, &vec![0; bad]).unwrap_err(),
                Error::InvalidKeyLength { got: bad },
                "{suite:?} {bad}"
            );
        }
        let other = if kl == 16 { 32 } else { 16 };
        assert_eq!(
            Cobblestone::new(suite, &vec![0; other]).unwrap_err(),
            Error::InvalidKeyLength { got: other }
        );
        assert!(matches!(
            Cobblestone::with_backends(
                suite,
                &vec![0; kl],
                aes::Backend::Soft,
                ghash::Backend::Soft
            ),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            Cobblestone::with_backends_generic(
                suite,
                &vec![0; kl],
                aes::Backend::Soft,
                ghash::Backend::Soft
            ),
            Err(Error::InvalidParameter { .. })
        ));
        for &b in kalyna::Backend::ALL {
            let r = Cobblestone::with_kalyna_backend(suite, &vec![0; kl], b);
            if b.is_available() {
                assert_eq!(r.unwrap().suite(), suite);
            } else {
                assert_eq!(r.unwrap_err(), Error::BackendUnavailable, "{}", b.name());
            }
        }
    }
    for &suite in Suite::COBBLESTONE {
        assert!(matches!(
            Cobblestone::with_kalyna_backend(
                suite,
                &vec![0; suite.key_len()],
                kalyna::Backend::Soft
            ),
            Err(Error::InvalidParameter { .. })
        ));
        let (_, mk) = Cobblestone::new(suite, &vec![0; suite.key_len()])
            .unwrap()
            .seal_header(&[0; SALT_LEN], b"")
            .unwrap();
        assert!(mk.kalyna_backend().is_none());
        assert_eq!(mk.engine(), mk.aes_gcm().unwrap().engine());
    }
}

fn pattern(n: usize, seed: u8) -> Vec<u8> {
    common::data_with(n, seed, 31)
}

/// The lengths around every chunk boundary up to three chunks.
fn boundary_lengths() -> Vec<usize> {
    let mut v = vec![0, 1, 15, 16, 17, 100];
    for k in 1..=3 {
        for d in [-17i64, -1, 0, 1, 17] {
            v.push((k * CHUNK_LEN as i64 + d) as usize);
        }
    }
    v
}

#[test]
fn lengths_and_constants() {
    assert_eq!(
        (
            CHUNK_LEN,
            TAG_LEN,
            ENCRYPTED_CHUNK_LEN,
            SALT_LEN,
            HEADER_LEN
        ),
        (16384, 16, 16400, 24, 56)
    );
    assert_eq!(MAX_CHUNKS, 1 << 38);
    for n in boundary_lengths() {
        let total = sealed_len(n as u64).unwrap();
        assert_eq!(total as usize, HEADER_LEN + sealed_chunks_len(n, true));
        assert_eq!(opened_len(total - HEADER_LEN as u64).unwrap(), n as u64);
        assert_eq!(opened_chunks_len(sealed_chunks_len(n, true), true), Some(n));
    }
    // Lengths no message encrypts to.
    for body in [0u64, 1, 15, 16400, 16400 + 15, 2 * 16400] {
        assert_eq!(opened_len(body), Err(Error::Truncated), "{body}");
    }
    assert!(sealed_len(MAX_CHUNKS * CHUNK_LEN as u64 - 1).is_ok());
    assert!(matches!(
        sealed_len(MAX_CHUNKS * CHUNK_LEN as u64),
        Err(Error::TooLong { .. })
    ));
    assert_eq!(Suite::Cobblestone128.key_len(), 16);
    assert_eq!(Suite::Cobblestone256.name(), "cobblestone-256");
}

#[test]
fn round_trips_every_interface() {
    for &suite in Suite::ALL {
        let key = Cobblestone::new(suite, &pattern(suite.key_len(), 1)).unwrap();
        for n in boundary_lengths() {
            let msg = pattern(n, 7);
            let salt = [n as u8; SALT_LEN];
            let ct = key.seal_with_salt(&salt, b"ctx", &msg).unwrap();
            assert_eq!(ct.len() as u64, sealed_len(n as u64).unwrap());
            assert_eq!(key.open(b"ctx", &ct).unwrap(), msg, "{n}");
            // The streaming encryptor, in odd writes and batches, gives the same bytes.
            for (batch, step) in [
                (1usize, 1usize),
                (2, 5000),
                (64, CHUNK_LEN),
                (3, 3 * CHUNK_LEN),
            ] {
                if step == 1 && n > 20_000 {
                    continue;
                }
                let mut e = Encryptor::with_salt(&key, &salt, b"ctx", Vec::new())
                    .unwrap()
                    .with_batch_chunks(batch);
                for piece in msg.chunks(step) {
                    e.write_all(piece).unwrap();
                }
                assert_eq!(e.finish().unwrap(), ct, "{n} {batch} {step}");
            }
            // Random salts differ.
            let a = key.seal(b"ctx", &msg).unwrap();
            let b = key.seal(b"ctx", &msg).unwrap();
            assert_ne!(a[..SALT_LEN], b[..SALT_LEN]);
            assert_eq!(key.open(b"ctx", &a).unwrap(), msg);
            let mut w = Encryptor::new(&key, b"ctx", Vec::new()).unwrap();
            w.write_all(&msg).unwrap();
            let c = w.finish().unwrap();
            assert_eq!(key.open(b"ctx", &c).unwrap(), msg);
        }
    }
}

/// Every single-bit flip of a two-and-a-bit chunk ciphertext is caught by every interface
/// (sampled every 97 bits for AES-128, every 997 for the other suites, whose test runs
/// on the portable Kalyna under emulation in CI), and what streaming releases is a prefix
/// of whole chunks; so are cuts and extra bytes. Every suite.
#[test]
fn bit_flips_and_cuts_are_caught() {
    for &suite in Suite::ALL {
        let step = if suite == Suite::Cobblestone128 {
            97
        } else {
            997
        };
        bit_flips_and_cuts(suite, step);
    }
}

fn bit_flips_and_cuts(suite: Suite, step: usize) {
    let key = Cobblestone::new(suite, &pattern(suite.key_len(), 5)).unwrap();
    let msg = pattern(2 * CHUNK_LEN + 300, 3);
    let ct = key.seal_with_salt(&[9; SALT_LEN], b"", &msg).unwrap();
    let mut flips = 0;
    for bit in (0..ct.len() * 8).step_by(step).chain([
        8 * HEADER_LEN - 1,
        8 * (HEADER_LEN + ENCRYPTED_CHUNK_LEN) - 1,
        8 * ct.len() - 1,
    ]) {
        flips += 1;
        let mut bad = ct.clone();
        bad[bit / 8] ^= 1 << (bit % 8);
        assert!(key.open(b"", &bad).is_err(), "{suite:?} bit {bit}");
        let d = Decryptor::new(&key, b"", &bad[..]);
        match d {
            Err(e) => {
                assert!(bit / 8 < HEADER_LEN, "{suite:?} bit {bit}");
                assert_eq!(lib_err(&e), Some(Error::CommitmentMismatch));
            }
            Ok(mut d) => {
                let (got, err) = drain(&mut d, 4096);
                let err = lib_err(&err.expect("error")).unwrap();
                let chunk = (bit / 8 - HEADER_LEN) / ENCRYPTED_CHUNK_LEN;
                assert_eq!(
                    err,
                    Error::ChunkAuthenticationFailed {
                        chunk: chunk as u64
                    },
                    "{suite:?} bit {bit}"
                );
                assert_eq!(got, msg[..chunk * CHUNK_LEN], "{suite:?} bit {bit}");
            }
        };
    }
    assert_eq!(flips, (ct.len() * 8).div_ceil(step) + 3);
    for cut in (0..ct.len())
        .step_by(101)
        .chain([ct.len() - 1, HEADER_LEN + ENCRYPTED_CHUNK_LEN])
    {
        assert!(key.open(b"", &ct[..cut]).is_err(), "{suite:?} cut {cut}");
        if let Ok(mut d) = Decryptor::new(&key, b"", &ct[..cut]) {
            let (got, err) = drain(&mut d, 100_000);
            assert!(err.is_some(), "{suite:?} cut {cut}");
            assert_eq!(got.len() % CHUNK_LEN, 0);
            assert_eq!(got, msg[..got.len()]);
        }
    }
    // Extra bytes after the end.
    for extra in [1usize, 15, 16, 17, 16400] {
        let mut long = ct.clone();
        long.extend(std::iter::repeat_n(0, extra));
        assert!(key.open(b"", &long).is_err(), "{suite:?} extra {extra}");
    }
}

/// Chunks swapped, duplicated, dropped or moved, the final chunk dropped or taken from
/// another message, a header from another message, and a ciphertext opened as another
/// suite with the same key bytes: all refused, and streaming releases exactly the chunks
/// before the first bad one. Every suite.
#[test]
fn reordered_and_spliced_chunks_are_caught() {
    let msg = pattern(4 * CHUNK_LEN + 100, 6);
    let mut cases = 0;
    for &suite in Suite::ALL {
        let key = Cobblestone::new(suite, &pattern(suite.key_len(), 8)).unwrap();
        let ct = key.seal_with_salt(&[1; SALT_LEN], b"c", &msg).unwrap();
        let other = key.seal_with_salt(&[2; SALT_LEN], b"c", &msg).unwrap();
        let at = |k: usize| HEADER_LEN + k * ENCRYPTED_CHUNK_LEN;
        let chunk = |c: &[u8], k: usize| c[at(k)..at(k + 1).min(c.len())].to_vec();
        let build = |order: &[usize], fin: &[u8]| {
            let mut c = ct[..HEADER_LEN].to_vec();
            for &k in order {
                c.extend(chunk(&ct, k));
            }
            c.extend_from_slice(fin);
            c
        };
        let fin = chunk(&ct, 4);
        // (what, ciphertext, error, whole chunks released before it)
        let bad: Vec<(&str, Vec<u8>, Error, usize)> = vec![
            (
                "0 and 1 swapped",
                build(&[1, 0, 2, 3], &fin),
                Error::ChunkAuthenticationFailed { chunk: 0 },
                0,
            ),
            (
                "2 duplicated",
                build(&[0, 1, 2, 2, 3], &fin),
                Error::ChunkAuthenticationFailed { chunk: 3 },
                3,
            ),
            (
                "1 dropped",
                build(&[0, 2, 3], &fin),
                Error::ChunkAuthenticationFailed { chunk: 1 },
                1,
            ),
            (
                "1 moved to the end",
                build(&[0, 2, 3, 1], &fin),
                Error::ChunkAuthenticationFailed { chunk: 1 },
                1,
            ),
            (
                "final chunk dropped",
                build(&[0, 1, 2, 3], &[]),
                Error::Truncated,
                4,
            ),
            (
                "final chunk from another message",
                build(&[0, 1, 2, 3], &chunk(&other, 4)),
                Error::ChunkAuthenticationFailed { chunk: 4 },
                4,
            ),
            (
                "chunk 2 from another message",
                {
                    let mut c = ct.clone();
                    c[at(2)..at(3)].copy_from_slice(&chunk(&other, 2));
                    c
                },
                Error::ChunkAuthenticationFailed { chunk: 2 },
                2,
            ),
            (
                "the final chunk as chunk 3",
                build(&[0, 1, 2], &fin),
                Error::ChunkAuthenticationFailed { chunk: 3 },
                3,
            ),
        ];
        for (what, c, err, released) in &bad {
            assert_eq!(key.open(b"c", c).err(), Some(*err), "{suite:?} {what}");
            for batch in [1usize, 3, 64] {
                let mut d = Decryptor::new(&key, b"c", &c[..])
                    .unwrap()
                    .with_batch_chunks(batch);
                let (got, e) = drain(&mut d, 5000);
                assert_eq!(
                    lib_err(&e.expect("an error")),
                    Some(*err),
                    "{suite:?} {what}"
                );
                assert!(
                    got == msg[..released * CHUNK_LEN],
                    "{suite:?} {what} {batch}"
                );
            }
            cases += 1;
        }
        // Another message's header: the commitment differs.
        let mut c = other[..HEADER_LEN].to_vec();
        c.extend_from_slice(&ct[HEADER_LEN..]);
        assert!(key.open(b"c", &c).is_err());
        let mut d = Decryptor::new(&key, b"c", &c[..]).unwrap();
        assert!(drain(&mut d, 5000).1.is_some(), "{suite:?} other header");
        // Every other suite whose key has the same length refuses the ciphertext at the
        // commitment: the AEAD name is bound into the key derivation.
        for &s in Suite::ALL {
            if s != suite && s.key_len() == suite.key_len() {
                let k = Cobblestone::new(s, &pattern(s.key_len(), 8)).unwrap();
                assert_eq!(
                    k.open(b"c", &ct).err(),
                    Some(Error::CommitmentMismatch),
                    "{suite:?} as {s:?}"
                );
                cases += 1;
            }
        }
        cases += 1;
    }
    // 8 reorderings and one header per suite; same-length pairs: 16 bytes (AES-128,
    // Kalyna-128/128), 32 (AES-256, Kalyna-128/256, Kalyna-256/256), 64 (two Kalyna).
    assert_eq!(cases, 7 * 9 + (2 + 6 + 2));
}

/// An error from the reader stops the decryptor for good.
#[test]
fn reader_errors_are_sticky() {
    struct Flaky<'a> {
        data: &'a [u8],
        fail_at: usize,
        pos: usize,
    }
    impl Read for Flaky<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.pos >= self.fail_at {
                self.fail_at = usize::MAX; // would succeed if asked again
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf
                .len()
                .min(self.fail_at - self.pos)
                .min(self.data.len() - self.pos);
            buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }
    let key = Cobblestone::new(Suite::Cobblestone256, &[1; 32]).unwrap();
    let msg = pattern(3 * CHUNK_LEN + 9, 0);
    let ct = key.seal_with_salt(&[2; SALT_LEN], b"", &msg).unwrap();
    let r = Flaky {
        data: &ct,
        fail_at: HEADER_LEN + ENCRYPTED_CHUNK_LEN + 100,
        pos: 0,
    };
    let mut d = Decryptor::new(&key, b"", r).unwrap().with_batch_chunks(1);
    let (got, err) = drain(&mut d, 1000);
    assert!(err.is_some());
    assert_eq!(got, msg[..CHUNK_LEN]);
    for _ in 0..3 {
        assert!(d.read(&mut [0; 10]).is_err());
    }
}

/// Writer errors stop the encryptor; `finish` is needed for a complete ciphertext.
#[test]
fn encryptor_without_finish_is_truncated() {
    let key = Cobblestone::new(Suite::Cobblestone128, &[1; 16]).unwrap();
    let mut out = Vec::new();
    {
        let mut e = Encryptor::with_salt(&key, &[0; SALT_LEN], b"", &mut out)
            .unwrap()
            .with_batch_chunks(1);
        e.write_all(&pattern(CHUNK_LEN * 2 + 5, 1)).unwrap();
        // dropped without finish
    }
    assert_eq!(out.len(), HEADER_LEN + 2 * ENCRYPTED_CHUNK_LEN);
    assert_eq!(key.open(b"", &out), Err(Error::Truncated));

    struct Full(usize);
    impl Write for Full {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if self.0 < b.len() {
                return Err(io::Error::other("disk full"));
            }
            self.0 -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut e = Encryptor::with_salt(&key, &[0; SALT_LEN], b"", Full(HEADER_LEN + 10))
        .unwrap()
        .with_batch_chunks(1);
    assert!(e.write_all(&[0; CHUNK_LEN]).is_err());
    assert!(e.write(&[0; 1]).is_err());
    assert!(e.flush().is_err());
    assert!(e.finish().is_err());
}

/// Random access on every suite (300 random ranges for AES, 60 for Kalyna).
#[test]
fn random_access_reads_any_range() {
    for &suite in Suite::ALL {
        random_access(suite, if suite.is_c2sp() { 300 } else { 60 });
    }
}

fn random_access(suite: Suite, reads: usize) {
    let key = Cobblestone::new(suite, &pattern(suite.key_len(), 3)).unwrap();
    let msg = pattern(5 * CHUNK_LEN + 1234, 9);
    let mut store = b"prefix that is not part of it".to_vec();
    let base = store.len();
    store.extend(key.seal_with_salt(&[4; SALT_LEN], b"c", &msg).unwrap());
    let mut cur = Cursor::new(&store);
    cur.seek(SeekFrom::Start(base as u64)).unwrap();
    let mut s = SeekingDecryptor::new(&key, b"c", cur).unwrap();
    let mut rng = 12345u64;
    for _ in 0..reads {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let from = (rng >> 20) as usize % (msg.len() + 10);
        let n = (rng >> 45) as usize % 40_000;
        s.seek(SeekFrom::Start(from as u64)).unwrap();
        let mut buf = vec![0u8; n];
        let mut got = 0;
        loop {
            let k = s.read(&mut buf[got..]).unwrap();
            if k == 0 || got + k == n {
                got += k;
                break;
            }
            got += k;
        }
        let want = if from >= msg.len() {
            &[][..]
        } else {
            &msg[from..msg.len().min(from + n)]
        };
        assert_eq!(&buf[..got], want, "{suite:?} {from}+{n}");
    }
    s.seek(SeekFrom::Start(10)).unwrap();
    assert_eq!(s.seek(SeekFrom::Current(5)).unwrap(), 15);
    assert!(s.seek(SeekFrom::Current(-16)).is_err());
    assert_eq!(s.seek(SeekFrom::End(0)).unwrap(), msg.len() as u64);
    // A damaged middle chunk fails only where it is read.
    let mut bad = store.clone();
    bad[base + HEADER_LEN + 2 * ENCRYPTED_CHUNK_LEN + 7] ^= 0x40;
    let mut c = Cursor::new(&bad);
    c.seek(SeekFrom::Start(base as u64)).unwrap();
    let mut s = SeekingDecryptor::new(&key, b"c", c).unwrap();
    assert_eq!(s.len().unwrap(), msg.len() as u64);
    let mut one = [0u8; 10];
    s.seek(SeekFrom::Start(CHUNK_LEN as u64)).unwrap();
    s.read_exact(&mut one).unwrap();
    assert_eq!(one, msg[CHUNK_LEN..CHUNK_LEN + 10]);
    s.seek(SeekFrom::Start(2 * CHUNK_LEN as u64 + 100)).unwrap();
    let e = s.read(&mut one).unwrap_err();
    assert_eq!(
        lib_err(&e),
        Some(Error::ChunkAuthenticationFailed { chunk: 2 })
    );
    assert!(s.read(&mut one).is_err());
}

#[test]
fn chunk_calls_refuse_bad_shapes() {
    let key = Cobblestone::new(Suite::Cobblestone128, &[7; 16]).unwrap();
    assert_eq!(
        Cobblestone::new(Suite::Cobblestone128, &[0; 32]).unwrap_err(),
        Error::InvalidKeyLength { got: 32 }
    );
    assert_eq!(
        Cobblestone::new(Suite::Cobblestone256, &[0; 16]).unwrap_err(),
        Error::InvalidKeyLength { got: 16 }
    );
    let (_, mk) = key.seal_header(&[0; SALT_LEN], b"").unwrap();
    let mut out = vec![0u8; ENCRYPTED_CHUNK_LEN + 1];
    // Chunk too long, output of the wrong length.
    assert!(matches!(
        mk.seal_chunk(0, &[0; CHUNK_LEN + 1], &mut out),
        Err(Error::TooLong { .. })
    ));
    assert!(matches!(
        mk.seal_chunk(0, &[0; 10], &mut out[..25]),
        Err(Error::LengthMismatch { .. })
    ));
    // Opening: shorter than a tag is truncated; longer than a chunk is refused.
    assert_eq!(mk.open_chunk(0, &[0; 15], &mut []), Err(Error::Truncated));
    assert!(matches!(
        mk.open_chunk(0, &out, &mut vec![0; CHUNK_LEN + 1]),
        Err(Error::TooLong { .. })
    ));
    // Batches: whole chunks unless last; ciphertext shapes.
    assert!(matches!(
        mk.seal_chunks(0, &[0; 100], false, &mut [0; 116]),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        mk.seal_chunks(0, &[0; 100], true, &mut [0; 115]),
        Err(Error::LengthMismatch { .. })
    ));
    assert_eq!(
        mk.open_chunks(0, &[0; 15], true, &mut []),
        Err(Error::Truncated)
    );
    assert_eq!(
        mk.open_chunks(0, &[0; ENCRYPTED_CHUNK_LEN], true, &mut [0; CHUNK_LEN]),
        Err(Error::Truncated)
    );
    assert!(matches!(
        mk.open_chunks(0, &[0; 100], false, &mut [0; 84]),
        Err(Error::InvalidParameter { .. })
    ));
    // The chunk counter stops at 2^38.
    let mut c = [0u8; 16];
    mk.seal_chunk(MAX_CHUNKS - 1, &[], &mut c).unwrap();
    assert!(matches!(
        mk.seal_chunk(MAX_CHUNKS, &[], &mut c),
        Err(Error::TooLong { .. })
    ));
    let mut two = vec![0u8; ENCRYPTED_CHUNK_LEN + 16];
    assert!(matches!(
        mk.seal_chunks(MAX_CHUNKS - 1, &[0; CHUNK_LEN], true, &mut two),
        Err(Error::TooLong { .. })
    ));
    mk.seal_chunks(MAX_CHUNKS - 2, &[0; CHUNK_LEN], true, &mut two)
        .unwrap();
    let mut back = vec![0u8; CHUNK_LEN];
    mk.open_chunks(MAX_CHUNKS - 2, &two, true, &mut back)
        .unwrap();
    // A good chunk opened under another index fails, and the output is zeroed.
    let mut p = vec![1u8; CHUNK_LEN];
    assert_eq!(
        mk.open_chunks(MAX_CHUNKS - 3, &two, true, &mut p),
        Err(Error::ChunkAuthenticationFailed {
            chunk: MAX_CHUNKS - 3
        })
    );
    assert!(p.iter().all(|&b| b == 0));
}

/// The batch calls on rayon pools of 1 to 5 threads give the same bytes as chunk by chunk,
/// and a failing batch releases exactly the chunks before the first bad one; every suite
/// (the Kalyna ones on fewer sizes: CI runs this on the portable Kalyna under emulation).
#[test]
fn batches_equal_chunk_by_chunk_on_any_pool() {
    for &suite in Suite::ALL {
        let sizes: &[usize] = if suite.is_c2sp() {
            &[
                0,
                1,
                8 * CHUNK_LEN,
                16 * CHUNK_LEN,
                16 * CHUNK_LEN + 1,
                37 * CHUNK_LEN + 999,
                80 * CHUNK_LEN,
            ]
        } else {
            &[0, 16 * CHUNK_LEN, 21 * CHUNK_LEN + 999]
        };
        batches_on_pools(suite, sizes);
    }
}

fn batches_on_pools(suite: Suite, sizes: &[usize]) {
    let key = Cobblestone::new(suite, &pattern(suite.key_len(), 8)).unwrap();
    let (_, mk) = key.seal_header(&[1; SALT_LEN], b"").unwrap();
    for &n in sizes {
        let msg = pattern(n, 4);
        let first = 1000u64;
        // Chunk by chunk.
        let mut want = Vec::new();
        for (i, c) in msg
            .chunks(CHUNK_LEN)
            .chain((n % CHUNK_LEN == 0).then_some(&[][..]))
            .enumerate()
        {
            let mut o = vec![0u8; c.len() + TAG_LEN];
            mk.seal_chunk(first + i as u64, c, &mut o).unwrap();
            want.extend(o);
        }
        for threads in 1..=5 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let mut ct = vec![0u8; sealed_chunks_len(n, true)];
                mk.seal_chunks(first, &msg, true, &mut ct).unwrap();
                assert!(ct == want, "{suite:?} {n} on {threads}");
                let mut pt = vec![0u8; n];
                mk.open_chunks(first, &ct, true, &mut pt).unwrap();
                assert!(pt == msg);
                // Two bad chunks: the first one is reported, nothing from it on is released.
                if n >= 20 * CHUNK_LEN {
                    let mut bad = ct.clone();
                    bad[17 * ENCRYPTED_CHUNK_LEN + 3] ^= 1;
                    bad[3 * ENCRYPTED_CHUNK_LEN + 3] ^= 1;
                    let mut pt = vec![0xaau8; n];
                    let e = mk.open_chunks(first, &bad, true, &mut pt).unwrap_err();
                    assert_eq!(e, Error::ChunkAuthenticationFailed { chunk: first + 3 });
                    assert!(pt[..3 * CHUNK_LEN] == msg[..3 * CHUNK_LEN]);
                    assert!(
                        pt[3 * CHUNK_LEN..].iter().all(|&b| b == 0),
                        "{suite:?} {n} on {threads}"
                    );
                }
            });
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every backend pair seals what the portable one seals, and streaming with random
    /// write and read sizes round-trips.
    #[test]
    fn backends_and_streaming_agree(
        len in 0usize..(4 * CHUNK_LEN + 40),
        key in proptest::collection::vec(any::<u8>(), 32),
        salt in any::<[u8; 24]>(),
        wstep in 1usize..40_000,
        rstep in 1usize..70_000,
        batch in 1usize..5,
        big in any::<bool>(),
    ) {
        let suite = if big { Suite::Cobblestone256 } else { Suite::Cobblestone128 };
        let key = &key[..suite.key_len()];
        let msg = pattern(len, salt[0]);
        let soft = Cobblestone::with_backends_generic(suite, key, aes::Backend::Soft, ghash::Backend::Soft).unwrap();
        let want = soft.seal_with_salt(&salt, b"p", &msg).unwrap();
        for p in pairs() {
            let k = key_on(suite, key, p).unwrap();
            prop_assert!(k.seal_with_salt(&salt, b"p", &msg).unwrap() == want);
        }
        let k = Cobblestone::new(suite, key).unwrap();
        let mut e = Encryptor::with_salt(&k, &salt, b"p", Vec::new()).unwrap().with_batch_chunks(batch);
        for piece in msg.chunks(wstep) {
            e.write_all(piece).unwrap();
        }
        prop_assert!(e.finish().unwrap() == want);
        let mut d = Decryptor::new(&k, b"p", &want[..]).unwrap().with_batch_chunks(batch);
        let (got, err) = drain(&mut d, rstep);
        prop_assert!(err.is_none());
        prop_assert!(got == msg);
    }

    /// Every Kalyna backend seals what the portable one seals, for every Kalyna suite,
    /// and streaming with random write and read sizes round-trips.
    #[test]
    fn kalyna_backends_and_streaming_agree(
        len in 0usize..(3 * CHUNK_LEN + 40),
        key in proptest::collection::vec(any::<u8>(), 64),
        salt in any::<[u8; 24]>(),
        wstep in 1usize..40_000,
        rstep in 1usize..70_000,
        batch in 1usize..5,
        which in 0usize..5,
    ) {
        let suite = Suite::KALYNA[which];
        let key = &key[..suite.key_len()];
        let msg = pattern(len, salt[0]);
        let soft = Cobblestone::with_kalyna_backend(suite, key, kalyna::Backend::Soft).unwrap();
        let want = soft.seal_with_salt(&salt, b"p", &msg).unwrap();
        for b in kalyna_backends() {
            let k = Cobblestone::with_kalyna_backend(suite, key, b).unwrap();
            prop_assert!(k.seal_with_salt(&salt, b"p", &msg).unwrap() == want, "{}", b.name());
        }
        let k = Cobblestone::new(suite, key).unwrap();
        let mut e = Encryptor::with_salt(&k, &salt, b"p", Vec::new()).unwrap().with_batch_chunks(batch);
        for piece in msg.chunks(wstep) {
            e.write_all(piece).unwrap();
        }
        prop_assert!(e.finish().unwrap() == want);
        let mut d = Decryptor::new(&k, b"p", &want[..]).unwrap().with_batch_chunks(batch);
        let (got, err) = drain(&mut d, rstep);
        prop_assert!(err.is_none());
        prop_assert!(got == msg);
    }
}
