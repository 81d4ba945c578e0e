//! The fused XTS path without carry-less multiplication (`x86_vaes` chooses between a
//! VPCLMULQDQ tweak update and a shift-based one at key set-up): masked here with the
//! in-process CPU override, in a test binary of its own so the override touches nothing
//! else, and compared with the portable defaults for every length.

mod common;
mod modes_common;

use common::aes_backends;
use modes_common::{pattern, Plain};
use shyfr::aes::{Aes, Backend};
use shyfr::mode::xts::Xts;

#[test]
fn xts_without_clmul_equals_portable() {
    // Keys set up after this call follow it. The override replaces `SHYFR_CPU`, so that
    // is kept in front (a `SHYFR_CPU=portable` run must stay portable).
    if shyfr::cpu::env_override_error().is_some() {
        return; // malformed SHYFR_CPU: the library runs portable code only
    }
    let env = std::env::var("SHYFR_CPU").unwrap_or_default();
    let spec = if cfg!(target_arch = "x86_64") {
        format!("{env},-vpclmulqdq")
    } else {
        env
    };
    shyfr::cpu::set_override(&spec).unwrap();
    for b in aes_backends() {
        for klen in [16, 32] {
            let (k1, k2) = (pattern(klen, 1), pattern(klen, 2));
            let x = Xts::new(
                Aes::with_backend(&k1, b).unwrap(),
                Aes::with_backend(&k2, b).unwrap(),
            )
            .unwrap();
            let p = Xts::new(
                Plain(Aes::with_backend(&k1, Backend::Soft).unwrap()),
                Plain(Aes::with_backend(&k2, Backend::Soft).unwrap()),
            )
            .unwrap();
            for n in 16..=16 * (3 * 32 + 1) + 15 {
                if n % 16 != 0 && n % 16 != 7 {
                    continue;
                }
                let data = pattern(n, n as u8);
                let tw = [n as u8; 16];
                let (mut a, mut e) = (data.clone(), data.clone());
                x.encrypt(&tw, &mut a).unwrap();
                p.encrypt(&tw, &mut e).unwrap();
                assert_eq!(a, e, "{b:?} AES-{} {n} bytes", 8 * klen);
                x.decrypt(&tw, &mut a).unwrap();
                assert_eq!(a, data, "{b:?} AES-{} {n} bytes decrypt", 8 * klen);
            }
        }
    }
}
