//! Modes of operation, generic over [`BlockCipher`](crate::block::BlockCipher): they never
//! mention an instruction set; AES reaches its fused kernels through the trait.

pub mod cbc;
pub mod cfb;
pub mod cmac;
pub mod ctr;
pub mod ecb;
pub mod kw;
pub mod ofb;
pub mod xts;
