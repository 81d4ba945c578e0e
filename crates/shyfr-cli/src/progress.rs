//! The one progress-bar style of the command (`speed` while measuring, `hash` and `mac` on
//! large inputs): drawn on standard error, and only when it is a terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// What a bar counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Steps (cells measured).
    Steps,
    /// Bytes (of an input).
    Bytes,
}

/// A bar of `total` steps or bytes, hidden unless standard error is a terminal.
pub fn bar(total: u64, unit: Unit) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let counts = match unit {
        Unit::Steps => "{pos}/{len}",
        Unit::Bytes => "{bytes}/{total_bytes} {bytes_per_sec}",
    };
    let template = format!("shyfr: [{{bar:30.cyan/blue}}] {counts} {{elapsed}} {{wide_msg}}");
    pb.set_style(
        ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    pb
}
