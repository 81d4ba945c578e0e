//! Shared arithmetic rooms, one file per instruction set in each, used by the algorithm
//! families above them (see DESIGN.md, "Layout"):
//!
//! * `clmul`: carry-less multiplication and the GF(2^128) reduction of GHASH.
//! * `gf256`: byte S-boxes and GF(2^8) matrix steps (for Kalyna and Kupyna).

pub(crate) mod clmul;
pub(crate) mod gf256;
