//! The `arena` binary; everything lives in the library.

/// mimalloc: every decision allocates and frees small buffers (the engine's
/// payloads, the bots' messages, the record's entries), where the system
/// allocator cost an eighth of the arena's time (docs/performance.md).
/// Built without transparent huge pages (`no_thp`), so that the arena's
/// memory stays what the system allocator's was.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    arena::bot::supervisor::serve_if_asked();
    arena::bot::copies::serve_if_asked();
    arena::bot::signals::ignore_file_size_signal();
    std::process::exit(arena::cli::main());
}
