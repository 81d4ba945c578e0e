//! The shyfr command.
fn main() {}
