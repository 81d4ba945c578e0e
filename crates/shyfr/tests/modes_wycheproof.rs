//! Wycheproof vectors for the AES modes: CBC-PKCS5, CMAC, KW, KWP, XTS. Valid vectors
//! must pass, invalid ones must be rejected (with the documented error), under every AES
//! backend the CPU offers.

mod common;
mod modes_common;

use common::{aes_backends, passed};
use modes_common::wycheproof;
use serde_json::Value;
use shyfr::aes::{Aes, Backend};
use shyfr::mode::cbc::Cbc;
use shyfr::mode::cmac::Cmac;
use shyfr::mode::kw::{Kw, Kwp};
use shyfr::mode::xts::Xts;
use shyfr::pad::Padding;
use shyfr::Error;

fn hx(t: &Value, k: &str) -> Vec<u8> {
    hex::decode(t[k].as_str().unwrap()).unwrap()
}

/// Every test of every group, with the group.
fn tests(file: &Value) -> Vec<(&Value, &Value)> {
    file["testGroups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["tests"].as_array().unwrap().iter().map(move |t| (g, t)))
        .collect()
}

fn result(t: &Value) -> &str {
    t["result"].as_str().unwrap()
}

#[test]
fn aes_cbc_pkcs5() {
    let f = wycheproof("aes_cbc_pkcs5_test.json");
    let all = tests(&f);
    assert_eq!(all.len(), f["numberOfTests"].as_u64().unwrap() as usize);
    for b in aes_backends() {
        let (mut valid, mut invalid) = (0, 0);
        for (_, t) in &all {
            let id = &t["tcId"];
            let (key, iv, msg, ct) = (hx(t, "key"), hx(t, "iv"), hx(t, "msg"), hx(t, "ct"));
            let cbc = Cbc::new(Aes::with_backend(&key, b).unwrap());
            let mut out = vec![0u8; ct.len()];
            let dec = cbc.decrypt_padded_to(&iv, &ct, &mut out, Padding::Pkcs7);
            let mut inplace = ct.clone();
            let dec2 = cbc
                .decrypt_padded(&iv, &mut inplace, Padding::Pkcs7)
                .map(|m| m.to_vec());
            match result(t) {
                "valid" => {
                    assert_eq!(&out[..dec.unwrap()], &msg[..], "tc {id} {b:?}");
                    assert_eq!(dec2.unwrap(), msg, "tc {id} {b:?} in place");
                    let mut buf = vec![0u8; msg.len() + 16];
                    buf[..msg.len()].copy_from_slice(&msg);
                    let c = cbc
                        .encrypt_padded(&iv, &mut buf, msg.len(), Padding::Pkcs7)
                        .unwrap();
                    assert_eq!(c, &ct[..], "tc {id} {b:?} encrypt");
                    valid += 1;
                }
                "invalid" => {
                    // Bad padding (or no padding): one error, and nothing released.
                    assert_eq!(dec, Err(Error::BadPadding), "tc {id} {b:?}");
                    assert_eq!(dec2, Err(Error::BadPadding), "tc {id} {b:?} in place");
                    assert!(out.iter().all(|&x| x == 0), "tc {id}: output not wiped");
                    assert!(inplace.iter().all(|&x| x == 0), "tc {id}: buffer not wiped");
                    invalid += 1;
                }
                r => panic!("tc {id}: result {r}"),
            }
        }
        assert_eq!((valid, invalid), (72, 144), "{}", b.name());
        passed(b);
    }
}

#[test]
fn aes_cmac() {
    let f = wycheproof("aes_cmac_test.json");
    let all = tests(&f);
    for b in aes_backends() {
        let mut seen = [0usize; 3];
        for (_, t) in &all {
            let id = &t["tcId"];
            let (key, msg, tag) = (hx(t, "key"), hx(t, "msg"), hx(t, "tag"));
            let aes = match Aes::with_backend(&key, b) {
                Ok(a) => a,
                Err(e) => {
                    assert_eq!(result(t), "invalid", "tc {id}: key refused");
                    assert_eq!(e, Error::InvalidKeyLength { got: key.len() });
                    seen[2] += 1;
                    continue;
                }
            };
            let mut m = Cmac::new(&aes).unwrap();
            m.update(&msg);
            let r = m.verify(&tag);
            match result(t) {
                "valid" => {
                    assert_eq!(r, Ok(()), "tc {id} {b:?}");
                    let got = Cmac::mac(&aes, &msg).unwrap();
                    assert_eq!(got.as_bytes(), &tag[..], "tc {id} {b:?}");
                    seen[0] += 1;
                }
                "invalid" => {
                    assert_eq!(r, Err(Error::AuthenticationFailed), "tc {id} {b:?}");
                    seen[1] += 1;
                }
                r => panic!("tc {id}: result {r}"),
            }
        }
        // Valid tags, modified tags, key sizes AES does not have.
        assert_eq!(seen, [63, 243, 5], "{}", b.name());
        passed(b);
    }
}

/// The error unwrapping `len` bytes that are not a valid wrapping must give: the length
/// checks first (not whole semiblocks, shorter than the shortest wrapping), then the
/// integrity check.
fn unwrap_error(len: usize, padded: bool) -> Error {
    if !len.is_multiple_of(8) {
        Error::NotWholeBlocks { len, block: 8 }
    } else if len < if padded { 16 } else { 24 } {
        Error::TooShort {
            what: if padded {
                "kwp wrapped key (16 bytes at least)"
            } else {
                "kw wrapped key (24 bytes at least)"
            },
        }
    } else {
        Error::AuthenticationFailed
    }
}

/// Every test of a key-wrap file on every backend: `counts` is (valid, invalid,
/// acceptable), checked exactly on each backend.
fn keywrap(file: &str, padded: bool, counts: [usize; 3]) {
    let f = wycheproof(file);
    let all = tests(&f);
    for b in aes_backends() {
        let mut seen = [0usize; 3];
        for (_, t) in &all {
            let id = &t["tcId"];
            let (key, msg, ct) = (hx(t, "key"), hx(t, "msg"), hx(t, "ct"));
            let aes = Aes::with_backend(&key, b).unwrap();
            let mut out = vec![0u8; ct.len() + 16];
            let unwrapped = if padded {
                Kwp::new(&aes).unwrap().unwrap(&ct, &mut out)
            } else {
                Kw::new(&aes).unwrap().unwrap(&ct, &mut out)
            };
            let mut w = vec![0u8; msg.len() + 16];
            let wrapped = if padded {
                Kwp::new(&aes).unwrap().wrap(&msg, &mut w)
            } else {
                Kw::new(&aes).unwrap().wrap(&msg, &mut w)
            };
            match result(t) {
                "valid" => {
                    assert_eq!(&out[..unwrapped.unwrap()], &msg[..], "tc {id} {b:?}");
                    assert_eq!(&w[..wrapped.unwrap()], &ct[..], "tc {id} {b:?} wrap");
                    seen[0] += 1;
                }
                // shyfr's choice for "acceptable" (an 8-byte KW key): rejected.
                "invalid" | "acceptable" => {
                    assert_eq!(
                        unwrapped,
                        Err(unwrap_error(ct.len(), padded)),
                        "tc {id} {b:?}"
                    );
                    assert!(out.iter().all(|&x| x == 0), "tc {id}: output not wiped");
                    // A wrong-length message can't be wrapped either; a right-length one
                    // wraps to something other than the (corrupted) ciphertext.
                    if let Ok(n) = wrapped {
                        assert_ne!(&w[..n], &ct[..], "tc {id}");
                    }
                    seen[if result(t) == "invalid" { 1 } else { 2 }] += 1;
                }
                r => panic!("tc {id}: result {r}"),
            }
        }
        assert_eq!(seen, counts, "{file} on {}", b.name());
        passed(b);
    }
}

#[test]
fn aes_kw() {
    keywrap("aes_wrap_test.json", false, [36, 126, 3]);
}

#[test]
fn aes_kwp() {
    keywrap("aes_kwp_test.json", true, [77, 177, 0]);
}

#[test]
fn aes_xts() {
    let f = wycheproof("aes_xts_test.json");
    let all = tests(&f);
    assert_eq!(all.len(), 123);
    for b in aes_backends() {
        let mut n = 0;
        for (_, t) in &all {
            let id = &t["tcId"];
            let (key, iv, msg, ct) = (hx(t, "key"), hx(t, "iv"), hx(t, "msg"), hx(t, "ct"));
            assert_eq!(result(t), "valid");
            // Wycheproof's tweaks are 1 to 16 bytes, zero-padded to the 16-byte tweak.
            let mut tw = [0u8; 16];
            tw[..iv.len()].copy_from_slice(&iv);
            let xts = Xts::<Aes>::from_key_slice(&key, b).unwrap();
            let mut buf = msg.clone();
            xts.encrypt(&tw, &mut buf).unwrap();
            assert_eq!(buf, ct, "tc {id} {b:?}");
            let mut out = vec![0u8; ct.len()];
            xts.decrypt_to(&tw, &ct, &mut out).unwrap();
            assert_eq!(out, msg, "tc {id} {b:?} decrypt");
            n += 1;
        }
        assert_eq!(n, 123, "{}", b.name());
        passed(b);
    }
}

#[test]
fn soft_is_always_listed() {
    assert!(aes_backends().contains(&Backend::Soft));
}
