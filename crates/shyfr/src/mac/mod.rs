//! Message authentication codes: HMAC over any [`Hash`](crate::hash::Hash), KMAC.

pub mod hmac;
pub mod kmac;
