//! The `arena` binary; everything lives in the library.

fn main() {
    arena::bot::supervisor::serve_if_asked();
    std::process::exit(arena::cli::main());
}
