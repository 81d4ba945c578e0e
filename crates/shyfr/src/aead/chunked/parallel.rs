//! Batches of chunks across cores (feature `parallel`): the batch is cut into groups of
//! [`GROUP`] consecutive chunks, each sealed or opened by the sequential loop on one of
//! rayon's threads. Every chunk is an independent AEAD message, so the output is the same
//! as on one thread.

use std::vec::Vec;

use rayon::prelude::*;

use super::{opened_chunks_len, sealed_chunks_len, MessageKey, CHUNK_LEN, ENCRYPTED_CHUNK_LEN};
use crate::Error;

/// Chunks per task: 128 KiB of message, about 15 us for the fused AES-GCM engines on one
/// Zen 4 core, against roughly 1 us of rayon hand-off per task.
const GROUP: usize = 8;

/// Whether a batch of `chunks` chunks is split across threads.
pub(super) fn worth_it(chunks: u64) -> bool {
    chunks >= 2 * GROUP as u64 && rayon::current_num_threads() > 1
}

/// [`MessageKey::seal_chunks`] with the groups on rayon's threads (the caller checked the
/// layout and the output length).
pub(super) fn seal(
    mk: &MessageKey,
    first: u64,
    plaintext: &[u8],
    last: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    let mut tasks = Vec::new();
    let mut rest_pt = plaintext;
    let mut rest_out = out;
    let mut index = first;
    loop {
        let take = rest_pt.len().min(GROUP * CHUNK_LEN);
        let (p, pt_tail) = rest_pt.split_at(take);
        // The last group of a message holds the final chunk (possibly empty).
        let is_last = last && pt_tail.is_empty() && take < GROUP * CHUNK_LEN;
        let (o, out_tail) = rest_out.split_at_mut(sealed_chunks_len(take, is_last));
        tasks.push((index, p, is_last, o));
        index += (take / CHUNK_LEN) as u64;
        rest_pt = pt_tail;
        rest_out = out_tail;
        if rest_pt.is_empty() && rest_out.is_empty() {
            break;
        }
    }
    tasks
        .into_par_iter()
        .try_for_each(|(i, p, l, o)| mk.seal_chunks(i, p, l, o))
}

/// [`MessageKey::open_chunks`] with the groups on rayon's threads: on an error, the groups
/// after the first failing one are zeroed and that group's error (the first bad chunk) is
/// returned.
pub(super) fn open(
    mk: &MessageKey,
    first: u64,
    ciphertext: &[u8],
    last: bool,
    out: &mut [u8],
) -> Result<(), Error> {
    let mut tasks = Vec::new();
    let mut rest_ct = ciphertext;
    let mut rest_out = out;
    let mut index = first;
    while !rest_ct.is_empty() {
        let take = rest_ct.len().min(GROUP * ENCRYPTED_CHUNK_LEN);
        let (c, ct_tail) = rest_ct.split_at(take);
        let is_last = last && ct_tail.is_empty();
        let n = opened_chunks_len(take, is_last).ok_or(Error::Truncated)?;
        let (o, out_tail) = rest_out.split_at_mut(n);
        tasks.push((index, c, is_last, o));
        index += GROUP as u64;
        rest_ct = ct_tail;
        rest_out = out_tail;
    }
    let results: Vec<Result<(), Error>> = tasks
        .par_iter_mut()
        .map(|(i, c, l, o)| mk.open_chunks(*i, c, *l, o))
        .collect();
    match results.iter().position(Result::is_err) {
        None => Ok(()),
        Some(bad) => {
            for (_, _, _, o) in &mut tasks[bad + 1..] {
                o.iter_mut().for_each(|b| *b = 0);
            }
            results[bad]
        }
    }
}
