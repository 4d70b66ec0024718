use super::*;

const ALLOW: u32 = 0x7fff_0000;
const ERRNO: u32 = 0x0005_0000;
const KILL_PROCESS: u32 = 0x8000_0000;
/// `AUDIT_ARCH_I386`: a 32-bit call.
const I386: u32 = 0x4000_0003;

fn audit(arch: TargetArch) -> u32 {
    match arch {
        TargetArch::x86_64 => 0xc000_003e,
        TargetArch::aarch64 => 0xc000_00b7,
        other => panic!("no table for {other:?}"),
    }
}

/// What one classic BPF filter answers to a call, for the instructions
/// `seccompiler` emits (loads of `struct seccomp_data`, AND, jumps, returns).
fn run(program: &[sock_filter], arch: u32, number: u32, args: [u64; 6]) -> u32 {
    let word = |offset: u32| -> u32 {
        match offset {
            0 => number,
            4 => arch,
            16..=63 => {
                let arg = args[(offset as usize - 16) / 8];
                if offset.is_multiple_of(8) { arg as u32 } else { (arg >> 32) as u32 }
            }
            other => panic!("load at {other}"),
        }
    };
    let (mut pc, mut a) = (0usize, 0u32);
    loop {
        let op = &program[pc];
        pc += 1;
        match op.code {
            0x20 => a = word(op.k),
            0x54 => a &= op.k,
            0x06 => return op.k,
            0x05 => pc += op.k as usize,
            0x15 | 0x25 | 0x35 | 0x45 => {
                let taken = match op.code {
                    0x15 => a == op.k,
                    0x25 => a > op.k,
                    0x35 => a >= op.k,
                    _ => a & op.k != 0,
                };
                pc += if taken { op.jt } else { op.jf } as usize;
            }
            other => panic!("instruction {other:#x} at {}", pc - 1),
        }
    }
}

/// What the kernel answers with all of `filters` installed: each runs, and
/// the strictest action wins (the first one, newest first, among equals).
fn verdict(filters: &[BpfProgram], arch: u32, number: i64, args: [u64; 6]) -> u32 {
    let action = |ret: u32| (ret & 0xffff_0000) as i32;
    filters
        .iter()
        .rev()
        .map(|filter| run(filter, arch, number as u32, args))
        .fold(ALLOW, |best, ret| if action(ret) < action(best) { ret } else { best })
}

/// Checks every rule of `calls`' table through the compiled filters.
fn check(calls: &Calls) {
    let filters = filters(calls);
    let arch = audit(calls.arch);
    let call = |number: i64, args: [u64; 6]| verdict(&filters, arch, number, args);
    let with = |index: usize, value: u64| {
        let mut args = [u64::MAX; 6];
        args[index] = value;
        args
    };
    let errno = |e: i32| ERRNO | e as u32;
    // Locks do nothing; probes, leases and notifications are refused; the rest of fcntl works.
    assert_eq!(call(calls.flock, [0; 6]), ERRNO);
    for command in FCNTL_LOCKS {
        assert_eq!(call(calls.fcntl, with(1, command)), ERRNO, "fcntl {command}");
    }
    for command in FCNTL_PROBES {
        assert_eq!(call(calls.fcntl, with(1, command)), errno(libc::ENOLCK), "fcntl {command}");
    }
    for ordinary in [0, 1, 2, 3, 4] {
        assert_eq!(call(calls.fcntl, with(1, ordinary)), ALLOW, "F_DUPFD..F_SETFL {ordinary}");
    }
    // The page cache can be neither dropped nor probed.
    for advice in FADVISE_DROPS {
        assert_eq!(call(calls.fadvise64, with(3, advice)), ERRNO, "fadvise {advice}");
    }
    for advice in [0, 1, 2, 3] {
        assert_eq!(call(calls.fadvise64, with(3, advice)), ALLOW, "fadvise {advice}");
    }
    for advice in MADVISE_DROPS {
        assert_eq!(call(calls.madvise, with(2, advice)), ERRNO, "madvise {advice}");
    }
    for advice in [0, 3, 4, 8, 15, 22] {
        assert_eq!(call(calls.madvise, with(2, advice)), ALLOW, "madvise {advice}");
    }
    for rw in calls.vectored_rw {
        assert_eq!(call(rw, with(5, RWF_NOWAIT)), errno(libc::EOPNOTSUPP));
        assert_eq!(call(rw, with(5, RWF_NOWAIT | 0x4)), errno(libc::EOPNOTSUPP), "RWF_NOWAIT with RWF_SYNC");
        assert_eq!(call(rw, with(5, 0)), ALLOW);
        assert_eq!(call(rw, with(5, 0x4)), ALLOW, "RWF_SYNC alone");
    }
    for &missing in calls.missing {
        assert_eq!(call(missing, [0; 6]), errno(libc::ENOSYS), "call {missing}");
    }
    // Everything else is allowed; another architecture is killed.
    for ordinary in [calls.fcntl + 1000, 60, 93] {
        assert_eq!(call(ordinary, [0; 6]), ALLOW, "call {ordinary}");
    }
    assert_eq!(verdict(&filters, I386, 1, [0; 6]), KILL_PROCESS);
    assert_eq!(call(X32_FROM as i64 + 39, [0; 6]), if calls.x32 { errno(libc::EPERM) } else { ALLOW });
}

#[test]
fn every_rule_holds_on_x86_64() {
    check(&X86_64);
}

#[test]
fn every_rule_holds_on_aarch64() {
    check(&AARCH64);
}

#[test]
fn the_native_table_names_the_calls_the_c_library_names() {
    let calls = NATIVE.expect("the arena is built for x86-64 or AArch64");
    let named = [
        (calls.fcntl, libc::SYS_fcntl),
        (calls.flock, libc::SYS_flock),
        (calls.fadvise64, libc::SYS_fadvise64),
        (calls.madvise, libc::SYS_madvise),
        (calls.vectored_rw[0], libc::SYS_preadv2),
        (calls.vectored_rw[1], libc::SYS_pwritev2),
    ];
    for (table, c) in named {
        assert_eq!(table, c);
    }
    let mut missing = vec![
        libc::SYS_inotify_init1,
        libc::SYS_fanotify_init,
        libc::SYS_mincore,
        451, // cachestat, which the C library's headers may not name yet
        libc::SYS_process_madvise,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_io_setup,
        libc::SYS_io_submit,
    ];
    #[cfg(target_arch = "x86_64")]
    missing.push(libc::SYS_inotify_init);
    let mut table = calls.missing.to_vec();
    table.sort();
    missing.sort();
    assert_eq!(table, missing);
    assert_eq!(programs().len(), count());
    assert!(programs().iter().all(|program| !program.is_empty() && program.len().is_multiple_of(8)));
}
