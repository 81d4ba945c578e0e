//! Crypto++ (system `libcrypto++`) through the C shim in `cryptopp/shim.cpp`. Its GOST is
//! the table implementation with the test S-box (`Sbox::TEST`).

use crate::{imp, Op, Row};

extern "C" {
    fn shyfr_cpp_new(alg: i32, key: *const u8, klen: usize, iv: *const u8) -> *mut u8;
    fn shyfr_cpp_run(h: *mut u8, buf: *mut u8, len: usize, out: *mut u8) -> usize;
}

/// Algorithm numbers of the shim.
fn op(alg: i32, key: &[u8], iv: &[u8; 8]) -> Op {
    // SAFETY: the shim copies the key and IV; it returns null only for an unknown
    // algorithm or a bad key length, checked here.
    let h = unsafe { shyfr_cpp_new(alg, key.as_ptr(), key.len(), iv.as_ptr()) };
    assert!(!h.is_null(), "crypto++ algorithm {alg}");
    Box::new(move |buf, out| {
        // SAFETY: `h` is a live shim object (never freed: the process ends first); `buf`
        // and the 64-byte `out` are valid for the lengths given.
        unsafe { shyfr_cpp_run(h, buf.as_mut_ptr(), buf.len(), out.as_mut_ptr()) }
    })
}

/// Adds the Crypto++ implementations to the rows that have one.
pub fn add(rows: &mut [Row], k32: &[u8], iv: &[u8; 8]) {
    let k24: Vec<u8> = (0..24u8)
        .map(|i| i.wrapping_mul(29).wrapping_add(7))
        .collect();
    for r in rows.iter_mut() {
        let (alg, same, key): (i32, bool, &[u8]) = match r.name {
            "gost28147-ecb" => (0, true, k32),
            "gost28147-ctr" => (1, false, k32),
            "gost28147-cfb" => (2, true, k32),
            "gost28147-cfb-dec" => (3, true, k32),
            "gost28147-mac" => (4, false, k32),
            "des-ecb" => (5, true, &k24[..8]),
            "des-ede3-ecb" => (6, true, &k24),
            "des-ede3-cbc" => (7, true, &k24),
            "des-ede3-cbc-dec" => (8, true, &k24),
            _ => continue,
        };
        r.imps.push(imp("crypto++", same, op(alg, key, iv)));
    }
}
