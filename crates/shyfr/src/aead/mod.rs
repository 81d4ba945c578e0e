//! Authenticated encryption: GCM / GMAC (with GHASH backends) and CCM.

pub mod ccm;
pub mod gcm;
pub mod ghash;
