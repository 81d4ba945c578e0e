//! Signatures and public-key encryption: [`rsa`].

pub mod rsa;
