//! The system calls a sandboxed bot may not make, as a seccomp filter
//! (classic BPF) that bubblewrap installs (`--seccomp FD`): those through
//! which processes that share no writable file could still signal each
//! other by what they do to a file both can read.
//!
//! - locks: taking one (`flock`, `fcntl`'s `F_SETLK`, `F_SETLKW` and their
//!   open-file forms) succeeds without locking anything, so that programs
//!   that lock their own files as they start (the JVM does) run as before;
//!   asking who holds one (`F_GETLK`), leases and directory notifications
//!   fail with `ENOLCK`;
//! - `inotify` and `fanotify`, which see another process open or read a file,
//!   and `mincore` and `cachestat`, which see what another process read into
//!   the page cache: they fail with `ENOSYS`, as if the kernel had none.
//!
//! Everything else is allowed. On an architecture the filter does not know,
//! no filter is installed (the bot can then use these channels).

/// The word of the sandbox's options that the supervisor replaces with the
/// number of a descriptor holding [`program`].
pub const PLACEHOLDER: &str = "@seccomp-filter";

/// `fcntl` commands that take or release a lock: made to do nothing.
const FCNTL_LOCKS: [u32; 4] = [6, 7, 37, 38];
/// `fcntl` commands that probe locks, take leases or watch directories: refused.
const FCNTL_PROBES: [u32; 5] = [5, 36, 1024, 1025, 1026];
const ENOLCK: u32 = 37;
const ENOSYS: u32 = 38;
const EPERM: u32 = 1;

#[cfg(target_arch = "x86_64")]
mod arch {
    /// `AUDIT_ARCH_X86_64`.
    pub const AUDIT: u32 = 0xc000_003e;
    pub const FCNTL: u32 = 72;
    pub const FLOCK: u32 = 73;
    /// inotify_init, inotify_init1, fanotify_init, mincore, cachestat.
    pub const OBSERVERS: &[u32] = &[253, 294, 300, 27, 451];
    /// The x32 calls, numbered from here: refused whole.
    pub const FOREIGN_FROM: Option<u32> = Some(0x4000_0000);
}

#[cfg(target_arch = "aarch64")]
mod arch {
    /// `AUDIT_ARCH_AARCH64`.
    pub const AUDIT: u32 = 0xc000_00b7;
    pub const FCNTL: u32 = 25;
    pub const FLOCK: u32 = 32;
    /// inotify_init1, fanotify_init, mincore, cachestat.
    pub const OBSERVERS: &[u32] = &[26, 262, 232, 451];
    pub const FOREIGN_FROM: Option<u32> = None;
}

const LOAD_WORD: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_IF_EQUAL: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_IF_AT_LEAST: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RETURN: u16 = 0x06; // BPF_RET | BPF_K
const ALLOW: u32 = 0x7fff_0000;
/// The call returns at once with this error number (0: it succeeds, doing nothing).
const ERRNO: u32 = 0x0005_0000;
/// Offsets in `struct seccomp_data`: the call's number, the architecture,
/// and the low word of the second argument (little-endian).
const NR: u32 = 0;
const ARCH: u32 = 4;
const SECOND_ARGUMENT: u32 = 24;

/// One instruction, as `struct sock_filter` lays it out.
fn op(code: u16, jt: u8, jf: u8, k: u32) -> [u8; 8] {
    let mut bytes = [0u8; 8];
    bytes[..2].copy_from_slice(&code.to_ne_bytes());
    bytes[2] = jt;
    bytes[3] = jf;
    bytes[4..].copy_from_slice(&k.to_ne_bytes());
    bytes
}

/// Two instructions: return `value` when the loaded word is `equal`.
fn return_if(equal: u32, value: u32) -> [[u8; 8]; 2] {
    [op(JUMP_IF_EQUAL, 0, 1, equal), op(RETURN, 0, 0, value)]
}

/// The filter, as bubblewrap reads it; `None` on an architecture it does not know.
pub fn program() -> Option<Vec<u8>> {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let mut ops =
            vec![op(LOAD_WORD, 0, 0, ARCH), op(JUMP_IF_EQUAL, 1, 0, arch::AUDIT), op(RETURN, 0, 0, ERRNO | EPERM)];
        ops.push(op(LOAD_WORD, 0, 0, NR));
        if let Some(from) = arch::FOREIGN_FROM {
            ops.extend([op(JUMP_IF_AT_LEAST, 0, 1, from), op(RETURN, 0, 0, ERRNO | EPERM)]);
        }
        ops.extend(return_if(arch::FLOCK, ERRNO));
        for &call in arch::OBSERVERS {
            ops.extend(return_if(call, ERRNO | ENOSYS));
        }
        ops.extend([op(JUMP_IF_EQUAL, 1, 0, arch::FCNTL), op(RETURN, 0, 0, ALLOW)]);
        ops.push(op(LOAD_WORD, 0, 0, SECOND_ARGUMENT));
        for command in FCNTL_LOCKS {
            ops.extend(return_if(command, ERRNO));
        }
        for command in FCNTL_PROBES {
            ops.extend(return_if(command, ERRNO | ENOLCK));
        }
        ops.push(op(RETURN, 0, 0, ALLOW));
        Some(ops.concat())
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_ends_by_allowing_and_every_jump_lands_inside_it() {
        let Some(bytes) = program() else { return };
        assert_eq!(bytes.len() % 8, 0);
        let ops: Vec<&[u8]> = bytes.chunks(8).collect();
        assert_eq!(ops.last().unwrap(), &op(RETURN, 0, 0, ALLOW));
        for (at, op) in ops.iter().enumerate() {
            let code = u16::from_ne_bytes([op[0], op[1]]);
            if code == JUMP_IF_EQUAL || code == JUMP_IF_AT_LEAST {
                assert!(at + 1 + (op[2].max(op[3]) as usize) < ops.len(), "jump at {at}");
            }
        }
    }
}
