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
    let view = view(&bots, 0, Some(&root.join("out")));
    let at = shown(&view);
    assert!(at.contains(&root.as_path()), "its working directory: {view:?}");
    assert!(at.contains(&Path::new("/usr")), "the system: {view:?}");
    assert!(!at.iter().any(|p| p.starts_with(root.join("out"))), "nothing of the output directory: {view:?}");
    assert_eq!(view.hidden, vec![root.join("b"), root.join("out")], "{view:?}");
    // What a's command names is a's: hidden from b.
    let view_b = super::view(&bots, 1, Some(&root.join("out")));
    assert_eq!(view_b.hidden, vec![root.join("a"), root.join("data"), root.join("out")], "{view_b:?}");
}

#[test]
fn a_directory_shared_with_the_bot_stays_visible() {
    let tree = Tree::new("shared");
    tree.program("bots/a", "#!/bin/sh\n");
    tree.program("bots/b", "#!/bin/sh\n");
    let bots = [tree.bot("a", "./a", "bots"), tree.bot("b", "./b", "bots")];
    assert_eq!(view(&bots, 0, None).hidden, Vec::<PathBuf>::new());
}

#[test]
fn a_program_in_a_bin_directory_is_shown_with_its_installation() {
    let tree = Tree::new("installation");
    let python = tree.program("py/bin/python9", "binary");
    tree.program("bot/bot.py", "#!/usr/bin/env -S python9 -u\n");
    let mut env = BTreeMap::new();
    env.insert("PATH".to_string(), tree.0.join("py/bin").to_string_lossy().into_owned());
    let dir = tree.0.join("bot");
    let bots = [
        BotSpec::new("direct", &format!("{} bot.py", python.display()), &dir, BTreeMap::new()).unwrap(),
        BotSpec::new("by-path", "./bot.py", &dir, env).unwrap(),
    ];
    for bot in 0..2 {
        let view = view(&bots, bot, None);
        assert!(shown(&view).contains(&tree.0.join("py").as_path()), "{view:?}");
        assert!(shown(&view).contains(&dir.as_path()), "{view:?}");
    }
    assert_eq!(interpreter(&dir.join("bot.py"), bots[1].search_path().as_os_str()), Some(python.clone()));
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
    let why = refusal(&bots, &tree.0).expect("its directory is the output directory");
    assert!(why.contains("bot \"a\"") && why.contains("output directory"), "{why}");
    assert!(refusal(&bots, &tree.0.join("out")).is_none(), "an output directory inside the bot's is hidden");
    assert!(refusal(&bots, Path::new("/")).unwrap().contains("/usr"));
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
