//! The `arena` binary; everything lives in the library.

fn main() {
    std::process::exit(arena::cli::main());
}
