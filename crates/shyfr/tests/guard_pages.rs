//! Inputs that end at the last readable byte before an inaccessible page: a kernel that
//! reads past the end of its input (a wide or masked load of a tail gone wrong) faults
//! here, where a test on an ordinary buffer would read a few bytes of the allocation's
//! slack and pass. Every backend of the SHA-2, SHA-3 and SHAKE one-message and
//! `digest_many` paths, every length up to two blocks and more, and batches of messages
//! of mixed lengths that all end at the guard page (the multi-message kernels pad each
//! message's tail in registers under a byte mask); AES-GCM on every AES and GHASH backend
//! pair and engine, sealing and opening from and into buffers that end there; AES ECB, CTR
//! and XTS and Kalyna ECB, CTR (gamma) and CBC decryption on every backend, in place and
//! from one guarded buffer into another.
#![cfg(unix)]

mod common;

use shyfr::aead::gcm::AesGcm;
use shyfr::aead::ghash;
use shyfr::aes::{self, Aes};
use shyfr::block::InOutBuf;
use shyfr::hash::sha2::{
    Sha224, Sha256, Sha256Backend, Sha256ManyBackend, Sha384, Sha512, Sha512Backend,
    Sha512ManyBackend, Sha512_256,
};
use shyfr::hash::sha3::{Backend as KeccakBackend, Sha3_256, Sha3_512, Shake128, Shake256};
use shyfr::hash::{Hash, XofReader};
use shyfr::kalyna::{self, Kalyna};
use shyfr::mode::ctr::Ctr;
use shyfr::mode::ecb::Ecb;
use shyfr::mode::xts::Xts;

/// One readable page followed by one that may not be touched.
struct Guarded {
    base: *mut u8,
    page: usize,
}

impl Guarded {
    fn new() -> Guarded {
        // SAFETY: `sysconf` has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).expect("page");
        // SAFETY: an anonymous private mapping of two pages, nothing else aliased; the
        // result is checked before use.
        let base = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                2 * page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED, "mmap");
        // SAFETY: the second page lies inside the mapping just made.
        let rc =
            unsafe { libc::mprotect(base.cast::<u8>().add(page).cast(), page, libc::PROT_NONE) };
        assert_eq!(rc, 0, "mprotect");
        let g = Guarded {
            base: base.cast(),
            page,
        };
        // A pattern, so that the messages are not all zero.
        // SAFETY: the first page is readable and writable, and only `g` refers to it.
        let first = unsafe { core::slice::from_raw_parts_mut(g.base, page) };
        for (i, b) in first.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(31) ^ (i >> 8) as u8 ^ 0xa7;
        }
        g
    }

    /// The last `len` bytes of the readable page (`len <= page`).
    fn tail(&self, len: usize) -> &[u8] {
        assert!(len <= self.page);
        // SAFETY: the range lies inside the readable page, which `self` keeps mapped and
        // nothing writes while the slice lives (writes need `&mut self`).
        unsafe { core::slice::from_raw_parts(self.base.add(self.page - len), len) }
    }

    /// The last `len` bytes of the readable page, to write.
    fn tail_mut(&mut self, len: usize) -> &mut [u8] {
        assert!(len <= self.page);
        // SAFETY: as in `tail`; `&mut self` makes this the only reference.
        unsafe { core::slice::from_raw_parts_mut(self.base.add(self.page - len), len) }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, unmapped once.
        unsafe { libc::munmap(self.base.cast(), 2 * self.page) };
    }
}

/// Lengths up to a little past two SHA-512 blocks and three SHA3-256 blocks, and a few
/// longer ones.
fn lengths() -> impl Iterator<Item = usize> {
    (0..=420).chain([511, 512, 513, 1000, 1023, 1024, 1025, 4095])
}

/// `h` (a fresh hash on some backend) of `m` against the default backend's digest of a
/// copy of `m` in an ordinary buffer.
fn one_equal<H: Hash>(mut h: H, m: &[u8], what: &str)
where
    H::Output: PartialEq + core::fmt::Debug,
{
    h.update(m);
    let copy = m.to_vec();
    assert_eq!(h.finalize(), H::digest(&copy), "{what}, length {}", m.len());
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are foreign calls")]
fn one_message_hashes_read_nothing_past_the_end() {
    let g = Guarded::new();
    for b in common::backends::<Sha256Backend>() {
        for len in lengths() {
            let what = format!("{} sha-256", b.name());
            one_equal(Sha256::with_backend(b).unwrap(), g.tail(len), &what);
            one_equal(Sha224::with_backend(b).unwrap(), g.tail(len), &what);
        }
    }
    for b in common::backends::<Sha512Backend>() {
        for len in lengths() {
            let what = format!("{} sha-512", b.name());
            one_equal(Sha512::with_backend(b).unwrap(), g.tail(len), &what);
        }
    }
    for b in common::backends::<KeccakBackend>() {
        for len in lengths() {
            let m = g.tail(len);
            one_equal(Sha3_256::with_backend(b).unwrap(), m, b.name());
            // The reference from a copy in an ordinary buffer.
            let copy = m.to_vec();
            let mut x = Shake128::with_backend(b).unwrap();
            x.update(m);
            let mut got = [0u8; 200];
            x.finalize_xof().read(&mut got);
            let mut r = Shake128::new();
            r.update(&copy);
            let mut want = [0u8; 200];
            r.finalize_xof().read(&mut want);
            assert_eq!(got, want, "shake128 {} len {len}", b.name());
        }
    }
}

/// Messages of `lens`, all ending at the guard page.
fn batch<'a>(g: &'a Guarded, lens: &[usize]) -> Vec<&'a [u8]> {
    lens.iter().map(|&n| g.tail(n)).collect()
}

/// Batches: forty messages of one length (full lane sets and a remainder), and forty of
/// lengths spread around that one (several block counts, each message its own tail).
fn batches(len: usize) -> [Vec<usize>; 2] {
    [
        vec![len; 40],
        (0..40).map(|i| len.saturating_sub(20) + i).collect(),
    ]
}

/// A `digest_many_with_backend` function on backends `B` with `N`-byte digests.
type Many<B, const N: usize> = fn(B, &[&[u8]], &mut [[u8; N]]) -> Result<(), shyfr::Error>;

/// `many` (a `digest_many_with_backend`) on backend `b` against `one` (the one-message
/// digest) of a copy of each of `msgs` in an ordinary buffer.
fn many_equal<B: Copy + core::fmt::Debug, const N: usize>(
    b: B,
    many: Many<B, N>,
    one: fn(&[u8]) -> [u8; N],
    msgs: &[&[u8]],
) {
    let mut out = vec![[0u8; N]; msgs.len()];
    many(b, msgs, &mut out).unwrap();
    for (m, d) in msgs.iter().zip(&out) {
        let copy = m.to_vec();
        assert_eq!(
            *d,
            one(&copy),
            "{N}-byte digest_many, {b:?}, length {}",
            m.len()
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are foreign calls")]
fn digest_many_reads_nothing_past_the_end() {
    let g = Guarded::new();
    let lens = (0..=300)
        .step_by(7)
        .chain([55, 56, 63, 64, 111, 112, 127, 128, 135, 136]);
    for len in lens {
        for lens in batches(len) {
            let msgs = batch(&g, &lens);
            let copies: Vec<Vec<u8>> = msgs.iter().map(|m| m.to_vec()).collect();
            for b in common::backends::<Sha256ManyBackend>() {
                many_equal(b, Sha256::digest_many_with_backend, Sha256::digest, &msgs);
                many_equal(b, Sha224::digest_many_with_backend, Sha224::digest, &msgs);
            }
            for b in common::backends::<Sha512ManyBackend>() {
                many_equal(b, Sha512::digest_many_with_backend, Sha512::digest, &msgs);
                many_equal(b, Sha384::digest_many_with_backend, Sha384::digest, &msgs);
                let f = Sha512_256::digest_many_with_backend;
                many_equal(b, f, Sha512_256::digest, &msgs);
            }
            for b in common::backends::<KeccakBackend>() {
                many_equal(
                    b,
                    Sha3_256::digest_many_with_backend,
                    Sha3_256::digest,
                    &msgs,
                );
                many_equal(
                    b,
                    Sha3_512::digest_many_with_backend,
                    Sha3_512::digest,
                    &msgs,
                );
                // Longer than SHAKE256's rate: the squeeze permutes the batch again.
                let n = 150;
                let mut out = vec![0u8; n * msgs.len()];
                Shake256::digest_many_into_with_backend(b, &msgs, n, &mut out).unwrap();
                for (c, d) in copies.iter().zip(out.chunks(n)) {
                    let mut x = Shake256::new();
                    x.update(c);
                    let mut want = vec![0u8; n];
                    x.finalize_xof().read(&mut want);
                    assert_eq!(d, &want[..], "shake256 many {}", b.name());
                }
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are foreign calls")]
fn aes_gcm_reads_and_writes_nothing_past_the_end() {
    let (mut src, mut dst) = (Guarded::new(), Guarded::new());
    let (nonce, aad) = ([7u8; 12], [9u8; 13]);
    for a in common::backends::<aes::Backend>() {
        for gb in common::backends::<ghash::Backend>() {
            for key in [&[1u8; 16][..], &[2u8; 32][..]] {
                let fused = AesGcm::with_backends(key, a, gb).unwrap();
                let generic = AesGcm::with_backends_generic(key, a, gb).unwrap();
                for g in [&fused, &generic] {
                    let what = format!("{a:?} {gb:?} {} key {}", g.engine(), key.len());
                    for len in (0..=600).chain([1023, 1024, 2047, 4095, 4096]) {
                        let pt = src.tail(len).to_vec();
                        let mut want = pt.clone();
                        let tag = generic.seal_in_place(&nonce, &aad, &mut want).unwrap();
                        // Sealing: the plaintext and the ciphertext end at guard pages.
                        let t = g
                            .seal_to(&nonce, &aad, src.tail(len), dst.tail_mut(len))
                            .unwrap();
                        assert_eq!(
                            (dst.tail(len), t),
                            (&want[..], tag),
                            "{what} len {len}: seal_to"
                        );
                        // Opening from there, to there, and in place there.
                        g.open_to(
                            &nonce,
                            &aad,
                            dst.tail(len),
                            tag.as_bytes(),
                            src.tail_mut(len),
                        )
                        .unwrap();
                        assert_eq!(src.tail(len), &pt[..], "{what} len {len}: open_to");
                        let t = g.seal_in_place(&nonce, &aad, src.tail_mut(len)).unwrap();
                        assert_eq!(
                            (src.tail(len), t),
                            (&want[..], tag),
                            "{what}: seal in place"
                        );
                        g.open_in_place(&nonce, &aad, src.tail_mut(len), tag.as_bytes())
                            .unwrap();
                        assert_eq!(src.tail(len), &pt[..], "{what} len {len}: open in place");
                    }
                }
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are foreign calls")]
fn aes_modes_touch_nothing_past_the_end() {
    let mut g = Guarded::new();
    let (key, iv) = ([3u8; 32], [5u8; 16]);
    let soft = || Aes::with_backend(&key, aes::Backend::Soft).unwrap();
    for b in common::backends::<aes::Backend>() {
        let c = Aes::with_backend(&key, b).unwrap();
        for len in (0..=1040).chain([2048, 4095, 4096]) {
            let what = format!("{b:?} len {len}");
            let data = g.tail(len).to_vec();
            // CTR, in place at the guard.
            let mut want = data.clone();
            Ctr::new(soft(), &iv)
                .unwrap()
                .apply_keystream(&mut want)
                .unwrap();
            Ctr::new(&c, &iv)
                .unwrap()
                .apply_keystream(g.tail_mut(len))
                .unwrap();
            assert_eq!(g.tail(len), &want[..], "{what}: ctr");
            g.tail_mut(len).copy_from_slice(&data);
            // ECB and XTS (whole blocks; XTS from one block with stealing).
            if len % 16 == 0 {
                let mut want = data.clone();
                Ecb::new(soft()).encrypt(&mut want).unwrap();
                Ecb::new(&c).encrypt(g.tail_mut(len)).unwrap();
                assert_eq!(g.tail(len), &want[..], "{what}: ecb");
                g.tail_mut(len).copy_from_slice(&data);
            }
            if len >= 16 {
                let mut want = data.clone();
                Xts::new(soft(), soft())
                    .unwrap()
                    .encrypt(&iv, &mut want)
                    .unwrap();
                let x = Xts::new(&c, &c).unwrap();
                x.encrypt(&iv, g.tail_mut(len)).unwrap();
                assert_eq!(g.tail(len), &want[..], "{what}: xts");
                x.decrypt(&iv, g.tail_mut(len)).unwrap();
                assert_eq!(g.tail(len), &data[..], "{what}: xts decrypt");
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are foreign calls")]
fn kalyna_touches_nothing_past_the_end() {
    let (mut src, mut dst) = (Guarded::new(), Guarded::new());
    for (bits, kl) in [
        (128usize, 16usize),
        (128, 32),
        (256, 32),
        (256, 64),
        (512, 64),
    ] {
        let key: Vec<u8> = (0..kl).map(|i| (i * 13 + 1) as u8).collect();
        let bl = bits / 8;
        let soft = Kalyna::with_backend(bits, &key, kalyna::Backend::Soft).unwrap();
        for b in common::backends::<kalyna::Backend>() {
            let k = Kalyna::with_backend(bits, &key, b).unwrap();
            for n in (0..=40).chain([63, 64]) {
                let len = n * bl;
                let what = format!("{b:?} {bits}/{} {n} blocks", 8 * kl);
                let data = src.tail(len).to_vec();
                // ECB from one guarded buffer into another, then back in place.
                let mut want = data.clone();
                soft.encrypt_blocks(&mut want).unwrap();
                k.encrypt_blocks_to(src.tail(len), dst.tail_mut(len))
                    .unwrap();
                assert_eq!(dst.tail(len), &want[..], "{what}: ecb");
                k.decrypt_blocks(dst.tail_mut(len)).unwrap();
                assert_eq!(dst.tail(len), &data[..], "{what}: ecb decrypt");
                // Gamma (CTR) and CBC decryption in place.
                let ctr0: Vec<u8> = (0..bl).map(|i| (i * 3) as u8).collect();
                let (mut c1, mut c2) = (ctr0.clone(), ctr0.clone());
                let mut want = data.clone();
                soft.gamma_blocks(&mut c2, InOutBuf::in_place(&mut want))
                    .unwrap();
                k.gamma_blocks(&mut c1, InOutBuf::in_place(dst.tail_mut(len)))
                    .unwrap();
                assert_eq!((dst.tail(len), &c1), (&want[..], &c2), "{what}: gamma");
                let (mut i1, mut i2) = (ctr0.clone(), ctr0);
                let mut want = data.clone();
                soft.cbc_encrypt_blocks(&mut i2, InOutBuf::in_place(&mut want))
                    .unwrap();
                k.cbc_encrypt_blocks(&mut i1, InOutBuf::in_place(src.tail_mut(len)))
                    .unwrap();
                assert_eq!(src.tail(len), &want[..], "{what}: cbc");
                src.tail_mut(len).copy_from_slice(&data);
            }
        }
    }
}
