//! Keeping the arena's descriptors from its bots. Whatever the arena
//! inherited without close-on-exec (a shell's `7<secret`, a CI runner's or a
//! job scheduler's descriptors) would otherwise reach every bot it starts,
//! and bubblewrap passes on what it is given.

use nix::libc;
use std::io;

/// Marks every descriptor above 2 close-on-exec, so that the program about
/// to be executed starts with only stdin, stdout and stderr. Meant for the
/// child between fork and exec: it makes only `close_range` (Linux 5.11 and
/// later) or, failing that, `fcntl` system calls, over the descriptors below
/// `limit` (the arena's own limit of open files, read before the fork).
///
/// They are marked rather than closed: the standard library's spawn still
/// needs its own close-on-exec pipe, through which a failed exec is reported.
pub fn close_on_exec_above_stderr(limit: u64) -> io::Result<()> {
    // SAFETY: close_range takes no pointers; it only changes the flags of
    // this process's descriptors.
    let marked = unsafe {
        libc::syscall(libc::SYS_close_range, 3 as libc::c_uint, libc::c_uint::MAX, libc::CLOSE_RANGE_CLOEXEC)
    };
    if marked == 0 { Ok(()) } else { mark_each_below(limit) }
}

/// Marks the descriptors from 3 to `limit` close-on-exec, one by one (for
/// kernels without `close_range`'s `CLOSE_RANGE_CLOEXEC`).
fn mark_each_below(limit: u64) -> io::Result<()> {
    for fd in 3..limit.min(libc::c_int::MAX as u64) as libc::c_int {
        // SAFETY: fcntl with F_GETFD and F_SETFD takes no pointers.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
        if flags >= 0 && flags & libc::FD_CLOEXEC == 0 {
            // SAFETY: as above.
            if unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) } < 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// The arena's own limit of open files, which bounds the descriptors it can hold.
pub fn open_file_limit() -> u64 {
    nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE).map_or(1024, |(soft, _)| soft)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    fn close_on_exec(fd: &impl AsRawFd) -> bool {
        // SAFETY: fcntl with F_GETFD takes no pointers.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFD) & libc::FD_CLOEXEC != 0 }
    }

    #[test]
    fn every_descriptor_above_stderr_is_marked_either_way() {
        for mark in [close_on_exec_above_stderr, mark_each_below] {
            let (read, write) = nix::unistd::pipe().unwrap();
            // SAFETY: as above; F_SETFD 0 clears close-on-exec.
            unsafe {
                libc::fcntl(read.as_raw_fd(), libc::F_SETFD, 0);
                libc::fcntl(write.as_raw_fd(), libc::F_SETFD, 0);
            }
            assert!(!close_on_exec(&read) && !close_on_exec(&write));
            mark(open_file_limit()).unwrap();
            assert!(close_on_exec(&read) && close_on_exec(&write));
            assert!(!close_on_exec(&std::io::stderr()), "stdin, stdout and stderr stay");
        }
    }
}
