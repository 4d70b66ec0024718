use super::*;
use std::collections::BTreeMap;

/// A fresh directory tree for one test (removed when dropped), with real paths.
struct Tree(PathBuf);

impl Tree {
    fn new(test: &str) -> Tree {
        let path = std::env::temp_dir().join(format!("arena-visible-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Tree(path.canonicalize().unwrap())
    }

    /// Creates an executable file (and its directories) at `relative`.
    fn program(&self, relative: &str, text: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn bot(&self, name: &str, command: &str, dir: &str) -> BotSpec {
        let dir = self.0.join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        BotSpec::new(name, command, &dir, BTreeMap::new()).unwrap()
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn shown(view: &View) -> Vec<&Path> {
    view.binds.iter().map(|(_, at)| at.as_path()).collect()
}

#[test]
fn a_bot_sees_its_own_files_and_the_output_directory_and_other_bots_are_hidden() {
    let tree = Tree::new("own");
    let root = &tree.0;
    tree.program("a/bot", "#!/bin/sh\n");
    tree.program("b/bot", "#!/bin/sh\n");
    std::fs::create_dir_all(root.join("data")).unwrap();
    std::fs::create_dir_all(root.join("out/logs")).unwrap();
    // Both run in the checkout (`root`), as `--bot` bots do; a names a data
    // file, and one in the output directory.
    let bots = [
        tree.bot("a", &format!("a/bot {}/data out/logs {}/out", root.display(), root.display()), ""),
        tree.bot("b", "b/bot", ""),
    ];
    let view = view(&bots, 0, &[root.join("out")]);
    let at = shown(&view);
    assert!(at.contains(&root.as_path()), "its working directory: {view:?}");
    assert!(at.contains(&Path::new("/usr")), "the system: {view:?}");
    assert!(!at.iter().any(|p| p.starts_with(root.join("out"))), "nothing of the output directory: {view:?}");
    assert_eq!(view.hidden, vec![root.join("b"), root.join("out")], "{view:?}");
    // What a's command names is a's: hidden from b.
    let view_b = super::view(&bots, 1, &[root.join("out")]);
    assert_eq!(view_b.hidden, vec![root.join("a"), root.join("data"), root.join("out")], "{view_b:?}");
}

#[test]
fn a_directory_shared_with_the_bot_stays_visible() {
    let tree = Tree::new("shared");
    tree.program("bots/a", "#!/bin/sh\n");
    tree.program("bots/b", "#!/bin/sh\n");
    let bots = [tree.bot("a", "./a", "bots"), tree.bot("b", "./b", "bots")];
    assert_eq!(view(&bots, 0, &[]).hidden, Vec::<PathBuf>::new());
}

#[test]
fn a_program_in_a_bin_directory_is_shown_with_its_installation() {
    let tree = Tree::new("installation");
    let python = tree.program("py/bin/python9", "binary");
    tree.program("bot/bot.py", "#!/usr/bin/env -S python9 -u\n");
    let mut env = BTreeMap::new();
    env.insert("PATH".to_string(), tree.0.join("py/bin").to_string_lossy().into_owned());
    let dir = tree.0.join("bot");
    let bots = [BotSpec::new("direct", &format!("{} bot.py", python.display()), &dir, BTreeMap::new()).unwrap()];
    let view = super::view(&bots, 0, &[]);
    assert!(shown(&view).contains(&tree.0.join("py").as_path()), "{view:?}");
    assert!(shown(&view).contains(&dir.as_path()), "{view:?}");
    let path = env["PATH"].clone();
    assert_eq!(interpreter(&dir.join("bot.py"), path.as_ref()), Some(python.clone()));
    // The bot's own `#!` line decides nothing: its interpreter is not shown.
    let script = [BotSpec::new("script", "./bot.py", &dir, env).unwrap()];
    let view = super::view(&script, 0, &[]);
    assert!(!shown(&view).iter().any(|p| p.starts_with(tree.0.join("py"))), "{view:?}");
    assert_eq!(installation(Path::new("/bin/sh")), PathBuf::from("/bin"), "never all of /");
    if let Some(home) = std::env::var_os("HOME") {
        let program = Path::new(&home).join("bin/tool");
        assert_eq!(installation(&program), Path::new(&home).join("bin"), "never the whole home directory");
    }
}

#[test]
fn a_bot_inside_the_output_directory_is_refused() {
    let tree = Tree::new("refused");
    tree.program("bot", "#!/bin/sh\n");
    let bots = [tree.bot("a", "./bot", "")];
    let why = refusal(&bots, std::slice::from_ref(&tree.0)).expect("its directory is the output directory").to_string();
    assert!(why.contains("bot \"a\"") && why.contains("output directory"), "{why}");
    assert!(refusal(&bots, &[tree.0.join("out")]).is_none(), "an output directory inside the bot's is hidden");
    assert!(refusal(&bots, &[PathBuf::from("/")]).unwrap().to_string().contains("/usr"));
}

#[test]
fn real_paths_resolve_links_and_keep_what_does_not_exist() {
    let tree = Tree::new("real");
    std::fs::create_dir_all(tree.0.join("target")).unwrap();
    std::os::unix::fs::symlink(tree.0.join("target"), tree.0.join("link")).unwrap();
    assert_eq!(real(&tree.0.join("link/new/file")), tree.0.join("target/new/file"));
    assert!(plain(&tree.0.join("link")));
    assert!(!plain(Path::new("/a/../b")));
}

#[test]
fn nothing_a_bot_wrote_decides_what_it_sees() {
    let tree = Tree::new("written");
    std::fs::create_dir_all(tree.0.join("secret/bin")).unwrap();
    std::fs::write(tree.0.join("secret/key"), "secret").unwrap();
    tree.program("secret/bin/tool", "binary");
    // The reviewer's attack: env's -u takes the next word, which names the secret's installation.
    let attack = format!("#!/usr/bin/env -S -u {}/bin/tool python3\n", tree.0.join("secret").display());
    tree.program("bot/bot.py", &attack);
    std::os::unix::fs::symlink(tree.0.join("secret"), tree.0.join("bot/lib")).unwrap();
    std::os::unix::fs::symlink(tree.0.join("secret/bin/tool"), tree.0.join("bot/run")).unwrap();
    std::os::unix::fs::symlink("/usr/bin", tree.0.join("bot/system")).unwrap();
    let dir = tree.0.join("bot");
    for command in ["./bot.py", "./run", "./bot.py lib", "./bot.py lib/key", "./bot.py system"] {
        let bots = [BotSpec::new("b", command, &dir, BTreeMap::new()).unwrap()];
        let view = view(&bots, 0, &[]);
        let sources: Vec<&Path> = view.binds.iter().map(|(source, _)| source.as_path()).collect();
        assert!(!sources.iter().any(|p| p.starts_with(tree.0.join("secret"))), "{command}: {view:?}");
        assert!(shown(&view).contains(&dir.as_path()), "{command}: {view:?}");
    }
}

#[test]
fn the_league_file_and_the_deals_file_are_blanked_and_directories_that_show_too_much_refused() {
    let tree = Tree::new("secrets");
    tree.program("bot", "#!/bin/sh\n");
    std::fs::write(tree.0.join("league.toml"), "seed = 1").unwrap();
    std::fs::create_dir_all(tree.0.join("out")).unwrap();
    std::fs::write(tree.0.join("out/deals.json"), "[]").unwrap();
    let bots = [tree.bot("a", "./bot", "")];
    let private = [tree.0.join("league.toml"), tree.0.join("out"), tree.0.join("out/deals.json")];
    let view = view(&bots, 0, &private);
    assert_eq!(view.blanked, vec![tree.0.join("league.toml")], "{view:?}");
    assert_eq!(view.hidden, vec![tree.0.join("out")], "{view:?}");
    assert_eq!(refusal(&bots, &private), None);
    std::fs::create_dir_all(tree.0.join("shard-2")).unwrap();
    std::fs::write(tree.0.join("shard-2/games.jsonl"), "").unwrap();
    let why = refusal(&bots, &private).expect("another run's records").to_string();
    assert!(why.contains("shard-2/games.jsonl") && why.contains("another run"), "{why}");
    let everything = [BotSpec::new("root", "/bin/sh", Path::new("/"), BTreeMap::new()).unwrap()];
    let why = refusal(&everything, &[]).expect("all of /").to_string();
    assert!(why.contains("would see all of /"), "{why}");
}

#[test]
fn a_copy_holds_the_bot_s_own_files_the_libraries_they_need_and_nothing_private() {
    use plan::{Entry, plan};
    let tree = Tree::new("plan");
    tree.program("bot/run", "#!/bin/sh\n");
    std::fs::write(tree.0.join("bot/model.bin"), vec![7u8; 1000]).unwrap();
    std::fs::create_dir_all(tree.0.join("bot/out")).unwrap();
    std::fs::write(tree.0.join("bot/out/games.jsonl"), "secret").unwrap();
    std::fs::write(tree.0.join("bot/league.toml"), "seed = 1").unwrap();
    // An interpreter installed outside the bot's directory, with packages left out of its copy.
    let python = tree.program("py/bin/python9", "binary");
    std::fs::create_dir_all(tree.0.join("py/lib/python9/site-packages/big")).unwrap();
    std::fs::write(tree.0.join("py/lib/python9/os.py"), "").unwrap();
    // A system program, which brings its ELF libraries.
    std::fs::copy("/bin/sh", tree.0.join("bot/shell")).unwrap();
    tree.program("other/x", "#!/bin/sh\n");
    let dir = tree.0.join("bot");
    let bots = [
        BotSpec::new("b", &format!("{} run", python.display()), &dir, BTreeMap::new()).unwrap(),
        tree.bot("other", "./x", "other"),
    ];
    let private = [dir.join("out"), dir.join("league.toml")];
    let plan = plan(&bots, 0, &private, &crate::bot::registry::Registry::new()).expect("a small view");
    let entry = |path: &Path| plan.entries.get(path);
    assert!(matches!(entry(&dir.join("model.bin")), Some(Entry::File(_, 1000))), "{plan:?}");
    assert_eq!(entry(&dir.join("out")), Some(&Entry::Dir), "the output directory is empty");
    assert_eq!(entry(&dir.join("out/games.jsonl")), None);
    assert_eq!(entry(&dir.join("league.toml")), Some(&Entry::Empty));
    assert!(entry(&tree.0.join("py/lib/python9/os.py")).is_some(), "its interpreter's installation");
    assert_eq!(entry(&tree.0.join("py/lib/python9/site-packages")), None, "without its packages");
    assert_eq!(entry(&tree.0.join("other")), None, "nor another bot's directory");
    for needed in ["/etc/ld.so.cache", "/usr/share/zoneinfo/UTC"] {
        assert!(entry(&real(Path::new(needed))).is_some(), "{needed}: {plan:?}");
    }
    let libc = plan.entries.keys().any(|path| path.file_name().is_some_and(|name| name == "libc.so.6"));
    assert!(libc, "the C library, which its ELF files need");
    assert!(!plan.entries.keys().any(|path| path.starts_with("/usr/lib/python3")), "nothing of the system's Python");
    let files: u64 = plan.entries.values().map(|e| if let Entry::File(_, bytes) = e { *bytes } else { 0 }).sum();
    assert_eq!(plan.bytes, files);
}
