//! The system calls a sandboxed bot may not make, as seccomp filters that
//! bubblewrap installs (`--add-seccomp-fd FD`, once per filter): those
//! through which processes that share no writable file could still signal
//! each other by what they do to a file both can read, or learn what another
//! did to it.
//!
//! - locks: taking one (`flock`, `fcntl`'s `F_SETLK`, `F_SETLKW` and their
//!   open-file forms) succeeds without locking anything, so that programs
//!   that lock their own files as they start (the JVM does) run as before;
//!   asking who holds one (`F_GETLK`), leases and directory notifications
//!   fail with `ENOLCK`;
//! - `inotify` and `fanotify`, which see another process open or read a file,
//!   and `mincore` and `cachestat`, which see what another process read into
//!   the page cache: they fail with `ENOSYS`, as if the kernel had none;
//! - the page cache, probed or emptied: a read or write with `RWF_NOWAIT`
//!   (`preadv2`, `pwritev2`), which fails when the data is not cached, fails
//!   with `EOPNOTSUPP`, as on a file system without it; `posix_fadvise`'s
//!   `POSIX_FADV_DONTNEED` and `POSIX_FADV_NOREUSE` and `madvise`'s
//!   `MADV_COLD`, `MADV_PAGEOUT` (which deactivate or drop the pages of a
//!   file), `MADV_COLLAPSE` and `MADV_HUGEPAGE` (which replace them, at once
//!   or in the background, with a huge page that outlives the process)
//!   succeed doing nothing, as advice may; `process_madvise`, `io_uring`
//!   and the kernel's AIO (`io_setup`, `io_submit`), which would do the same
//!   out of sight of these rules, fail with `ENOSYS`;
//! - 64-bit calls only: the x32 calls of x86-64 fail with `EPERM`, and a
//!   call of another architecture (a 32-bit program) kills the process.
//!
//! Shared futexes are allowed on purpose: they keep Python's
//! `multiprocessing` locks working, and a futex on a file's mapping is keyed
//! by the file's page, which no other live process can map, since every
//! file a sandboxed process reads is a copy of its own (see
//! [`super::copies`]). These rules are defence in depth beside those copies.
//!
//! The filters are compiled by rust-vmm's `seccompiler` (Firecracker's
//! filters are built with it), which turns rules with conditions on a call's
//! arguments into classic BPF for a given architecture. It gives each filter
//! one action for the calls it matches, so there is a filter per action;
//! the kernel runs them all and the strictest answer wins (the rules never
//! overlap). The one check it cannot express, a range of call numbers (the
//! x32 calls), is a filter of three instructions of its own. Everything
//! else is allowed. On an architecture without a table here, no filter is
//! installed (the bot can then use these channels).

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch, sock_filter,
};
use std::collections::BTreeMap;

/// The word of the sandbox's options that the supervisor replaces with the
/// number of a descriptor holding one of [`programs`], in their order: it
/// stands after each `--add-seccomp-fd`.
pub const PLACEHOLDER: &str = "@seccomp-filter";

/// `fcntl` commands that take or release a lock (`F_SETLK`, `F_SETLKW`,
/// `F_OFD_SETLK`, `F_OFD_SETLKW`): made to do nothing.
const FCNTL_LOCKS: [u64; 4] = [6, 7, 37, 38];
/// `fcntl` commands that probe locks (`F_GETLK`, `F_OFD_GETLK`), take
/// leases (`F_SETLEASE`, `F_GETLEASE`) or watch directories (`F_NOTIFY`): refused.
const FCNTL_PROBES: [u64; 5] = [5, 36, 1024, 1025, 1026];
/// `POSIX_FADV_DONTNEED`, `POSIX_FADV_NOREUSE` (as on every 64-bit
/// architecture but s390x): made to do nothing.
const FADVISE_DROPS: [u64; 2] = [4, 5];
/// `MADV_HUGEPAGE`, `MADV_COLD`, `MADV_PAGEOUT`, `MADV_COLLAPSE`: made to
/// do nothing. The other kinds of advice leave a file's cached pages where
/// they are (`MADV_DONTNEED` unmaps them from the caller only, `MADV_FREE`
/// and `MADV_REMOVE` act on anonymous or writable memory).
const MADVISE_DROPS: [u64; 4] = [14, 20, 21, 25];
/// `RWF_NOWAIT`, a flag of `preadv2` and `pwritev2`.
const RWF_NOWAIT: u64 = 0x8;
/// The first x32 call number on x86-64.
const X32_FROM: u32 = 0x4000_0000;

/// The numbers of the calls the filters name, on one architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Calls {
    /// The architecture, for `seccompiler`.
    pub arch: TargetArch,
    /// `fcntl`.
    pub fcntl: i64,
    /// `flock`.
    pub flock: i64,
    /// `fadvise64`.
    pub fadvise64: i64,
    /// `madvise`.
    pub madvise: i64,
    /// `preadv2` and `pwritev2`.
    pub vectored_rw: [i64; 2],
    /// Calls that fail as missing: `inotify_init` (x86-64 only),
    /// `inotify_init1`, `fanotify_init`, `mincore`, `cachestat`,
    /// `process_madvise`, `io_uring_setup`, `io_uring_enter`,
    /// `io_uring_register`, `io_setup`, `io_submit`.
    pub missing: &'static [i64],
    /// Whether the x32 calls exist, to be refused.
    pub x32: bool,
}

/// The calls on x86-64 (`asm/unistd_64.h`).
pub const X86_64: Calls = Calls {
    arch: TargetArch::x86_64,
    fcntl: 72,
    flock: 73,
    fadvise64: 221,
    madvise: 28,
    vectored_rw: [327, 328],
    missing: &[253, 294, 300, 27, 451, 440, 425, 426, 427, 206, 209],
    x32: true,
};

/// The calls on AArch64 (`asm-generic/unistd.h`).
pub const AARCH64: Calls = Calls {
    arch: TargetArch::aarch64,
    fcntl: 25,
    flock: 32,
    fadvise64: 223,
    madvise: 233,
    vectored_rw: [286, 287],
    missing: &[26, 262, 232, 451, 440, 425, 426, 427, 0, 2],
    x32: false,
};

/// The calls of the architecture the arena runs on, if it has a table.
pub const NATIVE: Option<Calls> = if cfg!(target_arch = "x86_64") {
    Some(X86_64)
} else if cfg!(target_arch = "aarch64") {
    Some(AARCH64)
} else {
    None
};

/// A rule that matches when argument `index` (its low 32 bits) is `value`.
fn argument_is(index: u8, value: u64) -> SeccompRule {
    let condition = SeccompCondition::new(index, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value);
    SeccompRule::new(vec![condition.expect("a valid condition")]).expect("a valid rule")
}

/// A filter that answers `action` to the calls of `rules` (all of a call
/// when its rules are empty, else those matching one of them) and allows
/// everything else.
fn compile(calls: &Calls, rules: BTreeMap<i64, Vec<SeccompRule>>, action: SeccompAction) -> BpfProgram {
    let filter = SeccompFilter::new(rules, SeccompAction::Allow, action, calls.arch).expect("a valid filter");
    filter.try_into().expect("a filter of a few dozen instructions compiles")
}

/// The filters for `calls`' architecture, each as `sock_filter`s.
pub fn filters(calls: &Calls) -> Vec<BpfProgram> {
    let no_ops = BTreeMap::from([
        (calls.flock, Vec::new()),
        (calls.fcntl, FCNTL_LOCKS.map(|command| argument_is(1, command)).to_vec()),
        (calls.fadvise64, FADVISE_DROPS.map(|advice| argument_is(3, advice)).to_vec()),
        (calls.madvise, MADVISE_DROPS.map(|advice| argument_is(2, advice)).to_vec()),
    ]);
    let lock_probes = BTreeMap::from([(calls.fcntl, FCNTL_PROBES.map(|command| argument_is(1, command)).to_vec())]);
    let missing = calls.missing.iter().map(|&call| (call, Vec::new())).collect();
    let nowait = || {
        let flags = SeccompCondition::new(5, SeccompCmpArgLen::Dword, SeccompCmpOp::MaskedEq(RWF_NOWAIT), RWF_NOWAIT);
        vec![SeccompRule::new(vec![flags.expect("a valid condition")]).expect("a valid rule")]
    };
    let no_wait = calls.vectored_rw.iter().map(|&call| (call, nowait())).collect();
    let mut filters = vec![
        compile(calls, no_ops, SeccompAction::Errno(0)),
        compile(calls, lock_probes, SeccompAction::Errno(libc::ENOLCK as u32)),
        compile(calls, missing, SeccompAction::Errno(libc::ENOSYS as u32)),
        compile(calls, no_wait, SeccompAction::Errno(libc::EOPNOTSUPP as u32)),
    ];
    if calls.x32 {
        filters.push(x32_refused());
    }
    filters
}

/// Refuses every x32 call (`EPERM`): a range of call numbers, which
/// `seccompiler`'s rules (one call number each) cannot name.
fn x32_refused() -> BpfProgram {
    const LOAD_NUMBER: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS, offset 0: the call's number
    const JUMP_IF_AT_LEAST: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const RETURN: u16 = 0x06; // BPF_RET | BPF_K
    let op = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    vec![
        op(LOAD_NUMBER, 0, 0, 0),
        op(JUMP_IF_AT_LEAST, 0, 1, X32_FROM),
        op(RETURN, 0, 0, SeccompAction::Errno(libc::EPERM as u32).into()),
        op(RETURN, 0, 0, SeccompAction::Allow.into()),
    ]
}

/// How many filters [`programs`] gives here.
pub fn count() -> usize {
    NATIVE.map_or(0, |calls| filters(&calls).len())
}

/// The filters for the architecture the arena runs on, each as bubblewrap
/// reads it (`struct sock_filter`s, in the machine's byte order); none on
/// an architecture without a table.
pub fn programs() -> Vec<Vec<u8>> {
    let Some(calls) = NATIVE else { return Vec::new() };
    filters(&calls)
        .iter()
        .map(|program| {
            program
                .iter()
                .flat_map(|op| {
                    let mut bytes = [0u8; 8];
                    bytes[..2].copy_from_slice(&op.code.to_ne_bytes());
                    bytes[2] = op.jt;
                    bytes[3] = op.jf;
                    bytes[4..].copy_from_slice(&op.k.to_ne_bytes());
                    bytes
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
