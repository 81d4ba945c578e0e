//! Message authentication codes: HMAC over any [`Hash`](crate::hash::Hash), KMAC (NIST
//! SP 800-185), and the keyed Kupyna of DSTU 7564:2014.

pub mod hmac;
pub mod kmac;
pub mod kupyna_kmac;
