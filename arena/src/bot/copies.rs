//! A view of its own for every sandboxed bot process: the root the sandbox
//! shows it is a copy, in memory, of everything it may read (what
//! [`super::visible::plan`] lists), which no other live process uses. So
//! nothing a process does to those files' pages (reading them into the
//! page cache or trying to drop them, a futex on a mapping of one) is seen
//! by another process alive at the same time: their files are other files.
//!
//! Copies are kept in a pool per bot. A process takes a free copy, or a new
//! one is made, through a [`Lease`] that its launch carries and the process
//! holds until it is dead with everything it started; only then does the
//! copy return to the pool. A later process may get a dead one's copy: a
//! file of a read-only tmpfs keeps no state a process can set. Its pages
//! are always in memory (tmpfs has no backing file to evict them to, and
//! the seccomp filters make `MADV_PAGEOUT` and `MADV_COLD` do nothing), so
//! reading or advising marks nothing; the sandbox shows it read-only, so no
//! access time, file or attribute is written; tmpfs keeps no dentry of a
//! name looked up and not found; locks do nothing under the filters, and
//! futexes and mappings die with the process. Two marks remain where the
//! machine allows them, and there copies are not reused ([`reusable`]):
//! with swap, which pages of a copy a process read decides which ones
//! memory pressure moves out first; and where tmpfs gives huge pages
//! without being asked (`shmem_enabled` `always`, `within_size` or
//! `force`), mapping a file lets the kernel replace its pages with a huge
//! one (`MADV_HUGEPAGE` and `MADV_COLLAPSE`, which ask for it, do nothing
//! under the filters).
//!
//! The copies live in a directory of `/dev/shm` (checked to be a tmpfs),
//! named after the arena's pid and start time (and a number: `check-bot` makes several). It dies with the arena even
//! after `kill -9`: a janitor process (the arena's own executable in a
//! hidden mode, [`JANITOR`]) waits for the arena's end on a pipe only the
//! arena holds, then removes it; and each arena, as it starts, removes what
//! arenas no longer running left (a janitor killed too).

use super::registry::Registry;
use super::tree::start_time;
use super::visible::plan::{Entry, Plan};
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The first argument that makes the arena's executable a janitor.
pub const JANITOR: &str = "__view-janitor";
/// Where the copies live: memory.
const SHM: &str = "/dev/shm";
/// The start of the name of an arena's directory there.
const PREFIX: &str = "arena-views-";
/// `TMPFS_MAGIC`.
const TMPFS: i64 = 0x0102_1994;

/// The copies of a run's sandboxed bots.
pub struct Copies {
    /// The arena's directory of copies.
    root: PathBuf,
    /// Per bot: its plan, once made, and its free copies.
    bots: Vec<Arc<Mutex<Pool>>>,
    /// Whether a dead process's copy may be handed to another ([`reusable`]).
    reuse: bool,
    /// The arena's end of the janitor's pipe.
    _janitor: OwnedFd,
}

/// One bot's copies.
#[derive(Default)]
struct Pool {
    /// Free copies.
    free: Vec<PathBuf>,
    /// How many copies were made.
    made: usize,
}

/// A copy held by a process: it returns to its bot's pool when dropped, if
/// it was written whole.
pub struct Lease {
    root: PathBuf,
    pool: Arc<Mutex<Pool>>,
    /// The names the copy holds in `/tmp`, which the sandbox shows again
    /// over its own `/tmp`.
    in_tmp: Vec<PathBuf>,
    /// A new copy's writing: its plan until it is written ([`Lease::write`]),
    /// then whether that failed.
    writing: Mutex<Writing>,
    /// Whether it returns to the pool once its process is dead, or is removed.
    reuse: bool,
}

/// Where the writing of a lease's copy stands.
enum Writing {
    /// To be written from this plan.
    Due(Arc<Plan>),
    /// Written whole (or a free copy, written before).
    Done,
    /// Writing it failed, for this reason: it is removed, not returned.
    Failed(String),
}

impl Lease {
    /// The copy: the sandbox's root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The names the copy holds in `/tmp`.
    pub fn in_tmp(&self) -> &[PathBuf] {
        &self.in_tmp
    }

    /// Writes a new copy, if it is not written yet (a process started ahead
    /// of its lane has it written on a thread of its own, so that the games
    /// in play go on meanwhile); an error, every time, if that failed.
    /// Copies are written side by side: on 2 cores, writing them one at a
    /// time halved a sandboxed 6-bot league's games/s (docs/performance.md).
    pub fn write(&self) -> Result<(), String> {
        let mut writing = self.writing.lock().map_err(|_| "a poisoned lease".to_string())?;
        if let Writing::Due(plan) = &*writing {
            *writing = match realize(plan, &self.root) {
                Ok(()) => Writing::Done,
                Err(e) => {
                    let _ = std::fs::remove_dir_all(&self.root);
                    Writing::Failed(format!("cannot copy its view into /dev/shm: {e}"))
                }
            };
        }
        match &*writing {
            Writing::Failed(why) => Err(why.clone()),
            _ => Ok(()),
        }
    }
}

impl std::fmt::Debug for Lease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lease({})", self.root.display())
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let written = self.writing.get_mut().is_ok_and(|writing| matches!(writing, Writing::Done));
        if !written {
            return;
        }
        match self.pool.lock() {
            Ok(mut pool) if self.reuse => pool.free.push(self.root.clone()),
            _ => drop(std::fs::remove_dir_all(&self.root)),
        }
    }
}

impl Copies {
    /// A directory of copies for `bots` bots, after sweeping what dead
    /// arenas left; an error if `/dev/shm` is not a tmpfs or the janitor
    /// cannot start.
    /// The janitor is a helper of the arena's own in `registry` (see
    /// [`Registry::start_companion`]), which no sweep for leftovers kills.
    pub fn new(bots: usize, registry: &Registry) -> io::Result<Copies> {
        Copies::usable()?;
        let shm = Path::new(SHM);
        sweep(shm);
        let me = std::process::id();
        // A run may make several sets of copies (check-bot makes one per check).
        static SETS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let set = SETS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let root = shm.join(format!("{PREFIX}{me}-{}-{set}", start_time(me).unwrap_or(0)));
        std::fs::create_dir(&root)?;
        std::fs::set_permissions(&root, std::os::unix::fs::PermissionsExt::from_mode(0o700))?;
        let janitor = start_janitor(&root, registry)?;
        let bots = (0..bots).map(|_| Arc::new(Mutex::new(Pool::default()))).collect();
        Ok(Copies { root, bots, reuse: reusable(), _janitor: janitor })
    }

    /// Whether copies can be made here: `/dev/shm` is a tmpfs.
    pub fn usable() -> io::Result<()> {
        let stat = nix::sys::statfs::statfs(SHM).map_err(io::Error::from)?;
        if stat.filesystem_type().0 as i64 != TMPFS {
            return Err(io::Error::other(format!(
                "{SHM} is not a tmpfs (memory), where each sandboxed bot process gets a copy of what it sees"
            )));
        }
        Ok(())
    }

    /// A copy of `plan` for a process of bot `bot`: a free one, or a new
    /// one, to be written ([`Lease::write`]) before the process starts.
    pub fn lease(&self, bot: usize, plan: &Arc<Plan>) -> Lease {
        let pool = &self.bots[bot];
        let free = {
            let mut pool = pool.lock().expect("pool lock");
            match pool.free.pop() {
                Some(free) => Ok(free),
                None => {
                    pool.made += 1;
                    Err(pool.made)
                }
            }
        };
        let (root, writing) = match free {
            Ok(root) => (root, Writing::Done),
            Err(number) => (self.root.join(format!("bot-{bot}-{number}")), Writing::Due(plan.clone())),
        };
        let tmp = Path::new("/tmp");
        let in_tmp = plan.entries.keys().filter(|path| path.parent() == Some(tmp)).cloned().collect();
        Lease { root, pool: pool.clone(), in_tmp, writing: Mutex::new(writing), reuse: self.reuse }
    }

    /// How many copies of bot `bot`'s view were made.
    pub fn made(&self, bot: usize) -> usize {
        self.bots[bot].lock().expect("pool lock").made
    }
}

impl Drop for Copies {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// Writes `plan` at `root`.
fn realize(plan: &Plan, root: &Path) -> io::Result<()> {
    std::fs::create_dir(root)?;
    let at = |path: &Path| root.join(path.strip_prefix("/").unwrap_or(path));
    for (path, entry) in &plan.entries {
        let place = at(path);
        match entry {
            Entry::Dir => std::fs::create_dir_all(&place)?,
            Entry::Link(target) => std::os::unix::fs::symlink(target, &place)?,
            Entry::Empty => drop(File::create(&place)?),
            Entry::File(source, _) => {
                std::fs::copy(source, &place)?;
            }
        }
    }
    Ok(())
}

/// Whether a dead process's copy may be handed to a later process: the
/// machine has no swap (`/proc/swaps` lists none), and tmpfs gives huge
/// pages only when asked (`shmem_enabled` is `never`, `advise` or `deny`,
/// or the kernel has no such setting). See the module's text.
pub fn reusable() -> bool {
    let swaps = std::fs::read_to_string("/proc/swaps").map_or(0, |text| text.lines().skip(1).count());
    let huge = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/shmem_enabled").unwrap_or_default();
    let mode = huge.split_once('[').and_then(|(_, rest)| rest.split_once(']')).map_or("never", |(mode, _)| mode);
    swaps == 0 && matches!(mode, "never" | "advise" | "deny")
}

/// Removes the directories of arenas that are no longer running.
fn sweep(shm: &Path) {
    let Ok(entries) = std::fs::read_dir(shm) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let mut parts = name.strip_prefix(PREFIX).unwrap_or_default().split('-');
        let (Some(Ok(pid)), Some(Ok(started))) =
            (parts.next().map(str::parse::<u32>), parts.next().map(str::parse::<u64>))
        else {
            continue;
        };
        if start_time(pid) != Some(started) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Starts the janitor of `root`: it removes `root` once the returned pipe's end is closed.
fn start_janitor(root: &Path, registry: &Registry) -> io::Result<OwnedFd> {
    use std::os::unix::process::CommandExt;
    let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
    let mut command = std::process::Command::new(super::supervisor::PROGRAM);
    command
        .arg0("arena")
        .args([JANITOR.as_ref(), root.as_os_str()])
        .stdin(read)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0);
    let mut child = registry.start_companion(&mut command)?;
    // Reaped by a thread of its own, so that it leaves no zombie however long the arena runs.
    let registry = registry.clone();
    std::thread::spawn(move || {
        let _ = child.wait();
        registry.forget_companion(child.id() as i32);
    });
    Ok(write)
}

/// Runs as the janitor if the arena's executable was started as one
/// (`arena __view-janitor DIR`), and never returns then: waits for the end
/// of its standard input (the arena's end), removes `DIR` and exits.
pub fn serve_if_asked() {
    let mut args = std::env::args_os().skip(1);
    if args.next().is_none_or(|first| first != JANITOR) {
        return;
    }
    let Some(dir) = args.next().map(PathBuf::from) else { std::process::exit(2) };
    for signal in
        [nix::sys::signal::Signal::SIGINT, nix::sys::signal::Signal::SIGTERM, nix::sys::signal::Signal::SIGHUP]
    {
        // SAFETY: ignoring a signal installs no handler.
        let _ = unsafe { nix::sys::signal::signal(signal, nix::sys::signal::SigHandler::SigIgn) };
    }
    let mut sink = [0u8; 64];
    while !matches!(io::stdin().read(&mut sink), Ok(0) | Err(_)) {}
    let ok = dir.file_name().is_some_and(|name| name.to_string_lossy().starts_with(PREFIX));
    if ok && dir.parent() == Some(Path::new(SHM)) {
        let _ = std::fs::remove_dir_all(&dir);
    }
    std::process::exit(0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_returns_to_its_pool_when_its_lease_ends_and_the_directory_dies_with_its_owner() {
        let plan = Arc::new(Plan::default());
        let copies = Copies::new(2, &Registry::new()).unwrap();
        let first = copies.lease(0, &plan);
        let second = copies.lease(0, &plan);
        assert!(!first.root().exists(), "written when its process starts");
        first.write().unwrap();
        second.write().unwrap();
        assert!(first.root().is_dir());
        assert_ne!(first.root(), second.root(), "never two live processes on one copy");
        let other = copies.lease(1, &plan);
        other.write().unwrap();
        assert_ne!(other.root(), first.root());
        let reused = first.root().to_path_buf();
        drop(first);
        if copies.reuse {
            assert_eq!(copies.lease(0, &plan).root(), reused, "a dead process's copy is reused");
            let (again, unwritten) = (copies.lease(0, &plan), copies.lease(0, &plan));
            assert_eq!(again.root(), reused);
            drop((unwritten, again));
            let (again, _new) = (copies.lease(0, &plan), copies.lease(0, &plan));
            let made = (again.root(), copies.made(0));
            assert_eq!(made, (reused.as_path(), 4), "a copy never written is never handed out");
        } else {
            assert!(!reused.exists(), "this machine swaps, or gives tmpfs huge pages unasked: no reuse");
        }
        let root = copies.root.clone();
        assert!(root.is_dir());
        drop((second, other));
        drop(copies);
        assert!(!root.exists());
    }
}
