//! The `arena` binary; everything lives in the library.

fn main() {
    arena::bot::supervisor::serve_if_asked();
    arena::bot::signals::ignore_file_size_signal();
    std::process::exit(arena::cli::main());
}
