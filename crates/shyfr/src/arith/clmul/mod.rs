//! Carry-less multiplication and the reductions built on it, one file per instruction set:
//! GHASH (GCM, GMAC) and the fused AES-GCM engines use it today; the wider fields of
//! DSTU 7624 GMAC (GF(2^256), GF(2^512)) and the binary-curve fields GF(2^m) build on the
//! same products.
//!
//! # The GCM field GF(2^128)
//!
//! GCM numbers the bits of a block from the most significant bit of byte 0 (the coefficient
//! of `x^0`) on. Read as a big-endian integer, a block `A(x)` becomes `R_A = y^127 A(1/y)`:
//! its *reflection*. Carry-less multiplication of reflections satisfies
//! `clmul(R_A, R_B) = y^127 R_{AB}  (mod P*)`, where
//! `P*(y) = y^128 + y^127 + y^126 + y^121 + 1` is the reflection of the GCM polynomial
//! `P(x) = x^128 + x^7 + x^2 + x + 1`. A key stores `H` *twisted*,
//! `tw(H) = R_H * y mod P*`, so that `clmul(R_A, tw(H)) * y^-128 mod P*` is exactly
//! `R_{AH}`: a Montgomery reduction by `y^128`, done as two folds of 64 bits, each a
//! carry-less multiplication by the constant `K = y^63 + y^62 + y^57` (`0xc2 << 56`) since
//! `P* = 1 + K y^64 + y^128`. Powers `tw(H^i)` are products of twisted values, and a run of
//! `n` blocks is `sum (Y ^ X_1, X_2, ..) * H^(n..1)` with a single reduction at the end:
//! the aggregated reduction of S. Gueron and M. Kounavis, "Intel Carry-Less Multiplication
//! Instruction and its Usage for Computing the GCM Mode", Intel white paper, rev. 2.02, 2014.
//!
//! | file | instructions | what |
//! |------|--------------|------|
//! | `soft.rs` | integer multiply | 64 x 64 carry-less product with holes, Karatsuba, reduction |
//! | `x86_pclmul.rs` | PCLMULQDQ, SSSE3 | one block per xmm: Karatsuba terms, reduction |
//! | `x86_vpclmul.rs` | VPCLMULQDQ, AVX2 | two blocks per ymm, the lane fold before the reduction |
//! | `x86_vpclmul512.rs` | VPCLMULQDQ, AVX-512 | four blocks per zmm, the lane fold before the reduction |
//! | `aarch64_pmull.rs` | PMULL, PMULL2 | one block per register: Karatsuba terms, reduction |
//!
//! Every file is constant time: the carry-less multiply instructions have data-independent
//! timing, and the portable product has no table and no secret-dependent branch.

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64_pmull;
pub(crate) mod soft;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_pclmul;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_vpclmul;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_vpclmul512;
