//! Every Kupyna backend (DSTU 7564:2014) against the portable one: digests of every
//! length (8 to 512 bits in steps of 8) over messages fed in random pieces, with a final
//! partial byte of 0 to 7 bits, the one-shot `digest_bits`, and the Kupyna KMAC (32-, 48-
//! and 64-byte keys) with `verify` on the right tag and a corrupted one. Every result,
//! errors included, must be equal, and streaming must equal one-shot.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shyfr::hash::kupyna::{self, Kupyna};
use shyfr::mac::kupyna_kmac::KupynaKmac;
use shyfr::Error;
use shyfr_fuzz::{pieces, Input};

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let out_bits = 8 * (1 + inp.below(64));
    let bits = inp.below(8);
    let last = inp.u8();
    let key_len = inp.pick(&[32usize, 48, 64]);
    let key = inp.bytes(key_len);
    let flip = inp.below(key_len);
    let msg = inp.data(1200);
    let cuts = inp.cuts(msg.len());
    let parts = pieces(&msg, &cuts);

    let run = |b: kupyna::Backend| -> Vec<Result<Vec<u8>, Error>> {
        let mut out = Vec::new();
        let mut h = Kupyna::with_backend(out_bits, b).expect("available");
        for p in &parts {
            h.update(p);
        }
        let mut d = vec![0u8; out_bits / 8];
        out.push(
            h.clone()
                .finalize_bits_into(last, bits, &mut d)
                .map(|()| d.clone()),
        );
        // A wrong output length and more than 7 final bits are errors, not panics.
        let mut short = vec![0u8; out_bits / 8 + 1];
        out.push(h.clone().finalize_into(&mut short).map(|()| short.clone()));
        out.push(
            h.finalize_bits_into(last, 8 + bits, &mut d)
                .map(|()| d.clone()),
        );
        let mut k = KupynaKmac::with_backend(&key, b).expect("available");
        for p in &parts {
            k.update(p);
        }
        let tag = k.clone().finalize();
        assert!(k.clone().verify(&tag).is_ok(), "kmac verify {}", b.name());
        let mut bad = tag.to_vec();
        bad[flip] ^= 1;
        assert!(
            k.clone().verify(&bad).is_err(),
            "kmac verify bad {}",
            b.name()
        );
        assert!(k.verify(&tag[1..]).is_err(), "kmac short tag {}", b.name());
        out.push(Ok(tag.to_vec()));
        out
    };
    let soft = run(kupyna::Backend::Soft);
    for &b in kupyna::Backend::ALL.iter().filter(|b| b.is_available()) {
        assert_eq!(run(b), soft, "kupyna {}", b.name());
    }
    // Streaming against one-shot (default backend), with the partial final byte.
    let mut m = msg.clone();
    m.push(last);
    let mut one = vec![0u8; out_bits / 8];
    Kupyna::digest_bits(&m, 8 * msg.len() + bits, &mut one).expect("valid lengths");
    assert_eq!(soft[0].as_ref().ok(), Some(&one), "digest_bits");
    assert_eq!(
        &KupynaKmac::mac(&key, &msg).expect("valid key")[..],
        &soft[3].as_ref().expect("tag")[..],
        "kmac one-shot"
    );
});
