//! Constant-time check under valgrind's memcheck (see SIDE-CHANNELS.md).
//!
//! The key and the data are marked *undefined* with memcheck's client requests; memcheck
//! then reports every branch ("Conditional jump or move depends on uninitialised value")
//! and every memory address ("Use of uninitialised value") computed from them. A run with
//! no error means no secret-dependent branch or table index on the path exercised.
//!
//! ```text
//! cargo build --release -p shyfr --example ct_valgrind
//! valgrind --error-exitcode=1 target/release/examples/ct_valgrind            # best backend valgrind offers
//! SHYFR_CPU=portable valgrind --error-exitcode=1 target/release/examples/ct_valgrind
//! ```
//!
//! Outside valgrind the requests do nothing and the program just runs. With the argument
//! `leaky` it runs a deliberately leaky look-up instead, which memcheck must report.

use shyfr::aead::ccm::AesCcm;
use shyfr::aead::gcm::AesGcm;
use shyfr::aes::{Aes, Backend};
use shyfr::hash::sha2::{Sha256, Sha512};
use shyfr::hash::sha3::Sha3_256;
use shyfr::mac::hmac::Hmac;
use shyfr::mac::kmac::Kmac128;
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cmac::Cmac;
use shyfr::mode::ctr::Ctr;
use shyfr::mode::xts::Xts;

/// Memcheck's client request codes: `VG_USERREQ_TOOL_BASE('M','C') + n` (valgrind's
/// documented client-request protocol, `memcheck.h`).
const MAKE_MEM_UNDEFINED: u64 = (((b'M' as u64) << 24) | ((b'C' as u64) << 16)) + 1;
const MAKE_MEM_DEFINED: u64 = MAKE_MEM_UNDEFINED + 1;

/// Issues a valgrind client request; a no-op returning `0` on real hardware.
#[cfg(target_arch = "x86_64")]
fn client_request(request: u64, addr: *const u8, len: usize) -> u64 {
    let args: [u64; 6] = [request, addr as u64, len as u64, 0, 0, 0];
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
fn client_request(_request: u64, _addr: *const u8, _len: usize) -> u64 {
    0
}

fn secret(buf: &[u8]) {
    client_request(MAKE_MEM_UNDEFINED, buf.as_ptr(), buf.len());
}

fn public(buf: &[u8]) {
    client_request(MAKE_MEM_DEFINED, buf.as_ptr(), buf.len());
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

fn main() {
    if std::env::args().any(|a| a == "leaky") {
        leaky();
        return;
    }
    let backend = Backend::best();
    println!("aes backend: {}", backend.name());
    for klen in [16usize, 24, 32] {
        // black_box: the compiler must not know the values it would otherwise fold.
        let key: Vec<u8> =
            std::hint::black_box((0..klen as u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect());
        let mut data: Vec<u8> =
            std::hint::black_box((0..16 * 37u32).map(|i| (i * 7 + 3) as u8).collect());
        let orig = data.clone();
        secret(&key);
        secret(&data);
        let aes = Aes::with_backend(&key, backend).expect("backend");
        aes.encrypt_blocks(&mut data).expect("whole blocks");
        let mut one = [0u8; 16];
        one.copy_from_slice(&data[..16]);
        aes.decrypt_block(&mut one);
        aes.decrypt_blocks(&mut data).expect("whole blocks");
        // Only now may the results be looked at.
        public(&data);
        public(&one);
        assert_eq!(data, orig, "round trip");
        assert_eq!(&one[..], &orig[..16]);
        println!("AES-{}: key set-up, encrypt, decrypt done", klen * 8);
    }

    // The modes with fused AES kernels, key and data secret: CTR, CBC both ways, XTS (with
    // a partial last block: ciphertext stealing), CMAC and CCM seal (its verdict on open is
    // a branch on a key-derived value, as for GCM below).
    let key: Vec<u8> = std::hint::black_box((0..64u8).map(|i| i.wrapping_mul(11)).collect());
    let mut data: Vec<u8> = std::hint::black_box((0..16 * 41 + 5u32).map(|i| i as u8).collect());
    secret(&key);
    secret(&data);
    let aes = Aes::with_backend(&key[..16], backend).expect("backend");
    let mut out = Vec::new();
    Ctr::new(&aes, &[3u8; 16])
        .expect("iv")
        .apply_keystream(&mut data)
        .expect("length");
    let cbc = Cbc::new(&aes);
    let whole = data.len() / 16 * 16;
    cbc.encrypt(&[4u8; 16], &mut data[..whole]).expect("blocks");
    cbc.decrypt(&[5u8; 16], &mut data[..whole]).expect("blocks");
    let xts = Xts::new(
        Aes::with_backend(&key[..32], backend).expect("backend"),
        Aes::with_backend(&key[32..], backend).expect("backend"),
    )
    .expect("keys");
    xts.encrypt(&[6u8; 16], &mut data).expect("length");
    xts.decrypt(&[7u8; 16], &mut data).expect("length");
    out.extend_from_slice(Cmac::mac(&aes, &data).expect("cipher").as_bytes());
    let ccm = AesCcm::new_from_slice(&key[..32]).expect("key");
    out.extend_from_slice(
        ccm.seal_in_place(&[8u8; 13], b"aad", &mut data)
            .expect("seal")
            .as_ref(),
    );
    public(&data);
    public(&out);
    println!("CTR, CBC, XTS, CMAC, CCM seal done");

    // AES-GCM seal (GHASH on the backend valgrind's CPU offers), HMAC, KMAC and the
    // hashes, with key and data secret. GCM *open* is left out: its accept/reject verdict
    // is by nature a branch on a key-derived value (the tag comparison itself is
    // `ct::ct_eq`), which memcheck would report; it is exercised with a public key only.
    let key: Vec<u8> = std::hint::black_box(vec![0x42; 32]);
    let mut data: Vec<u8> = std::hint::black_box((0..1000u32).map(|i| i as u8).collect());
    let nonce = [1u8; 12];
    secret(&key);
    secret(&data);
    let gcm = AesGcm::new_from_slice(&key).expect("key");
    println!(
        "gcm backends: aes {}, ghash {}, engine {}; keccak {}; sha256 {}; sha512 {}",
        gcm.aes_backend().name(),
        gcm.ghash_backend().name(),
        gcm.engine(),
        shyfr::hash::sha3::Backend::best().name(),
        shyfr::hash::sha2::Sha256Backend::best().name(),
        shyfr::hash::sha2::Sha512Backend::best().name(),
    );
    let tag = gcm.seal_in_place(&nonce, b"aad", &mut data).expect("seal");
    public(tag.as_ref());
    public(&data);
    public(&key);
    let opened = AesGcm::new_from_slice(&key).expect("key");
    opened
        .open_in_place(&nonce, b"aad", &mut data, tag.as_ref())
        .expect("authentic");
    secret(&key);
    secret(&data);
    let mut digests = Vec::new();
    digests.extend_from_slice(Sha256::digest(&data).as_ref());
    digests.extend_from_slice(Sha512::digest(&data).as_ref());
    digests.extend_from_slice(Sha3_256::digest(&data).as_ref());
    digests.extend_from_slice(Hmac::<Sha256>::mac(&key, &data).as_ref());
    let mut kmac = Kmac128::new(&key, b"custom").expect("key");
    kmac.update(&data);
    let mut k = [0u8; 32];
    kmac.finalize_into(&mut k).expect("length");
    digests.extend_from_slice(&k);
    public(&digests);
    println!(
        "GCM, SHA-256, SHA-512, SHA3-256, HMAC, KMAC done ({} bytes out)",
        digests.len()
    );
}
