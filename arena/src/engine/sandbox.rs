//! An engine program under `--sandbox bwrap`: every process of it runs in
//! the bots' sandbox ([`crate::bot::sandbox`]), with the same namespaces
//! (its own processes only: it sees no bot's process, nor the arena's, and
//! can signal none), no capabilities, no network, the same refused system
//! calls, a private `/tmp` and `/dev/shm` and the per-process limits of a
//! bot by default. It sees what a bot would see in its place
//! ([`crate::bot::visible`]): the system, its own directories and its
//! interpreter's installation, read-only; never the output directory, the
//! league file or the deals file, nor the bots' directories.
//!
//! One thing differs: it sees those files where they lie, not in a copy of
//! its own in memory. A bot's copy keeps it from signalling another bot
//! through the pages of a file both read; an engine holds every seat's
//! secrets anyway, and its interpreter's packages (OpenSpiel's, for the
//! bridge) can weigh far more than a copy may take.

use super::program::Program;
use crate::bot::limits::ResourceLimits;
use crate::bot::sandbox::{self, Sandbox, SandboxError, Wrapped};
use crate::bot::spec::BotSpec;
use crate::bot::visible;
use std::path::PathBuf;

/// How a run's engine program is confined: what it must not see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confinement {
    /// The bots of the run, whose directories it does not see.
    bots: Vec<BotSpec>,
    /// The output directory, the league file, the deals file.
    private: Vec<PathBuf>,
}

impl Confinement {
    /// How `program` runs in a run of `bots` under `sandbox`, with `private`
    /// (the output directory, the league file, the deals file) hidden:
    /// `None` without a sandbox (it is then trusted like the arena).
    ///
    /// # Errors
    /// When the sandbox cannot run here, or cannot hold the engine with
    /// `private` hidden (its directory inside one of them, or `/` or the
    /// home directory), saying what to change.
    pub fn of(
        sandbox: Sandbox,
        program: &Program,
        bots: &[BotSpec],
        private: &[PathBuf],
    ) -> Result<Option<Confinement>, SandboxError> {
        if sandbox == Sandbox::None {
            return Ok(None);
        }
        sandbox::usable()?;
        // A command that cannot be split is refused where it is started, naming the engine.
        if let Ok(engine) = spec(&program.command, &program.dir)
            && let Some(why) = visible::engine_refusal(&engine, private)
        {
            return Err(SandboxError::EngineRefused { command: program.command.clone(), why: Box::new(why) });
        }
        Ok(Some(Confinement { bots: bots.to_vec(), private: private.to_vec() }))
    }

    /// The command that runs `engine` in the sandbox, seeing what it may
    /// as things are now (an output directory made since is hidden too).
    pub fn wrap(&self, engine: &BotSpec) -> Wrapped {
        let mut all = self.bots.clone();
        all.push(engine.clone());
        let mut view = visible::view(&all, all.len() - 1, &self.private);
        // What does not exist yet has nothing to hide, and no place to cover.
        view.hidden.retain(|path| path.exists());
        view.blanked.retain(|path| path.exists());
        sandbox::wrap_in_place(engine, &view, ResourceLimits::default().tmp)
    }
}

/// An engine program as a process to start: its command in `dir`, with
/// the clean environment of a bot.
pub fn spec(command: &str, dir: &std::path::Path) -> Result<BotSpec, crate::bot::spec::SpecError> {
    let spec = BotSpec::new("engine", command, dir, Default::default())?;
    match spec.remote {
        // Engines run here: a command that names a bot over the network is not one.
        Some(_) => Err(crate::bot::spec::SpecError::Remote {
            name: spec.name,
            why: format!("{command:?} names a bot over the network; an engine is a program run here"),
        }),
        None => Ok(spec),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn an_engine_sees_its_own_directory_and_not_the_output_nor_the_bots_and_is_refused_what_shows_too_much() {
        let root = tempfile::tempdir().unwrap();
        let (engine_dir, bot_dir, out) =
            (root.path().join("game"), root.path().join("game/bot"), root.path().join("game/out"));
        for dir in [&engine_dir, &bot_dir, &out] {
            std::fs::create_dir_all(dir).unwrap();
        }
        let engine = spec("sh -c true", &engine_dir).unwrap();
        let bot = BotSpec::new("b", "sh -c true", &bot_dir, Default::default()).unwrap();
        let confinement = Confinement { bots: vec![bot], private: vec![out.clone(), root.path().join("no-such-file")] };
        let Wrapped { argv, options } = confinement.wrap(&engine);
        assert_eq!(argv[options + 1..], ["--", "sh", "-c", "true"], "{argv:?}");
        for flag in ["--unshare-all", "--disable-userns", "--die-with-parent", "--new-session", "--add-seccomp-fd"] {
            assert!(argv.contains(&flag.to_string()), "{flag}: {argv:?}");
        }
        let text = |path: &Path| path.to_string_lossy().into_owned();
        let has = |words: &[String]| argv.windows(words.len()).any(|w| w == words);
        let real = engine_dir.canonicalize().unwrap();
        assert!(has(&["--ro-bind".into(), text(&real), text(&real)]), "its directory, read-only: {argv:?}");
        let covered = |path: &Path| has(&["--tmpfs".into(), text(&real.join(path.file_name().unwrap()))]);
        assert!(covered(&out), "the output directory is hidden: {argv:?}");
        assert!(covered(&bot_dir), "the bot's directory is hidden: {argv:?}");
        assert!(!argv.iter().any(|arg| arg.contains("no-such-file")), "nothing to hide: {argv:?}");

        let refused = |dir: &Path, private: &[PathBuf]| {
            let why = visible::engine_refusal(&spec("sh -c true", dir).unwrap(), private)?;
            Some(SandboxError::EngineRefused { command: "sh -c true".to_string(), why: Box::new(why) }.to_string())
        };
        assert_eq!(refused(&engine_dir, std::slice::from_ref(&out)), None);
        let inside = refused(&out, std::slice::from_ref(&out)).expect("an engine inside the output is refused");
        assert!(inside.contains("the engine \"sh -c true\" needs") && inside.contains("(--out)"), "{inside}");
        let everything = refused(Path::new("/"), &[]).expect("an engine seeing / is refused");
        assert!(
            everything.contains("would see all of /") && everything.contains("directory of its own"),
            "{everything}"
        );
    }
}
