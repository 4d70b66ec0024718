//! Helpers for the end-to-end tests: locating (and building) the arena and
//! the sample bots, fresh scratch directories, running `arena`, reading its
//! output, and checking that no bot process outlived it.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the workspace").to_path_buf()
}

/// How the tests build the workspace's binaries (`scripts/test-times` too).
///
/// `--examples` (the workspace has none) asks for the dev-dependencies'
/// features, as `cargo test --workspace` does: without it cargo unifies
/// the features of some dependencies (zerocopy, once_cell) differently and
/// builds them, the workspace's libraries and the arena again, a second copy
/// beside the one `cargo test --workspace` has just built.
pub const BUILD_BINS: [&str; 5] = ["build", "--quiet", "--workspace", "--bins", "--examples"];

/// The directory holding the workspace's binaries for the profile these tests were built with.
pub fn bin_dir() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            // The test executable lives in <target>/<profile>/deps/.
            let exe = std::env::current_exe().expect("test executable path");
            let profile_dir = exe.parent().and_then(Path::parent).expect("target/<profile>/deps").to_path_buf();
            let mut cargo = Command::new(env!("CARGO"));
            cargo.current_dir(root()).args(BUILD_BINS);
            // (`scripts/test-times` sets it for the test harness's timings; cargo
            // would build everything again for a compiler told it.)
            cargo.env_remove("RUSTC_BOOTSTRAP");
            if profile_dir.file_name().is_some_and(|name| name == "release") {
                cargo.arg("--release");
            }
            let status = cargo.status().expect("cargo runs");
            assert!(status.success(), "cargo {} failed", BUILD_BINS[..].join(" "));
            profile_dir
        })
        .clone()
}

/// The path of a workspace binary, e.g. `bin("greedy-bot")`.
pub fn bin(name: &str) -> String {
    bin_dir().join(name).to_string_lossy().into_owned()
}

/// A path under the workspace, as a string.
pub fn repo_path(relative: &str) -> String {
    root().join(relative).to_string_lossy().into_owned()
}

/// A fresh, empty scratch directory for one test; removed when dropped.
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// A new directory named after the test.
    pub fn new(test: &str) -> Scratch {
        Scratch::within(&std::env::temp_dir(), test)
    }

    /// A new directory named after the test, inside `parent` (e.g. away
    /// from `/tmp`, which the sandbox replaces with a private one).
    pub fn within(parent: &Path, test: &str) -> Scratch {
        let path = parent.join(format!("arena-e2e-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create scratch dir");
        Scratch { path }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path inside it, as a string.
    pub fn join(&self, name: &str) -> String {
        self.path.join(name).to_string_lossy().into_owned()
    }

    /// A marker to append to bot commands so their processes can be found later.
    pub fn marker(&self) -> String {
        self.path.to_string_lossy().into_owned()
    }

    /// Processes still running whose command line mentions this directory.
    pub fn leftover_processes(&self) -> Vec<String> {
        processes_mentioning(&self.marker())
    }

    /// Waits up to `patience` for no process to mention this directory for
    /// half a second on end (one look may miss processes that live a few
    /// milliseconds each); returns the processes seen last if some still do.
    pub fn lingering(&self, patience: Duration) -> Vec<String> {
        const QUIET: Duration = Duration::from_millis(500);
        let deadline = Instant::now() + patience;
        let mut quiet_since = Instant::now();
        loop {
            let left = self.leftover_processes();
            if !left.is_empty() {
                quiet_since = Instant::now();
                if quiet_since > deadline {
                    return left;
                }
            } else if quiet_since.elapsed() >= QUIET {
                return left;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The processes of test bots (as `NAME.PID`) that lived out their
    /// lifetime, nothing having ended them: each says so with a file
    /// `lived-out.NAME.PID` here (see `tests/bots/botlib.py`).
    pub fn lived_out(&self) -> Vec<String> {
        let entries = std::fs::read_dir(&self.path).expect("the scratch directory can be read");
        let names = entries.flatten().map(|entry| entry.file_name().to_string_lossy().into_owned());
        names.filter_map(|name| name.strip_prefix("lived-out.").map(str::to_string)).collect()
    }

    /// Fails unless nothing mentions this directory any more within `patience` (see [`Scratch::lingering`]).
    pub fn assert_nothing_left(&self, patience: Duration) {
        let left = self.lingering(patience);
        assert!(left.is_empty(), "processes left behind: {left:?}");
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Command lines of live processes (other than zombies) that contain `needle`.
pub fn processes_mentioning(needle: &str) -> Vec<String> {
    process_table()
        .into_iter()
        .filter(|p| p.state != 'Z' && p.cmdline.contains(needle))
        .map(|p| format!("{}: {}", p.pid, p.cmdline))
        .collect()
}

/// A process, as `/proc` shows it.
#[derive(Debug, Clone)]
pub struct ProcessInfo {
    /// Its pid.
    pub pid: u32,
    /// Its parent's pid.
    pub parent: u32,
    /// Its state: `R`, `S`, `T`, `Z` (a zombie) …
    pub state: char,
    /// Its command line, the arguments separated by spaces (empty for a zombie).
    pub cmdline: String,
}

/// Every process, from `/proc`.
pub fn process_table() -> Vec<ProcessInfo> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
            let state = fields.next()?.chars().next()?;
            let parent = fields.next()?.parse().ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ").trim_end().to_string();
            Some(ProcessInfo { pid, parent, state, cmdline })
        })
        .collect()
}

/// The processes below `root` (its children, their children, …).
pub fn descendants(root: u32) -> Vec<ProcessInfo> {
    let table = process_table();
    let mut below: Vec<ProcessInfo> = Vec::new();
    let mut parents = vec![root];
    while let Some(parent) = parents.pop() {
        for process in table.iter().filter(|p| p.parent == parent) {
            parents.push(process.pid);
            below.push(process.clone());
        }
    }
    below
}

/// How long any one process a test starts may run: far more than any test
/// needs, so that a hang fails its test with a message instead of stalling
/// the whole suite until CI gives up on it.
pub const DEADLINE: Duration = Duration::from_secs(300);

/// How long a test waits for the processes of bots to be gone once the
/// arena has ended them: milliseconds on a quiet machine, so far more than
/// a busy one needs, and yet well within the 25 s a test bot lives on its
/// own (`tests/bots/botlib.py`), so that a process left behind is still seen.
pub const LINGER: Duration = Duration::from_secs(10);

/// Time limits that no busy machine reaches (a minute for each move and for
/// a start), for runs of well-behaved bots whose point is not a timeout: on
/// a machine with tens of processes to a core a bot may wait seconds for
/// one, and a timeout would change the games that the test compares.
pub const PATIENT: [&str; 4] = ["--move-timeout", "60000", "--startup-timeout", "60000"];

/// `flags` followed by [`PATIENT`].
pub fn patient<'a>(flags: &[&'a str]) -> Vec<&'a str> {
    flags.iter().copied().chain(PATIENT).collect()
}

/// Waits until `out/games.jsonl` holds at least `lines` records, for at most
/// [`DEADLINE`].
pub fn wait_for_records(out: &str, lines: usize) {
    let deadline = Instant::now() + DEADLINE;
    while std::fs::read_to_string(Path::new(out).join("games.jsonl")).map_or(0, |t| t.lines().count()) < lines {
        assert!(Instant::now() < deadline, "no {lines} games in {out} after {DEADLINE:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Waits until the bot `tests/bots/gated.py`, held by the file `gate`, is
/// waiting at it (it writes `GATE.waiting`), for at most [`DEADLINE`].
pub fn wait_at_gate(gate: &str) {
    let deadline = Instant::now() + DEADLINE;
    while !Path::new(&format!("{gate}.waiting")).exists() {
        assert!(Instant::now() < deadline, "the gated bot never reached its first turn in {DEADLINE:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `job` on every one of `cases`, `at_once` at a time: each of
/// `at_once` threads takes the next case as soon as its last one is done (so
/// that cases which wait on timeouts overlap). Returns what `job` returned,
/// in no particular order.
pub fn at_once<T: Sync, R: Send>(at_once: usize, cases: &[T], job: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::Mutex::new(cases.iter());
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..at_once)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(case) = { next.lock().expect("no worker panics holding it").next() } {
                        done.push(job(case));
                    }
                    done
                })
            })
            .collect();
        workers.into_iter().flat_map(|worker| worker.join().expect("a job panicked")).collect()
    })
}

/// Waits for `child` to exit, collecting whatever it writes to piped stdout
/// and stderr; kills it and panics if it is still running after [`DEADLINE`],
/// or if its pipes are still held open (by a process it left behind) well
/// after it exited.
pub fn finish(child: Child) -> Output {
    finish_watched(child, DEADLINE, |_| {})
}

/// [`finish`], with a deadline of `limit`, calling `watch` with the child's
/// pid every few milliseconds while it runs.
pub fn finish_watched(child: Child, limit: Duration, watch: impl FnMut(u32)) -> Output {
    settle(child, limit, watch, |_| {})
}

/// [`finish`] for a program started in a process group of its own that may
/// leave helpers behind it (Chromium's linger on a busy machine): once it
/// exits, whatever of its group is left is killed, so that its pipes close.
pub fn finish_group(child: Child) -> Output {
    settle(
        child,
        DEADLINE,
        |_| {},
        |pid| {
            let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(pid as i32), nix::sys::signal::Signal::SIGKILL);
        },
    )
}

/// Waits for `child` within `limit` (calling `watch` with its pid every few
/// milliseconds), calls `exited` with its pid once it has exited, and
/// collects its output.
fn settle(mut child: Child, limit: Duration, mut watch: impl FnMut(u32), exited: impl FnOnce(u32)) -> Output {
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::sync::mpsc::Receiver<Vec<u8>> {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            let _ = sender.send(bytes);
        });
        receiver
    }
    let (stdout, stderr) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("process {} still running after {limit:?}: killed", child.id());
        }
        watch(child.id());
        std::thread::sleep(Duration::from_millis(5));
    };
    exited(child.id());
    let collect = |pipe: std::sync::mpsc::Receiver<Vec<u8>>, name: &str| {
        pipe.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| {
            panic!(
                "process {} exited ({status}), but its {name} is still open 30 s later: a process it started holds it",
                child.id()
            )
        })
    };
    Output { status, stdout: collect(stdout, "stdout"), stderr: collect(stderr, "stderr") }
}

/// The address that `child` (its stderr piped) names on its stderr after
/// `prefix` (the first word after it, on the first line holding it), and a
/// thread that gathers the rest of its stderr (and what came before).
pub fn address_on_stderr(child: &mut Child, prefix: &str) -> (String, std::thread::JoinHandle<String>) {
    let mut stderr = std::io::BufReader::new(child.stderr.take().expect("stderr is piped"));
    let mut seen = String::new();
    let url = loop {
        let mut line = String::new();
        let read = std::io::BufRead::read_line(&mut stderr, &mut line).expect("stderr reads");
        assert!(read > 0, "no address named after {prefix:?}:\n{seen}");
        seen.push_str(&line);
        if let Some(at) = line.find(prefix) {
            break line[at + prefix.len()..].split_whitespace().next().expect("an address").to_string();
        }
    };
    let rest = std::thread::spawn(move || {
        let _ = stderr.read_to_string(&mut seen);
        seen
    });
    (url, rest)
}

/// Runs `command` as [`Command::output`] does (stdin empty, stdout and
/// stderr collected), but within [`DEADLINE`].
pub fn output(command: &mut Command) -> Output {
    let child = command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    finish(child.unwrap_or_else(|e| panic!("{command:?} cannot start: {e}")))
}

/// `arena` with these arguments, ready to start with stdin empty and stdout
/// and stderr piped.
pub fn arena_command<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Command {
    let mut command = Command::new(bin("arena"));
    command.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

/// Runs `arena` with these arguments and returns its output, within [`DEADLINE`].
pub fn arena<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    finish(arena_command(args).spawn().expect("arena starts"))
}

/// Runs `arena` and asserts it exited with `status`; returns (stdout, stderr).
pub fn arena_expect<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S], status: i32) -> (String, String) {
    let output = arena(args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(status), "arena {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    (stdout, stderr)
}

/// Arguments of `arena match` between `bots` (name, command), each command
/// tagged with the scratch directory's marker, followed by `extra`.
pub fn match_args(scratch: &Scratch, bots: &[(&str, &str)], extra: &[&str]) -> Vec<String> {
    let mut args = vec!["match".to_string()];
    for (name, command) in bots {
        args.push("--bot".to_string());
        args.push(format!("{name}={command} {}", scratch.marker()));
    }
    args.extend(extra.iter().map(|arg| arg.to_string()));
    args
}

/// The Python interpreter itself (not a launcher such as a pyenv shim,
/// whose start-up is slow enough to trip start-up timeouts on a busy machine).
pub fn python() -> String {
    static PYTHON: OnceLock<String> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let output = Command::new("python3")
                .args(["-c", "import sys; print(sys.executable)"])
                .output()
                .expect("python3 is on PATH");
            String::from_utf8(output.stdout).expect("a path").trim().to_string()
        })
        .clone()
}

/// The command of the Python sample bot.
pub fn python_greedy() -> String {
    format!("{} {}", python(), repo_path("sample-bots/python/greedy.py"))
}

pub use records::sprt::Sprt;
pub use records::standings::{HeadToHead, RepeatedDeals, Standing, Standings, WengLin};

/// A game record, one line of `games.jsonl` (`arena/RECORDS.md`), its
/// variant and events kept as JSON (each event with its timing fields).
pub type Record = records::record::GameRecord<serde_json::Value, serde_json::Value>;

/// The records of `DIR/games.jsonl`, typed (see [`Recorded::all`]).
pub fn records(out: &str) -> Vec<Record> {
    Record::all(out)
}

/// A record's JSON without its timing fields (`duration_ms`, and `time_us` and
/// `clock_us` of each event): what the same seed and deterministic bots
/// reproduce exactly.
pub fn without_timing(mut record: serde_json::Value) -> serde_json::Value {
    record.as_object_mut().expect("a record is an object").remove("duration_ms");
    for event in record["events"].as_array_mut().expect("events").iter_mut() {
        let event = event.as_object_mut().expect("an event is an object");
        event.remove("time_us");
        event.remove("clock_us");
    }
    record
}

/// The lines of `DIR/games.jsonl` as JSON, for a test that edits records
/// (to check that a damaged one is refused) or compares them as text.
pub fn record_json(out: &str) -> Vec<serde_json::Value> {
    let text = file_text(out, records::files::GAMES);
    text.lines().map(|line| serde_json::from_str(line).expect("each record is JSON")).collect()
}

/// The records of `DIR/games.jsonl` without timing fields, as text lines.
pub fn canonical_records(out: &str) -> Vec<String> {
    record_json(out).into_iter().map(|record| without_timing(record).to_string()).collect()
}

/// Checks that `typed`, read from the JSON `text`, writes back the same
/// JSON: a field the arena adds or renames fails it, so that it shows in the
/// tests as in the document (`arena/RECORDS.md`).
fn reads_whole<T: serde::Serialize + std::fmt::Debug>(typed: &T, text: &str) {
    let written: serde_json::Value = serde_json::from_str(text).expect("the file is JSON");
    let back = serde_json::to_value(typed).expect("a typed file is JSON");
    assert_eq!(back, written, "the typed reader drops or renames a field of {text}");
}

/// The text of `DIR/name`.
fn file_text(out: &str, name: &str) -> String {
    std::fs::read_to_string(Path::new(out).join(name)).unwrap_or_else(|e| panic!("{out}/{name}: {e}"))
}

/// A file of an output directory, read back typed and whole: written back,
/// the typed value must give the file's JSON.
pub trait ReadBack: Sized {
    /// `DIR/standings.json`, `DIR/sprt.json`.
    fn read(out: &str) -> Self;
}

impl ReadBack for Standings {
    fn read(out: &str) -> Standings {
        let standings = records::files::standings(Path::new(out)).unwrap_or_else(|e| panic!("{e}"));
        reads_whole(&standings, &file_text(out, records::files::STANDINGS));
        standings
    }
}

impl ReadBack for Sprt {
    fn read(out: &str) -> Sprt {
        let sprt = records::files::sprt(Path::new(out)).unwrap_or_else(|e| panic!("{e}"));
        reads_whole(&sprt, &file_text(out, records::files::SPRT_RESULT));
        sprt
    }
}

/// What the tests ask of [`Standings`].
pub trait Ranked {
    /// The standing of bot `name`, which must be there.
    fn bot(&self, name: &str) -> &Standing;
}

impl Ranked for Standings {
    fn bot(&self, name: &str) -> &Standing {
        self.standing(name).unwrap_or_else(|| panic!("no bot {name} in {self:?}"))
    }
}

/// What the tests ask of a [`Record`].
pub trait Recorded: Sized {
    /// The records of `DIR/games.jsonl`, in the file's order, each read whole
    /// (written back, it gives its line's JSON).
    fn all(out: &str) -> Vec<Self>;
    /// The seat of bot `name` (its first, if it holds several).
    fn seat_of(&self, name: &str) -> usize;
    /// The events of type `kind`.
    fn events_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a serde_json::Value> + 'a;
    /// The kinds of its faults, in order.
    fn fault_kinds(&self) -> Vec<&'static str>;
    /// The id the bots were told in `game_start` (`records::seeds::game_tag`).
    fn told_id(&self) -> u64;
}

impl Recorded for Record {
    fn all(out: &str) -> Vec<Record> {
        let all: Vec<Record> = records::files::games(Path::new(out)).unwrap_or_else(|e| panic!("{e}"));
        for (record, line) in all.iter().zip(file_text(out, records::files::GAMES).lines()) {
            reads_whole(record, line);
        }
        all
    }

    fn seat_of(&self, name: &str) -> usize {
        self.bots.iter().position(|bot| bot == name).unwrap_or_else(|| panic!("no {name} in game {}", self.id))
    }

    fn events_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a serde_json::Value> + 'a {
        self.events.iter().filter(move |event| event["type"] == kind)
    }

    fn fault_kinds(&self) -> Vec<&'static str> {
        self.faults.iter().map(|fault| fault.kind.name()).collect()
    }

    fn told_id(&self) -> u64 {
        records::seeds::game_tag(self.seed, self.id)
    }
}

/// Every line the recorder bot's processes received, one list per process.
pub fn recorded(dir: &Path) -> Vec<Vec<all_fives::wire::ToBot>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".log"))
        .map(|e| {
            std::fs::read_to_string(e.path())
                .unwrap()
                .lines()
                .map(|line| protocol::line::decode(line.as_bytes()).unwrap_or_else(|e| panic!("{e}: {line}")))
                .collect()
        })
        .collect()
}

/// An optional tool some tests need: the command, and the Debian package that installs it.
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    /// The command looked up on `PATH`, e.g. `"chromium"`.
    pub command: &'static str,
    /// The Debian package that provides it.
    pub package: &'static str,
}

/// Headless Chromium, for the viewer's test.
pub const CHROMIUM: Tool = Tool { command: "chromium", package: "chromium" };
/// bubblewrap, for the sandbox tests.
pub const BWRAP: Tool = Tool { command: "bwrap", package: "bubblewrap" };
/// The C++ compiler, for the C++ sample bot.
pub const GXX: Tool = Tool { command: "g++", package: "g++" };
/// The Java runtime, for the Java sample bot.
pub const JAVA: Tool = Tool { command: "java", package: "default-jdk-headless" };
/// The Java compiler, for the Java sample bot.
pub const JAVAC: Tool = Tool { command: "javac", package: "default-jdk-headless" };

/// The path of `tool` on `PATH`, for a test that needs it.
///
/// When it is missing the test is skipped: this prints a notice naming the
/// test, the tool and how to install it (written to stderr directly, so that
/// `cargo test` shows it even for a passing test), adds the test to the file
/// named by `ARENA_SKIPPED_LOG` if set (`scripts/check` lists them at the
/// end), and returns `None`; the test then returns at once. With
/// `ARENA_REQUIRE_TOOLS=1` (as `.ci/run` sets it) a missing tool fails the
/// test instead, so that nothing is skipped where the tools are meant to be.
pub fn optional_tool(tool: Tool) -> Option<PathBuf> {
    let found = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join(tool.command))
        .find(|path| path.is_file());
    if found.is_none() {
        let install = format!("apt-get install {} (Debian), or run .ci/run, which installs it", tool.package);
        skip_for_want_of(tool.command, "is not on PATH", &install);
    }
    found
}

/// An optional Python module some tests need: its name, and the PyPI package that installs it.
#[derive(Debug, Clone, Copy)]
pub struct PythonModule {
    /// The module imported, e.g. `"pyspiel"`.
    pub module: &'static str,
    /// The PyPI package that provides it.
    pub package: &'static str,
}

/// OpenSpiel's Python module, for the OpenSpiel bridge's tests.
pub const PYSPIEL: PythonModule = PythonModule { module: "pyspiel", package: "open-spiel" };

/// numpy, for the batching sample bot (`sample-bots/python/batched_leduc.py`).
pub const NUMPY: PythonModule = PythonModule { module: "numpy", package: "numpy" };

/// Whether [`python`] can import `module`, for a test that needs it; when it
/// cannot, the test is skipped (or fails) as [`optional_tool`] describes.
pub fn optional_python_module(module: PythonModule) -> bool {
    let imported = Command::new(python())
        .args(["-c", &format!("import {}", module.module)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !imported {
        let install = format!("python3 -m pip install {}, or run .ci/run, which installs it", module.package);
        skip_for_want_of(module.module, "cannot be imported by python3", &install);
    }
    imported
}

/// The current test is skipped because the machine was too busy for what it
/// needs (e.g. a match without a timeout, `why`), after it tried again: a
/// notice on stderr and in `ARENA_SKIPPED_LOG`, never a failure, since a busy
/// machine is no defect of the arena.
pub fn skip_for_load(why: &str) {
    let test = std::thread::current().name().unwrap_or("a test").to_string();
    let _ = writeln!(std::io::stderr(), "notice: SKIPPED {test}: the machine was too busy: {why}");
    if let Some(log) = std::env::var_os("ARENA_SKIPPED_LOG") {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(log);
        let _ = file.and_then(|mut file| writeln!(file, "{test} (a busy machine)"));
    }
}

/// The current test is skipped for want of `what`, which `absent` (e.g.
/// "is not on PATH"): a notice on stderr and in `ARENA_SKIPPED_LOG`, or a
/// panic with `ARENA_REQUIRE_TOOLS=1`; `install` says how to get it.
fn skip_for_want_of(what: &str, absent: &str, install: &str) {
    let test = std::thread::current().name().unwrap_or("a test").to_string();
    if std::env::var("ARENA_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        panic!("{test} needs {what}, which {absent}, and ARENA_REQUIRE_TOOLS=1: {install}");
    }
    let notice = format!("notice: SKIPPED {test}: {what} {absent} ({install})");
    let _ = writeln!(std::io::stderr(), "{notice}");
    if let Some(log) = std::env::var_os("ARENA_SKIPPED_LOG") {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(log);
        let _ = file.and_then(|mut file| writeln!(file, "{test} (no {what})"));
    }
}

/// The flags of every headless Chromium of the tests: no sandbox (the
/// tests may run as root), no GPU, nothing fetched behind the page's back.
const HEADLESS: [&str; 6] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-extensions",
    "--no-first-run",
];

/// Headless Chromium (Debian's `chromium`) with its own profile directory,
/// for the tests of the pages `arena view` and `arena report` write.
pub struct Browser {
    path: PathBuf,
    profile: String,
}

impl Browser {
    /// Chromium, or `None` (with a notice, see [`optional_tool`]) when it is not installed.
    pub fn find(scratch: &Scratch) -> Option<Browser> {
        let path = optional_tool(CHROMIUM)?;
        Some(Browser { path, profile: scratch.join("chromium-profile") })
    }

    /// Runs Chromium on the file `page` with the address fragment `hash` and
    /// these extra flags (e.g. `--dump-dom`), giving the page 5 s of virtual
    /// time; returns its stdout.
    pub fn run(&self, page: &str, hash: &str, extra: &[&str]) -> String {
        self.run_logged(page, hash, extra).0
    }

    /// [`Browser::run`], also returning what the page wrote to its console
    /// (its own and its frames', uncaught errors included): each message a
    /// line of Chromium's log.
    pub fn run_logged(&self, page: &str, hash: &str, extra: &[&str]) -> (String, Vec<String>) {
        // Files, not pipes: a helper Chromium leaves behind on a busy machine
        // (outside its process group) may hold its output open long after it
        // exited. Each run writes new files, whatever an old helper holds.
        let (out, err) = (format!("{}.stdout", self.profile), format!("{}.stderr", self.profile));
        let file = |path: &str| {
            let _ = std::fs::remove_file(path);
            std::fs::File::create(path).unwrap_or_else(|e| panic!("cannot create {path}: {e}"))
        };
        let chromium = Command::new(&self.path)
            .args(HEADLESS)
            .args([
                "--virtual-time-budget=5000",
                "--enable-logging=stderr",
                "--v=0",
                &format!("--user-data-dir={}", self.profile),
            ])
            .args(extra)
            .arg(format!("file://{page}#{hash}"))
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(file(&out))
            .stderr(file(&err))
            .spawn();
        let output = finish_group(chromium.unwrap_or_else(|e| panic!("chromium cannot start: {e}")));
        let read = |path: &str| String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).into_owned();
        let (stdout, stderr) = (read(&out), read(&err));
        assert!(output.status.success(), "chromium failed:\n{stderr}");
        let console = stderr.lines().filter(|line| line.contains(":CONSOLE")).map(String::from).collect();
        (stdout, console)
    }

    /// A 1280×900 screenshot; returns the PNG's bytes.
    pub fn screenshot(&self, page: &str, hash: &str, png: &str) -> Vec<u8> {
        self.run(page, hash, &["--window-size=1280,900", &format!("--screenshot={png}")]);
        std::fs::read(png).expect("the screenshot was written")
    }
}

/// The JVM flags docs/bots.md gives for bots in Java: a small heap and small
/// reservations, so that the JVM starts under any address-space limit down to 1G.
pub const JVM_FLAGS: &str =
    "-Xmx64m -XX:+UseSerialGC -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=32m -Xss512k";

/// The C++ sample bot, built with the command of sample-bots/README.md and
/// copied into `dir`; `None` (skipped with a notice) without `g++`.
pub fn cpp_greedy(dir: &Path) -> Option<String> {
    let gxx = optional_tool(GXX)?;
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let exe = built_once_dir().join("greedy-cpp");
        let status = Command::new(gxx)
            .args(["-O2", "-std=c++17", "-Wall", "-Wextra", "-Werror"])
            .arg(root().join("sample-bots/cpp/greedy.cpp"))
            .arg("-o")
            .arg(&exe)
            .status()
            .expect("g++ runs");
        assert!(status.success(), "sample-bots/cpp/greedy.cpp does not compile");
        exe
    });
    let exe = dir.join("greedy-cpp");
    std::fs::copy(built, &exe).unwrap_or_else(|e| panic!("cannot copy {} to {}: {e}", built.display(), exe.display()));
    Some(exe.to_string_lossy().into_owned())
}

/// The command of the Java sample bot compiled with `javac` (its classes
/// copied into `dir`), run with [`JVM_FLAGS`]; `None` (skipped with a notice)
/// without a JDK.
pub fn java_greedy(dir: &Path) -> Option<String> {
    let java = optional_tool(JAVA)?;
    let javac = optional_tool(JAVAC)?;
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let classes = built_once_dir().join("greedy-java");
        let status = Command::new(javac)
            .args(["-Xlint:all", "-Werror", "-d"])
            .arg(&classes)
            .arg(root().join("sample-bots/java/Greedy.java"))
            .status()
            .expect("javac runs");
        assert!(status.success(), "sample-bots/java/Greedy.java does not compile");
        classes
    });
    let classes = dir.join("greedy-java");
    std::fs::create_dir_all(&classes).expect("create the classes' directory");
    for class in std::fs::read_dir(built).expect("the classes can be listed").flatten() {
        std::fs::copy(class.path(), classes.join(class.file_name())).expect("copy a class");
    }
    Some(format!("{} {JVM_FLAGS} -cp {} Greedy", java.display(), classes.display()))
}

/// A directory for what the tests build once and share ([`cpp_greedy`],
/// [`java_greedy`]): a compiler's start-up costs seconds on a busy machine,
/// and several tests run each sample bot. It is `e2e-built/PID` beside the
/// binaries, this test process's own (`cargo test` runs may overlap); those
/// of processes that have ended are removed.
fn built_once_dir() -> PathBuf {
    let all = bin_dir().join("e2e-built");
    for entry in std::fs::read_dir(&all).into_iter().flatten().flatten() {
        let pid = entry.file_name().to_string_lossy().parse::<u32>();
        if pid.is_ok_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let own = all.join(std::process::id().to_string());
    std::fs::create_dir_all(&own).unwrap_or_else(|e| panic!("cannot create {}: {e}", own.display()));
    own
}

/// A deal of a one-hand, five-tile All Fives game (`deal=five`): hands for
/// seat 0 and seat 1, the rest in the boneyard.
pub fn five_tile_deal(hands: [&[[u8; 2]]; 2], leader: usize) -> serde_json::Value {
    let dealt: Vec<[u8; 2]> = hands.iter().flat_map(|hand| hand.iter().copied()).collect();
    let boneyard: Vec<[u8; 2]> =
        (0..=6u8).flat_map(|a| (a..=6).map(move |b| [a, b])).filter(|tile| !dealt.contains(tile)).collect();
    serde_json::json!({"hands": hands, "boneyard": boneyard, "leader": leader})
}

/// A page open in headless Chromium, driven over the DevTools protocol on a
/// pipe (`--remote-debugging-pipe`: commands on the browser's fd 3, answers
/// on its fd 4, each message JSON ended by a NUL byte), for a page that
/// changes while it is open: [`Devtools::eval`] reads it at any time. The
/// browser is killed when this is dropped.
pub struct Devtools {
    child: Child,
    commands: std::io::PipeWriter,
    answers: std::sync::mpsc::Receiver<serde_json::Value>,
    session: String,
    next: u64,
}

impl Browser {
    /// Opens `url` in a new headless Chromium of this profile.
    pub fn open(&self, url: &str) -> Devtools {
        use std::os::fd::AsRawFd;
        let (command_reader, commands) = std::io::pipe().expect("a pipe");
        let (answer_reader, answer_writer) = std::io::pipe().expect("a pipe");
        let (from, to) = (command_reader.as_raw_fd(), answer_writer.as_raw_fd());
        let mut chromium = Command::new(&self.path);
        chromium
            .args(HEADLESS)
            .args([
                "--remote-debugging-pipe",
                "--window-size=1280,1000",
                &format!("--user-data-dir={}", self.profile),
                "about:blank",
            ])
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only dup2 and fcntl, which are async-signal-safe, between fork and exec.
        unsafe {
            chromium.pre_exec(move || {
                // Out of the way of 3 and 4 first, then onto them (dup2 clears close-on-exec).
                let high = |fd| nix::libc::fcntl(fd, nix::libc::F_DUPFD, 10);
                let (from, to) = (high(from), high(to));
                if from < 0 || to < 0 || nix::libc::dup2(from, 3) < 0 || nix::libc::dup2(to, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = chromium.spawn().unwrap_or_else(|e| panic!("chromium cannot start: {e}"));
        drop((command_reader, answer_writer));
        let (sender, answers) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = std::io::BufReader::new(answer_reader);
            let mut message = Vec::new();
            while std::io::BufRead::read_until(&mut reader, 0, &mut message).is_ok_and(|n| n > 0) {
                let text = message.strip_suffix(&[0]).unwrap_or(&message);
                if let Ok(value) = serde_json::from_slice(text)
                    && sender.send(value).is_err()
                {
                    break;
                }
                message.clear();
            }
        });
        let mut devtools = Devtools { child, commands, answers, session: String::new(), next: 0 };
        let target = devtools.call("Target.createTarget", serde_json::json!({"url": url}));
        let target = target["targetId"].as_str().expect("a target").to_string();
        let attached = devtools.call("Target.attachToTarget", serde_json::json!({"targetId": target, "flatten": true}));
        devtools.session = attached["sessionId"].as_str().expect("a session").to_string();
        devtools
    }
}

impl Devtools {
    /// Sends `method` with `params` (to the page, once attached) and waits for its answer's result.
    pub fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.next += 1;
        let mut message = serde_json::json!({"id": self.next, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = self.session.clone().into();
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.commands.write_all(&bytes).expect("chromium reads its commands");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = self.answers.recv_timeout(left).unwrap_or_else(|e| panic!("no answer to {method}: {e}"));
            if answer["id"] == self.next {
                assert!(answer.get("error").is_none(), "{method} failed: {answer}");
                return answer["result"].clone();
            }
        }
    }

    /// The value of the JavaScript `expression` in the page (JSON-able).
    pub fn eval(&mut self, expression: &str) -> serde_json::Value {
        let params = serde_json::json!({"expression": expression, "returnByValue": true});
        let result = self.call("Runtime.evaluate", params);
        assert!(result.get("exceptionDetails").is_none(), "{expression} threw: {result}");
        result["result"]["value"].clone()
    }
}

impl Drop for Devtools {
    fn drop(&mut self) {
        let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(self.child.id() as i32), nix::sys::signal::SIGKILL);
        let _ = self.child.wait();
    }
}
