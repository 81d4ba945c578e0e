//! Kupyna's `x86_avx2` backend without GFNI (the MixColumns doubling by add and masked
//! XOR): the CPU override masks GFNI for this whole test binary, then every example of
//! `testdata/kupyna/kupyna.json` must hold on the backends still available.

mod common;

#[cfg(target_arch = "x86_64")]
#[test]
fn vectors_without_gfni() {
    use shyfr::hash::kupyna::{Backend, Kupyna};
    if !shyfr::cpu::detected().has(shyfr::cpu::Feature::Avx2) {
        return;
    }
    shyfr::cpu::set_override("-gfni").unwrap();
    assert!(!Backend::X86Avx512.is_available());
    assert!(Backend::X86Avx2.is_available());
    let path = common::testdata("kupyna/kupyna.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut n = 0;
    for t in v["vectors"].as_array().unwrap() {
        let msg = hex::decode(t["message"].as_str().unwrap()).unwrap();
        let want = hex::decode(t["digest"].as_str().unwrap()).unwrap();
        let bits = t["message_bits"].as_u64().unwrap() as usize;
        let mut h =
            Kupyna::with_backend(t["hash_bits"].as_u64().unwrap() as usize, Backend::X86Avx2)
                .unwrap();
        h.update(&msg[..bits / 8]);
        let last = if bits.is_multiple_of(8) {
            0
        } else {
            msg[bits / 8]
        };
        let mut out = vec![0u8; want.len()];
        h.finalize_bits_into(last, bits % 8, &mut out).unwrap();
        assert_eq!(out, want, "vector {}", t["id"]);
        n += 1;
    }
    assert_eq!(n, 34);
}
