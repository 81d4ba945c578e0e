//! Properties of the modes: fused (wide) AES kernels equal the portable defaults for every
//! length, streaming equals one shot for random split points, in place equals buffer to
//! buffer, parallel equals one thread, counters wrap as specified, other block lengths
//! work, and every bad input is an error — under every AES backend the CPU offers.

mod common;
mod modes_common;

use common::{aes_backends, aes_key};
use modes_common::{pattern, Plain, Toy};
use proptest::prelude::*;
use shyfr::aead::gcm::{self, AesGcm};
use shyfr::aead::ghash::{self, Ghash};
use shyfr::aes::{Aes, Aes128, Aes256, Backend};
use shyfr::block::InOutBuf;
use shyfr::mode::cbc::{Cbc, CbcDecryptor, CbcEncryptor};
use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
use shyfr::mode::cmac::Cmac;
use shyfr::mode::ctr::Ctr;
use shyfr::mode::ecb::Ecb;
use shyfr::mode::kw::{Kw, Kwp};
use shyfr::mode::ofb::Ofb;
use shyfr::mode::xts::Xts;
use shyfr::mode::BlockModes;
use shyfr::pad::Padding;
use shyfr::Error;

/// The widest batch of any backend is 32 blocks (x86_vaes512).
const MAX_BLOCKS: usize = 3 * 32 + 1;

/// Every mode's result on `data` with cipher `c` (one block length `B`), one after the
/// other, so that two ciphers can be compared in one go.
fn all_modes<C: BlockModes + Sync>(c: &C, iv: &[u8], data: &[u8]) -> Vec<Vec<u8>> {
    let b = C::BLOCK_LEN;
    let whole = &data[..data.len() / b * b];
    let mut out = Vec::new();
    let mut run = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut v = data.to_vec();
        f(&mut v);
        out.push(v);
    };
    run(&|v| Ctr::new(c, iv).unwrap().apply_keystream(v).unwrap());
    run(&|v| {
        Ctr::with_counter_len(c, iv, 4)
            .unwrap()
            .apply_keystream(v)
            .unwrap()
    });
    run(&|v| Ofb::new(c, iv).unwrap().apply_keystream(v).unwrap());
    run(&|v| CfbEncryptor::new(c, iv).unwrap().update(v).unwrap());
    run(&|v| CfbDecryptor::new(c, iv).unwrap().update(v).unwrap());
    run(&|v| {
        v.truncate(whole.len());
        Cbc::new(c).encrypt(iv, v).unwrap()
    });
    run(&|v| {
        v.truncate(whole.len());
        Cbc::new(c).decrypt(iv, v).unwrap()
    });
    run(&|v| {
        v.truncate(whole.len());
        Ecb::new(c).encrypt(v).unwrap()
    });
    // An error must fail the test, not compare equal to another error as an empty tag.
    run(&|v| *v = Cmac::mac(c, data).unwrap().as_bytes().to_vec());
    out
}

/// XTS results (encrypt, decrypt) of `data` (at least 16 bytes).
fn xts_modes<C: BlockModes + Sync>(k1: C, k2: C, tweak: &[u8; 16], data: &[u8]) -> [Vec<u8>; 2] {
    let x = Xts::new(k1, k2).unwrap();
    let mut e = data.to_vec();
    x.encrypt(tweak, &mut e).unwrap();
    let mut d = data.to_vec();
    x.decrypt(tweak, &mut d).unwrap();
    [e, d]
}

/// IVs that put the low 32 bits of the counter just before a wrap, so the wide CTR path
/// crosses it for the longer lengths.
fn ivs() -> [[u8; 16]; 2] {
    let mut a = [0u8; 16];
    a.copy_from_slice(&pattern(16, 3));
    let mut b = a;
    b[12..].copy_from_slice(&(u32::MAX - 20).to_be_bytes());
    [a, b]
}

#[test]
fn fused_paths_equal_portable_for_every_length() {
    for b in aes_backends() {
        for klen in [16, 24, 32] {
            let key = pattern(klen, klen as u8);
            let aes = Aes::with_backend(&key, b).unwrap();
            let plain = Plain(Aes::with_backend(&key, Backend::Soft).unwrap());
            let aes2 = Aes::with_backend(&pattern(klen, 99), b).unwrap();
            let plain2 = Plain(Aes::with_backend(&pattern(klen, 99), Backend::Soft).unwrap());
            for iv in ivs() {
                for n in 0..=MAX_BLOCKS {
                    for extra in [0usize, 1, 7, 15] {
                        let data = pattern(16 * n + extra, n as u8);
                        let what = format!("{b:?} AES-{} {n} blocks + {extra}", klen * 8);
                        assert_eq!(
                            all_modes(&aes, &iv, &data),
                            all_modes(&plain, &iv, &data),
                            "{what}"
                        );
                        if data.len() >= 16 {
                            let tw = iv;
                            assert_eq!(
                                xts_modes(&aes, &aes2, &tw, &data),
                                xts_modes(&plain, &plain2, &tw, &data),
                                "{what} xts"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The fused trait methods, called directly, update their chaining values like the
/// portable ones (the modes rely on it when they chain calls).
#[test]
fn chaining_values_match_portable() {
    for b in aes_backends() {
        let aes = Aes::with_backend(&[5u8; 16], b).unwrap();
        let plain = Plain(Aes::with_backend(&[5u8; 16], Backend::Soft).unwrap());
        for n in [0usize, 1, 2, 7, 8, 9, 24, 33, 64] {
            let data = pattern(16 * n, 1);
            for iv in ivs() {
                for which in 0..7 {
                    let mut s1 = iv;
                    let mut s2 = iv;
                    let mut o1 = data.clone();
                    let mut o2 = data.clone();
                    call(&aes, which, &mut s1, &mut o1);
                    call(&plain, which, &mut s2, &mut o2);
                    assert_eq!((s1, &o1), (s2, &o2), "{b:?} op {which} {n} blocks");
                }
            }
        }
    }
}

fn call<C: BlockModes>(c: &C, which: usize, state: &mut [u8; 16], data: &mut [u8]) {
    let io = InOutBuf::in_place(data);
    match which {
        0 => c.ctr_blocks(state, 16, io),
        1 => c.ctr_blocks(state, 4, io),
        2 => c.cbc_encrypt_blocks(state, io),
        3 => c.cbc_decrypt_blocks(state, io),
        4 => c.cfb_decrypt_blocks(state, io),
        5 => c.xts_encrypt_blocks(state, io),
        _ => c.cbc_mac_blocks(state, data),
    }
    .unwrap()
}

/// Random split points of `len` into up to 6 chunks.
fn splits(len: usize, cuts: &[usize]) -> Vec<usize> {
    let mut v: Vec<usize> = cuts.iter().map(|c| c % (len + 1)).collect();
    v.push(0);
    v.push(len);
    v.sort();
    v
}

fn stream_equals_one_shot<C: BlockModes + Sync>(c: &C, iv: &[u8], data: &[u8], cuts: &[usize]) {
    let b = C::BLOCK_LEN;
    let pts = splits(data.len(), cuts);
    let chunks = || pts.windows(2).map(|w| (w[0], w[1]));

    // CTR, OFB, CFB (all segments): in place per chunk and buffer to buffer per chunk.
    let mut one = data.to_vec();
    Ctr::new(c, iv).unwrap().apply_keystream(&mut one).unwrap();
    let mut s = Ctr::new(c, iv).unwrap();
    let mut st = data.to_vec();
    let mut b2b = vec![0u8; data.len()];
    let mut s2 = Ctr::new(c, iv).unwrap();
    for (x, y) in chunks() {
        s.apply_keystream(&mut st[x..y]).unwrap();
        s2.apply_keystream_to(&data[x..y], &mut b2b[x..y]).unwrap();
    }
    assert_eq!(st, one, "ctr stream");
    assert_eq!(b2b, one, "ctr to buffer");
    // Seek to every split point and continue from there.
    for (x, _) in chunks() {
        let mut t = data[x..].to_vec();
        let mut s = Ctr::new(c, iv).unwrap();
        s.seek(x as u128).unwrap();
        assert_eq!(s.position(), x as u128);
        s.apply_keystream(&mut t).unwrap();
        assert_eq!(t, one[x..], "ctr seek {x}");
    }

    let mut one = data.to_vec();
    Ofb::new(c, iv).unwrap().apply_keystream(&mut one).unwrap();
    let mut s = Ofb::new(c, iv).unwrap();
    let mut st = data.to_vec();
    for (x, y) in chunks() {
        s.apply_keystream(&mut st[x..y]).unwrap();
    }
    assert_eq!(st, one, "ofb stream");

    for seg in [Segment::Block, Segment::Byte, Segment::Bit] {
        let mut one = data.to_vec();
        CfbEncryptor::with_segment(c, iv, seg)
            .unwrap()
            .update(&mut one)
            .unwrap();
        let mut e = CfbEncryptor::with_segment(c, iv, seg).unwrap();
        let mut d = CfbDecryptor::with_segment(c, iv, seg).unwrap();
        let mut st = data.to_vec();
        let mut back = vec![0u8; data.len()];
        for (x, y) in chunks() {
            e.update(&mut st[x..y]).unwrap();
            d.update_to(&one[x..y], &mut back[x..y]).unwrap();
        }
        assert_eq!(st, one, "cfb {seg:?} stream");
        assert_eq!(back, data, "cfb {seg:?} decrypt stream");
    }

    // CBC with each padding: update_to at random points, then finalize_to.
    for pad in [Padding::Pkcs7, Padding::Iso7816, Padding::None] {
        let msg = if pad == Padding::None {
            &data[..data.len() / b * b]
        } else {
            data
        };
        let cbc = Cbc::new(c);
        let mut one = vec![0u8; msg.len() + b];
        let n = cbc.encrypt_padded_to(iv, msg, &mut one, pad).unwrap();
        one.truncate(n);
        let pts = splits(msg.len(), cuts);
        let mut e = CbcEncryptor::new(c, iv, pad).unwrap();
        let mut got = vec![0u8; msg.len() + b];
        let mut o = 0;
        for w in pts.windows(2) {
            o += e.update_to(&msg[w[0]..w[1]], &mut got[o..]).unwrap();
        }
        o += e.finalize_to(&mut got[o..]).unwrap();
        assert_eq!(&got[..o], &one[..], "cbc {pad:?} stream");
        // Decrypt streamed at split points of the ciphertext.
        let pts = splits(one.len(), cuts);
        let mut d = CbcDecryptor::new(c, iv, pad).unwrap();
        let mut back = vec![0u8; one.len()];
        let mut o = 0;
        for w in pts.windows(2) {
            o += d.update_to(&one[w[0]..w[1]], &mut back[o..]).unwrap();
        }
        o += d.finalize_to(&mut back[o..]).unwrap();
        assert_eq!(&back[..o], msg, "cbc {pad:?} decrypt stream");
        // In place: whole-block chunks, then finalize on the last one.
        let max_cut = one.len() / b - usize::from(pad != Padding::None);
        let cut = (cuts.first().copied().unwrap_or(0) % (max_cut + 1)) * b;
        let mut buf = one.clone();
        let mut d = CbcDecryptor::new(c, iv, pad).unwrap();
        let (head, tail) = buf.split_at_mut(cut);
        d.update(head).unwrap();
        let m = d.finalize(tail).unwrap().len();
        assert_eq!(cut + m, msg.len());
        assert_eq!(&buf[..msg.len()], msg, "cbc {pad:?} in place");
        let mut buf = vec![0u8; one.len()];
        buf[..msg.len()].copy_from_slice(msg);
        let cut = cut.min(msg.len() / b * b);
        let mut e = CbcEncryptor::new(c, iv, pad).unwrap();
        let (head, tail) = buf.split_at_mut(cut);
        e.update(head).unwrap();
        e.finalize(tail, msg.len() - cut).unwrap();
        assert_eq!(buf, one, "cbc {pad:?} encrypt in place");
    }

    // CMAC.
    let one = Cmac::mac(c, data).unwrap();
    let mut m = Cmac::new(c).unwrap();
    for (x, y) in chunks() {
        m.update(&data[x..y]);
    }
    assert_eq!(m.finalize().as_bytes(), one.as_bytes(), "cmac stream");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn streaming_equals_one_shot_aes(
        len in 0usize..700,
        cuts in prop::collection::vec(any::<usize>(), 0..6),
        seed in any::<u8>(),
        klen in prop::sample::select(vec![16usize, 24, 32]),
    ) {
        let data = pattern(len, seed);
        let iv = pattern(16, seed ^ 0x5a);
        for b in aes_backends() {
            let aes = Aes::with_backend(&pattern(klen, seed), b).unwrap();
            stream_equals_one_shot(&aes, &iv, &data, &cuts);
        }
    }

    #[test]
    fn streaming_equals_one_shot_other_block_lengths(
        len in 0usize..400,
        cuts in prop::collection::vec(any::<usize>(), 0..6),
        seed in any::<u8>(),
    ) {
        let data = pattern(len, seed);
        stream_equals_one_shot(&Toy::<8>::new(seed), &pattern(8, seed), &data, &cuts);
        stream_equals_one_shot(&Toy::<32>::new(seed), &pattern(32, seed), &data, &cuts);
        stream_equals_one_shot(&Toy::<64>::new(seed), &pattern(64, seed), &data, &cuts);
    }

    /// Every backend against the portable one on random keys, IVs and lengths.
    #[test]
    fn backends_equal_soft(
        key in aes_key(),
        iv in prop::array::uniform16(any::<u8>()),
        len in 0usize..2000,
        seed in any::<u8>(),
    ) {
        let data = pattern(len, seed);
        let soft = Aes::with_backend(&key, Backend::Soft).unwrap();
        let expect = all_modes(&soft, &iv, &data);
        for b in aes_backends() {
            let aes = Aes::with_backend(&key, b).unwrap();
            prop_assert_eq!(&all_modes(&aes, &iv, &data), &expect, "{:?}", b);
        }
    }
}

/// In place and buffer to buffer agree for every one-shot API.
#[test]
fn in_place_equals_buffer_to_buffer() {
    for b in aes_backends() {
        let aes = Aes::with_backend(&[9u8; 32], b).unwrap();
        let iv = [4u8; 16];
        for len in [0usize, 16, 48, 160, 1024] {
            let data = pattern(len, 2);
            let ecb = Ecb::new(&aes);
            let cbc = Cbc::new(&aes);
            type Pair<'a> = (
                Box<dyn Fn(&mut [u8]) -> Result<(), Error> + 'a>,
                Box<dyn Fn(&[u8], &mut [u8]) -> Result<(), Error> + 'a>,
            );
            let pairs: Vec<(&str, Pair)> = vec![
                (
                    "ecb enc",
                    (
                        Box::new(|v| ecb.encrypt(v)),
                        Box::new(|i, o| ecb.encrypt_to(i, o)),
                    ),
                ),
                (
                    "ecb dec",
                    (
                        Box::new(|v| ecb.decrypt(v)),
                        Box::new(|i, o| ecb.decrypt_to(i, o)),
                    ),
                ),
                (
                    "cbc enc",
                    (
                        Box::new(|v| cbc.encrypt(&iv, v)),
                        Box::new(|i, o| cbc.encrypt_to(&iv, i, o)),
                    ),
                ),
                (
                    "cbc dec",
                    (
                        Box::new(|v| cbc.decrypt(&iv, v)),
                        Box::new(|i, o| cbc.decrypt_to(&iv, i, o)),
                    ),
                ),
            ];
            for (name, (inp, b2b)) in pairs {
                let mut a = data.clone();
                inp(&mut a).unwrap();
                let mut o = vec![0u8; len];
                b2b(&data, &mut o).unwrap();
                assert_eq!(a, o, "{b:?} {name} {len}");
            }
            if len >= 16 {
                let x = Xts::new(&aes, &aes).unwrap();
                let mut a = data.clone();
                x.encrypt_sectors(3, 16, &mut a).unwrap();
                let mut o = vec![0u8; len];
                x.encrypt_sectors_to(3, 16, &data, &mut o).unwrap();
                assert_eq!(a, o, "{b:?} xts sectors {len}");
                for (k, unit) in a.chunks(16).enumerate() {
                    let mut u = data[16 * k..16 * k + 16].to_vec();
                    x.encrypt_sector(3 + k as u128, &mut u).unwrap();
                    assert_eq!(u, unit, "{b:?} xts sector {k}");
                }
            }
        }
    }
}

/// Large buffers (split across threads with `--features parallel`) give the same result
/// as the single-threaded trait calls.
#[test]
fn parallel_equals_single_thread() {
    let len = 3 * shyfr::mode::PARALLEL_MIN_LEN + 48;
    let data = pattern(len, 7);
    for b in aes_backends() {
        let aes = Aes::with_backend(&[3u8; 16], b).unwrap();
        let iv = {
            let mut v = [0xabu8; 16];
            v[12..].copy_from_slice(&(u32::MAX - 1000).to_be_bytes());
            v
        };
        // CTR: the whole buffer in one trait call.
        let mut one = data.clone();
        let mut ctr = iv;
        aes.ctr_blocks(&mut ctr, 16, InOutBuf::in_place(&mut one))
            .unwrap();
        let mut par = data.clone();
        Ctr::new(&aes, &iv)
            .unwrap()
            .apply_keystream(&mut par)
            .unwrap();
        assert!(par == one, "{b:?} ctr");
        // ECB.
        let mut one = data.clone();
        aes.encrypt_blocks(&mut one).unwrap();
        let mut par = data.clone();
        Ecb::new(&aes).encrypt(&mut par).unwrap();
        assert!(par == one, "{b:?} ecb");
        // CBC decryption, in place and to a buffer.
        let mut one = data.clone();
        let mut v = iv;
        aes.cbc_decrypt_blocks(&mut v, InOutBuf::in_place(&mut one))
            .unwrap();
        let mut par = data.clone();
        Cbc::new(&aes).decrypt(&iv, &mut par).unwrap();
        assert!(par == one, "{b:?} cbc in place");
        let mut out = vec![0u8; len];
        Cbc::new(&aes).decrypt_to(&iv, &data, &mut out).unwrap();
        assert!(out == one, "{b:?} cbc to buffer");
        // XTS over many 4 KiB data units (plus a stolen tail per unit with 4112).
        for unit in [4096usize, 4112] {
            let n = len / unit;
            let k2 = Aes::with_backend(&[4u8; 16], b).unwrap();
            let x = Xts::new(&aes, &k2).unwrap();
            let mut par = data[..n * unit].to_vec();
            x.encrypt_sectors(1 << 70, unit, &mut par).unwrap();
            let mut one = data[..n * unit].to_vec();
            for (k, u) in one.chunks_mut(unit).enumerate() {
                x.encrypt_sector((1 << 70) + k as u128, u).unwrap();
            }
            assert!(par == one, "{b:?} xts {unit}");
            x.decrypt_sectors(1 << 70, unit, &mut par).unwrap();
            assert!(par == data[..n * unit], "{b:?} xts {unit} decrypt");
        }
    }
}

/// The tag and output of a one-shot GCM call on one thread: the streaming encryptor, fed
/// in pieces, never splits across threads.
fn gcm_streamed(g: &AesGcm, nonce: &[u8], aad: &[u8], data: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut out = data.to_vec();
    let mut e = g.encryptor(nonce).unwrap();
    e.update_aad(aad).unwrap();
    for c in out.chunks_mut(100_003) {
        e.encrypt(c).unwrap();
    }
    (out, e.finalize().as_bytes().to_vec())
}

/// A nonce (13 bytes) whose first counter block's last word lies within `blocks` blocks
/// of wrapping, so that a message of that many blocks wraps the 32-bit counter.
fn nonce_near_wrap(key: &[u8; 16], blocks: u32) -> Vec<u8> {
    let mut h = [0u8; 16];
    Aes::new_from_slice(key)
        .unwrap()
        .encrypt_blocks(&mut h)
        .unwrap();
    for i in 0u64.. {
        let mut nonce = vec![0x42u8; 13];
        nonce[..8].copy_from_slice(&i.to_le_bytes());
        let mut gh = Ghash::new(&h);
        gh.update_padded(&nonce);
        let mut len = [0u8; 16];
        len[8..].copy_from_slice(&(13u64 * 8).to_be_bytes());
        gh.update_blocks(&len).unwrap();
        let j0 = gh.finalize();
        let low = u32::from_be_bytes([j0[12], j0[13], j0[14], j0[15]]);
        if low > u32::MAX - blocks + 10 {
            return nonce;
        }
    }
    unreachable!()
}

/// One-shot GCM on large buffers (split across threads with `--features parallel`, here
/// also in pools of 1, 3 and 5 threads) equals the single-threaded streaming result, for
/// seal and open, in place and to a buffer, with the counter wrapping inside a piece, and
/// a wrong tag leaves the buffer zero.
#[test]
fn gcm_parallel_equals_single_thread() {
    let min = gcm::PARALLEL_MIN_LEN;
    let lens = [min - 1, min, min + 17, 2 * min + 16 * 7 + 5, 9 * min + 3];
    for b in aes_backends() {
        for fused in [false, true] {
            let key = [9u8; 16];
            let g = if fused {
                AesGcm::new_from_slice(&key).unwrap()
            } else {
                AesGcm::with_backends_generic(&key, b, ghash::Backend::best()).unwrap()
            };
            if fused && (b != Backend::best() || g.engine() == "generic") {
                continue;
            }
            let wrap = nonce_near_wrap(&key, (2 * min / 16) as u32);
            for threads in [0usize, 1, 3, 5] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                for (k, &len) in lens.iter().enumerate() {
                    if b == Backend::Soft && len > 3 * min {
                        continue;
                    }
                    let data = pattern(len, k as u8);
                    let nonce: Vec<u8> = if k == 3 {
                        wrap.clone()
                    } else {
                        vec![k as u8; 12]
                    };
                    let aad = pattern(k * 7, 3);
                    let what = format!("{b:?} fused {fused} threads {threads} len {len}");
                    let (ct, tag) = gcm_streamed(&g, &nonce, &aad, &data);
                    pool.install(|| {
                        let mut buf = data.clone();
                        let t = g.seal_in_place(&nonce, &aad, &mut buf).unwrap();
                        assert!(buf == ct, "{what}: seal_in_place");
                        assert_eq!(t.as_bytes(), &tag[..], "{what}: tag");
                        let mut out = vec![0u8; len];
                        let t = g.seal_to(&nonce, &aad, &data, &mut out).unwrap();
                        assert!(out == ct && t.as_bytes() == &tag[..], "{what}: seal_to");
                        g.open_in_place(&nonce, &aad, &mut buf, &tag).unwrap();
                        assert!(buf == data, "{what}: open_in_place");
                        g.open_to(&nonce, &aad, &ct, &tag, &mut out).unwrap();
                        assert!(out == data, "{what}: open_to");
                        let mut bad = tag.clone();
                        bad[len % 16] ^= 1;
                        let mut buf = ct.clone();
                        assert_eq!(
                            g.open_in_place(&nonce, &aad, &mut buf, &bad),
                            Err(Error::AuthenticationFailed)
                        );
                        assert!(buf.iter().all(|&x| x == 0), "{what}: zeroed");
                        let mut ct2 = ct.clone();
                        ct2[len / 2] ^= 0x80;
                        assert_eq!(
                            g.open_to(&nonce, &aad, &ct2, &tag, &mut out),
                            Err(Error::AuthenticationFailed)
                        );
                        assert!(out.iter().all(|&x| x == 0), "{what}: zeroed (to)");
                    });
                }
            }
        }
    }
}

#[test]
fn counters_wrap_as_specified() {
    for b in aes_backends() {
        let aes = Aes::with_backend(&[1u8; 16], b).unwrap();
        let plain = Plain(Aes::with_backend(&[1u8; 16], Backend::Soft).unwrap());
        // 32-bit counter: wraps to 0 without touching the nonce.
        let mut iv = [0x77u8; 16];
        iv[12..].copy_from_slice(&[0xff, 0xff, 0xff, 0xfe]);
        let data = pattern(16 * 40, 1);
        let mut got = data.clone();
        Ctr::with_counter_len(&aes, &iv, 4)
            .unwrap()
            .apply_keystream(&mut got)
            .unwrap();
        let mut expect = data.clone();
        for (i, blk) in expect.chunks_mut(16).enumerate() {
            let mut cb = iv;
            let c = 0xffff_fffeu32.wrapping_add(i as u32);
            cb[12..].copy_from_slice(&c.to_be_bytes());
            aes.encrypt_block(&mut cb);
            blk.iter_mut().zip(cb).for_each(|(x, k)| *x ^= k);
        }
        assert_eq!(got, expect, "{b:?} 32-bit wrap");
        // Full-width counter: carries through every byte, then wraps 2^128 to 0.
        for start in [[0xffu8; 16], {
            let mut v = [0u8; 16];
            v[..12].copy_from_slice(&[0x42; 12]);
            v[12..].copy_from_slice(&[0xff; 4]);
            v
        }] {
            let mut got = data.clone();
            Ctr::new(&aes, &start)
                .unwrap()
                .apply_keystream(&mut got)
                .unwrap();
            let mut expect = data.clone();
            Ctr::new(&plain, &start)
                .unwrap()
                .apply_keystream(&mut expect)
                .unwrap();
            assert_eq!(got, expect, "{b:?} full-width wrap");
            let first = u128::from_be_bytes(start);
            let mut cb = first.wrapping_add(3).to_be_bytes();
            aes.encrypt_block(&mut cb);
            let ks3: Vec<u8> = got[48..64]
                .iter()
                .zip(&data[48..64])
                .map(|(a, b)| a ^ b)
                .collect();
            assert_eq!(ks3, cb, "{b:?} block 3 counter");
        }
        // An 8-bit counter has 256 values: using them all is fine, one more is an error
        // that leaves the stream where it was.
        let mut ctr = Ctr::with_counter_len(&aes, &[0u8; 16], 1).unwrap();
        let mut buf = vec![0u8; 255 * 16 + 3];
        ctr.apply_keystream(&mut buf).unwrap();
        let mut more = [0u8; 14];
        assert!(matches!(
            ctr.apply_keystream(&mut more),
            Err(Error::TooLong { .. })
        ));
        assert_eq!(more, [0u8; 14], "untouched on error");
        ctr.apply_keystream(&mut more[..13]).unwrap();
        assert_eq!(ctr.position(), 256 * 16);
        assert!(ctr.apply_keystream(&mut [0u8; 1]).is_err());
        assert!(ctr.seek(256 * 16).is_ok());
        assert!(ctr.seek(256 * 16 + 1).is_err());
        let mut ctr = Ctr::with_counter_len(&aes, &[0u8; 16], 2).unwrap();
        assert!(ctr.seek(65536 * 16 - 5).is_ok());
        let mut five = [0u8; 5];
        ctr.apply_keystream(&mut five).unwrap();
        let mut cb = [0u8; 16];
        cb[14..].copy_from_slice(&[0xff, 0xff]);
        aes.encrypt_block(&mut cb);
        assert_eq!(five, cb[11..], "{b:?} last keystream bytes");
    }
}

#[test]
fn bad_inputs_are_errors() {
    let aes = Aes128::new(&[1; 16]);
    for bad in [0usize, 8, 15, 17, 32] {
        let iv = vec![0u8; bad];
        let e = Error::InvalidNonceLength { got: bad };
        assert_eq!(Ctr::new(&aes, &iv).err(), Some(e));
        assert_eq!(Ofb::new(&aes, &iv).err(), Some(e));
        assert_eq!(CfbEncryptor::new(&aes, &iv).err(), Some(e));
        assert_eq!(CfbDecryptor::new(&aes, &iv).err(), Some(e));
        assert_eq!(CbcEncryptor::new(&aes, &iv, Padding::Pkcs7).err(), Some(e));
        assert_eq!(CbcDecryptor::new(&aes, &iv, Padding::Pkcs7).err(), Some(e));
        assert_eq!(Cbc::new(&aes).encrypt(&iv, &mut [0u8; 16]), Err(e));
        assert_eq!(Cbc::new(&aes).decrypt(&iv, &mut [0u8; 16]), Err(e));
        let mut st = vec![0u8; bad];
        assert_eq!(
            aes.ctr_blocks(&mut st, 4, InOutBuf::in_place(&mut [0u8; 16])),
            Err(e)
        );
        assert_eq!(
            aes.cbc_decrypt_blocks(&mut st, InOutBuf::in_place(&mut [0u8; 16])),
            Err(e)
        );
        assert_eq!(aes.cbc_mac_blocks(&mut st, &[0u8; 16]), Err(e));
    }
    for cl in [0usize, 17] {
        assert!(matches!(
            Ctr::with_counter_len(&aes, &[0; 16], cl),
            Err(Error::InvalidParameter { .. })
        ));
        assert!(matches!(
            aes.ctr_blocks(&mut [0; 16], cl, InOutBuf::in_place(&mut [0u8; 16])),
            Err(Error::InvalidParameter { .. })
        ));
    }
    // Not whole blocks where whole blocks are needed.
    let nwb = Error::NotWholeBlocks { len: 17, block: 16 };
    assert_eq!(Cbc::new(&aes).encrypt(&[0; 16], &mut [0u8; 17]), Err(nwb));
    assert_eq!(Cbc::new(&aes).decrypt(&[0; 16], &mut [0u8; 17]), Err(nwb));
    assert_eq!(Ecb::new(&aes).encrypt(&mut [0u8; 17]), Err(nwb));
    assert_eq!(
        aes.xts_encrypt_blocks(&mut [0; 16], InOutBuf::in_place(&mut [0u8; 17])),
        Err(nwb)
    );
    assert_eq!(
        Cbc::new(&aes).encrypt_to(&[0; 16], &[0u8; 16], &mut [0u8; 32]),
        Err(Error::LengthMismatch {
            input: 16,
            output: 32
        })
    );
    // Padding: no room, and every bad padding is one error.
    let cbc = Cbc::new(&aes);
    assert!(matches!(
        cbc.encrypt_padded(&[0; 16], &mut [0u8; 16], 16, Padding::Pkcs7),
        Err(Error::TooShort { .. })
    ));
    let mut ct = [0u8; 32];
    cbc.encrypt(&[0; 16], &mut ct).unwrap(); // random-looking last byte: bad padding
    let mut c2 = ct;
    assert_eq!(
        cbc.decrypt_padded(&[0; 16], &mut c2, Padding::Pkcs7).err(),
        Some(Error::BadPadding)
    );
    assert_eq!(c2, [0u8; 32], "wiped");
    let mut d = CbcDecryptor::new(&aes, &[0; 16], Padding::Pkcs7).unwrap();
    let mut out = [0u8; 32];
    assert_eq!(d.update_to(&ct[..20], &mut out), Ok(16));
    assert_eq!(
        d.finalize_to(&mut out),
        Err(Error::NotWholeBlocks { len: 4, block: 16 })
    );
    let d = CbcDecryptor::new(&aes, &[0; 16], Padding::Pkcs7).unwrap();
    assert_eq!(d.finalize_to(&mut out), Err(Error::BadPadding));
    let mut e = CbcEncryptor::new(&aes, &[0; 16], Padding::None).unwrap();
    assert_eq!(e.update_to(&[0u8; 5], &mut out), Ok(0));
    assert!(matches!(
        e.update(&mut [0u8; 16]),
        Err(Error::InvalidParameter { .. })
    ));
    assert_eq!(
        e.finalize_to(&mut out),
        Err(Error::NotWholeBlocks { len: 5, block: 16 })
    );
    let mut e = CbcEncryptor::new(&aes, &[0; 16], Padding::Pkcs7).unwrap();
    assert!(matches!(
        e.update_to(&[0u8; 40], &mut [0u8; 16]),
        Err(Error::TooShort { .. })
    ));
    // XTS: short units, long units, equal key halves, wrong block length.
    let x = Xts::<Aes128>::from_key(&core::array::from_fn(|i| i as u8)).unwrap();
    for n in [0usize, 1, 15] {
        assert!(matches!(
            x.encrypt(&[0; 16], &mut vec![0u8; n]),
            Err(Error::TooShort { .. })
        ));
        assert!(matches!(
            x.decrypt(&[0; 16], &mut vec![0u8; n]),
            Err(Error::TooShort { .. })
        ));
        assert!(matches!(
            x.encrypt_sectors(0, n, &mut [0u8; 64]),
            Err(Error::TooShort { .. })
        ));
    }
    let mut big = vec![0u8; (16 << 20) + 16];
    assert!(matches!(
        x.encrypt(&[0; 16], &mut big),
        Err(Error::TooLong { .. })
    ));
    assert!(matches!(
        x.encrypt_sectors(0, 512, &mut [0u8; 1000]),
        Err(Error::NotWholeBlocks { .. })
    ));
    assert!(matches!(
        x.encrypt_sectors(u128::MAX, 16, &mut [0u8; 32]),
        Err(Error::TooLong { .. })
    ));
    assert!(matches!(
        Xts::<Aes128>::from_key(&[7; 32]),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        Xts::<Aes256>::from_key(&[7; 64]),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        Xts::<Aes>::from_key_slice(&[1; 40], Backend::Soft),
        Err(Error::InvalidKeyLength { got: 40 })
    ));
    assert!(matches!(
        Xts::new(Toy::<8>::new(1), Toy::<8>::new(2)),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        Toy::<8>::new(1).xts_encrypt_blocks(&mut [0; 16], InOutBuf::in_place(&mut [0u8; 16])),
        Err(Error::InvalidParameter { .. })
    ));
    // KW / KWP lengths and integrity.
    let kw = Kw::new(&aes).unwrap();
    let mut out = [0u8; 64];
    assert!(matches!(
        kw.wrap(&[0u8; 8], &mut out),
        Err(Error::TooShort { .. })
    ));
    assert!(matches!(
        kw.wrap(&[], &mut out),
        Err(Error::TooShort { .. })
    ));
    assert_eq!(
        kw.wrap(&[0u8; 20], &mut out),
        Err(Error::NotWholeBlocks { len: 20, block: 8 })
    );
    assert!(matches!(
        kw.wrap(&[0u8; 16], &mut [0u8; 23]),
        Err(Error::TooShort { .. })
    ));
    assert!(matches!(
        kw.unwrap(&[0u8; 16], &mut out),
        Err(Error::TooShort { .. })
    ));
    assert_eq!(
        kw.unwrap(&[0u8; 25], &mut out),
        Err(Error::NotWholeBlocks { len: 25, block: 8 })
    );
    let mut w = [0u8; 24];
    kw.wrap(&[5u8; 16], &mut w).unwrap();
    for i in 0..24 {
        let mut bad = w;
        bad[i] ^= 1;
        assert_eq!(
            kw.unwrap(&bad, &mut out),
            Err(Error::AuthenticationFailed),
            "byte {i}"
        );
    }
    let kwp = Kwp::new(&aes).unwrap();
    assert!(matches!(
        kwp.wrap(&[], &mut out),
        Err(Error::TooShort { .. })
    ));
    assert!(matches!(
        kwp.unwrap(&[0u8; 8], &mut out),
        Err(Error::TooShort { .. })
    ));
    for len in 1..=20 {
        let mut w = [0u8; 40];
        let n = kwp.wrap(&pattern(len, 1), &mut w).unwrap();
        assert_eq!(n, Kwp::<&Aes128>::wrapped_len(len));
        for i in 0..n {
            let mut bad = w;
            bad[i] ^= 0x80;
            assert_eq!(
                kwp.unwrap(&bad[..n], &mut out),
                Err(Error::AuthenticationFailed)
            );
        }
        let m = kwp.unwrap(&w[..n], &mut out).unwrap();
        assert_eq!(&out[..m], &pattern(len, 1)[..]);
    }
    assert!(matches!(
        Kw::new(Toy::<8>::new(1)),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        Kwp::new(Toy::<32>::new(1)),
        Err(Error::InvalidParameter { .. })
    ));
    // CMAC: tag lengths and mismatches; unsupported block lengths.
    let tag = Cmac::mac(&aes, b"abc").unwrap();
    for n in [0usize, 7, 17] {
        let mut t = tag.as_bytes().to_vec();
        t.resize(n, 0);
        assert_eq!(tag.verify(&t), Err(Error::InvalidTagLength { got: n }));
    }
    assert_eq!(tag.verify(&tag.as_bytes()[..8]), Ok(()));
    let mut t = tag.as_bytes().to_vec();
    t[15] ^= 1;
    assert_eq!(tag.verify(&t), Err(Error::AuthenticationFailed));
    assert!(matches!(
        Cmac::new(Toy::<24>::new(1)),
        Err(Error::InvalidParameter { .. })
    ));
}

/// `t * x` in the tweak field of `t.len()` bytes, written out bit by bit (the reference for
/// the wide-block XTS test): little-endian, reduced by the polynomial for the length.
fn mul_x_ref(t: &mut [u8]) {
    let poly: u16 = match t.len() {
        16 => 0x87,
        32 => 0x425,
        64 => 0x125,
        _ => unreachable!(),
    };
    let top = t[t.len() - 1] >> 7;
    for i in (0..t.len()).rev() {
        let carry = if i > 0 { t[i - 1] >> 7 } else { 0 };
        t[i] = (t[i] << 1) | carry;
    }
    if top == 1 {
        t[0] ^= poly as u8;
        t[1] ^= (poly >> 8) as u8;
    }
}

/// XTS over 256- and 512-bit blocks: whole data units equal the definition
/// `E_K1(P_j ^ T_j) ^ T_j`, `T_j = E_K2(i) * x^j`, block by block; every length (with
/// ciphertext stealing) round-trips, in place and buffer to buffer.
#[test]
fn xts_wide_blocks() {
    fn check<const B: usize>() {
        let (k1, k2) = (Toy::<B>::new(5), Toy::<B>::new(6));
        let x = Xts::new(Toy::<B>::new(5), Toy::<B>::new(6)).unwrap();
        let tweak = pattern(B, 9);
        for blocks in 1..=6 {
            let data = pattern(B * blocks, blocks as u8);
            let mut t = tweak.clone();
            shyfr::BlockCipher::encrypt_blocks(&k2, &mut t).unwrap();
            let mut expect = data.clone();
            for blk in expect.chunks_exact_mut(B) {
                blk.iter_mut().zip(&t).for_each(|(a, b)| *a ^= b);
                shyfr::BlockCipher::encrypt_blocks(&k1, blk).unwrap();
                blk.iter_mut().zip(&t).for_each(|(a, b)| *a ^= b);
                mul_x_ref(&mut t);
            }
            let mut got = data.clone();
            x.encrypt(&tweak, &mut got).unwrap();
            assert_eq!(got, expect, "B={B} blocks={blocks}");
        }
        for len in B..=4 * B + 3 {
            let data = pattern(len, len as u8);
            let mut e = data.clone();
            x.encrypt(&tweak, &mut e).unwrap();
            let mut e2 = vec![0u8; len];
            x.encrypt_to(&tweak, &data, &mut e2).unwrap();
            assert_eq!(e, e2, "B={B} len={len}");
            assert_ne!(e, data);
            x.decrypt(&tweak, &mut e).unwrap();
            assert_eq!(e, data, "B={B} len={len}");
        }
        assert!(matches!(
            x.encrypt(&tweak, &mut vec![0u8; B - 1]),
            Err(Error::TooShort { .. })
        ));
        assert!(matches!(
            x.encrypt(&tweak[..16], &mut vec![0u8; B]),
            Err(Error::InvalidNonceLength { .. })
        ));
        // Sector numbers: the number little-endian, zero-padded to a block.
        let mut a = pattern(3 * B, 1);
        let mut b = a.clone();
        x.encrypt_sector(77, &mut a).unwrap();
        let mut tw = vec![0u8; B];
        tw[0] = 77;
        x.encrypt(&tw, &mut b).unwrap();
        assert_eq!(a, b);
    }
    check::<32>();
    check::<64>();
}

/// The short paths (one kernel call for a few blocks): `ctr_blocks` next to a wrap of
/// the counter's last word (where the short path must hand over to the general one) and
/// `xts_unit_blocks` (tweak encryption fused with the unit) equal the portable defaults,
/// chaining value included, for 0 ..= 3 x 32 + 1 blocks, under every backend; keys of
/// different lengths for the two XTS halves take the two-call path and agree too.
#[test]
fn short_paths_equal_portable() {
    let mut ctr_cases = 0usize;
    let mut xts_cases = 0usize;
    for b in aes_backends() {
        for klen in [16usize, 24, 32] {
            let key = pattern(klen, 7);
            let aes = Aes::with_backend(&key, b).unwrap();
            let plain = Plain(Aes::with_backend(&key, Backend::Soft).unwrap());
            for n in 0..=MAX_BLOCKS {
                let data = pattern(16 * n, n as u8);
                // Last word: far from a wrap, and 0..=9 values before it.
                let lows = [7u32, u32::MAX - 9, u32::MAX - 8, u32::MAX - 1, u32::MAX];
                for (low, counter_len) in lows.iter().flat_map(|&l| [(l, 4usize), (l, 16)]) {
                    let mut c1 = [0xabu8; 16];
                    c1[12..].copy_from_slice(&low.to_be_bytes());
                    let mut c2 = c1;
                    let (mut o1, mut o2) = (data.clone(), data.clone());
                    aes.ctr_blocks(&mut c1, counter_len, InOutBuf::in_place(&mut o1))
                        .unwrap();
                    plain
                        .ctr_blocks(&mut c2, counter_len, InOutBuf::in_place(&mut o2))
                        .unwrap();
                    let what = format!("{b:?} AES-{} ctr {n} blocks low {low:#x}", 8 * klen);
                    assert_eq!((c1, &o1), (c2, &o2), "{what} /{counter_len}");
                    ctr_cases += 1;
                }
                let tkey = pattern(klen, 8);
                let tw = pattern(16, n as u8 ^ 0x5a);
                let t_aes = Aes::with_backend(&tkey, b).unwrap();
                let t_plain = Plain(Aes::with_backend(&tkey, Backend::Soft).unwrap());
                // A tweak key of another length: the two-call path.
                let other = if klen == 32 { 16 } else { 32 };
                let t_aes_other = Aes::with_backend(&pattern(other, 8), b).unwrap();
                let t_plain_other =
                    Plain(Aes::with_backend(&pattern(other, 8), Backend::Soft).unwrap());
                for dec in [false, true] {
                    let (mut o1, mut o2) = (data.clone(), data.clone());
                    aes.xts_unit_blocks(&t_aes, &tw, InOutBuf::in_place(&mut o1), dec)
                        .unwrap();
                    plain
                        .xts_unit_blocks(&t_plain, &tw, InOutBuf::in_place(&mut o2), dec)
                        .unwrap();
                    let what = format!("{b:?} AES-{} xts unit {n} blocks dec {dec}", 8 * klen);
                    assert_eq!(o1, o2, "{what}");
                    if n > 0 {
                        assert_ne!(o1, data, "{what}: unchanged");
                    }
                    // The same unit through the one-block tweak call and the bulk call.
                    let mut t = [0u8; 16];
                    t.copy_from_slice(&tw);
                    t_aes.encrypt_block(&mut t);
                    let mut o3 = data.clone();
                    if dec {
                        aes.xts_decrypt_blocks(&mut t, InOutBuf::in_place(&mut o3))
                    } else {
                        aes.xts_encrypt_blocks(&mut t, InOutBuf::in_place(&mut o3))
                    }
                    .unwrap();
                    assert_eq!(o1, o3, "{what} against the two calls");
                    let (mut o1, mut o2) = (data.clone(), data.clone());
                    aes.xts_unit_blocks(&t_aes_other, &tw, InOutBuf::in_place(&mut o1), dec)
                        .unwrap();
                    plain
                        .xts_unit_blocks(&t_plain_other, &tw, InOutBuf::in_place(&mut o2), dec)
                        .unwrap();
                    assert_eq!(o1, o2, "{what} tweak key of {other} bytes");
                    xts_cases += 1;
                }
            }
            // Bad input: a tweak that is not one block, data that is not whole blocks.
            let mut buf = [0u8; 32];
            assert!(matches!(
                aes.xts_unit_blocks(&aes, &[0u8; 15], InOutBuf::in_place(&mut buf), false),
                Err(Error::InvalidNonceLength { .. })
            ));
            assert!(matches!(
                aes.xts_unit_blocks(&aes, &[0u8; 16], InOutBuf::in_place(&mut buf[..17]), true),
                Err(Error::NotWholeBlocks { .. })
            ));
            assert_eq!(buf, [0u8; 32], "untouched on error");
        }
    }
    let per_backend = 3 * (MAX_BLOCKS + 1);
    assert_eq!(ctr_cases, aes_backends().len() * per_backend * 10);
    assert_eq!(xts_cases, aes_backends().len() * per_backend * 2);
}

/// `Ctr` keeps the IV and a block index and derives the counter block from them: seeking
/// to any byte (across a wrap of the last word, both counter lengths) and reading on, in
/// short and long pieces, gives the one-shot keystream.
#[test]
fn ctr_seek_then_read_equals_one_shot() {
    let mut checked = 0usize;
    for b in aes_backends() {
        let aes = Aes::with_backend(&[9u8; 32], b).unwrap();
        for counter_len in [4usize, 16] {
            let mut iv = [0x3cu8; 16];
            iv[12..].copy_from_slice(&(u32::MAX - 5).to_be_bytes());
            let mut all = vec![0u8; 16 * 40];
            Ctr::with_counter_len(&aes, &iv, counter_len)
                .unwrap()
                .apply_keystream(&mut all)
                .unwrap();
            for pos in (0..16 * 40 - 100).step_by(13) {
                let mut ctr = Ctr::with_counter_len(&aes, &iv, counter_len).unwrap();
                ctr.seek(pos as u128).unwrap();
                assert_eq!(ctr.position(), pos as u128);
                let mut got = vec![0u8; 100];
                let (x, y) = got.split_at_mut(pos % 37);
                ctr.apply_keystream(x).unwrap();
                ctr.apply_keystream(y).unwrap();
                assert_eq!(got, all[pos..pos + 100], "{b:?} /{counter_len} from {pos}");
                checked += 1;
            }
        }
    }
    assert_eq!(
        checked,
        aes_backends().len() * 2 * (16 * 40 - 100usize).div_ceil(13)
    );
}
